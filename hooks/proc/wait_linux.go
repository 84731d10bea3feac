package proc

import (
	"os"
	"syscall"
	"unsafe"
)

// sysPidfdOpen is pidfd_open(2), the same number on every Linux architecture.
const sysPidfdOpen = 434

// awaitExit returns once p has exited, without reaping it. A blocking wait4
// holds an OS thread for as long as the hook runs, and the Go runtime never
// gives those threads back: 3,000 hooks at once would leave 3,000 threads.
// A pidfd is readable once the process has exited, so the wait parks in the
// runtime's poller like a pipe read. Where pidfds are missing (Linux before
// 5.3) or cannot be had (no fd left), it returns at once and Wait blocks as
// before.
func awaitExit(p *os.Process) {
	fd, _, errno := syscall.Syscall(sysPidfdOpen, uintptr(p.Pid), uintptr(syscall.O_NONBLOCK), 0)
	if errno != 0 {
		return
	}
	f := os.NewFile(fd, "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Read(func(fd uintptr) bool { return exited(fd) })
}

// exited asks waitid, without waiting or reaping, whether the pidfd's
// process has exited.
func exited(fd uintptr) bool {
	const pPidfd, wNoWait = 3, 0x01000000
	var info [128]byte // siginfo_t, whose first field is si_signo
	_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPidfd, fd, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
	if errno == syscall.EINTR {
		return false
	}
	if errno != 0 {
		return true // nothing to wait for here: let Wait find out
	}
	// A child that changed state fills in SIGCHLD; none leaves it zeroed.
	return *(*int32)(unsafe.Pointer(&info[0])) == int32(syscall.SIGCHLD)
}
