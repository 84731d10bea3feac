package rpc

import (
	"syscall"
	"testing"
	"unsafe"
)

// waitExited blocks until pid has exited, without reaping it (waitid with
// WNOWAIT), so it stays a zombie.
func waitExited(t *testing.T, pid int) {
	t.Helper()
	const pPID, wNoWait = 1, 0x01000000
	var info [128]byte
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|wNoWait, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			t.Fatalf("waitid: %v", errno)
		}
		return
	}
}
