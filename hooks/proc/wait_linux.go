package proc

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// sysPidfdOpen is pidfd_open(2), the same number on every Linux architecture.
const sysPidfdOpen = 434

// awaitExit returns once p has exited, without reaping it, and the exit as
// the kernel reports it: its code, or -1 when a signal ended it. ok is false
// when it could not tell; Wait then blocks and gives the exit instead.
//
// A blocking wait4 holds an OS thread for as long as the hook runs, and the
// Go runtime never gives those threads back: 3,000 hooks at once would leave
// 3,000 threads. A pidfd is readable once the process has exited, so the
// wait parks in the runtime's poller like a pipe read. Where pidfds are
// missing (Linux before 5.3) or cannot be had (no fd left), it returns at
// once with ok false.
//
// The process is left for Wait to reap, so that it keeps its pid and its
// group until then: knowing the exit, a caller can answer first and reap
// after (Run's reap).
func awaitExit(p *os.Process) (code int, ok bool, pidfd io.Closer) {
	// Raw: pidfd_open and waitid with WNOHANG never block, and a raw call
	// does not wake the runtime's monitor thread (internal/rawio).
	fd, _, errno := syscall.RawSyscall(sysPidfdOpen, uintptr(p.Pid), uintptr(syscall.O_NONBLOCK), 0)
	if errno != 0 {
		return 0, false, nil
	}
	f := os.NewFile(fd, "pidfd")
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return 0, false, nil
	}
	_ = rc.Read(func(fd uintptr) bool {
		var done bool
		code, ok, done = exitOf(fd)
		return done
	})
	if !ok {
		f.Close()
		return code, false, nil
	}
	return code, true, f
}

// exitOf asks waitid, without waiting or reaping, whether the pidfd's
// process has exited (done) and, if it has, how (code, ok as awaitExit's).
// done with ok false means waitid failed: there is nothing to wait for
// here, and Wait finds out why.
func exitOf(fd uintptr) (code int, ok, done bool) {
	const pPidfd, wNoWait = 3, 0x01000000
	var info [128]byte // siginfo_t
	_, _, errno := syscall.RawSyscall6(syscall.SYS_WAITID, pPidfd, fd, uintptr(unsafe.Pointer(&info[0])),
		syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
	switch {
	case errno == syscall.EINTR:
		return 0, false, false
	case errno != 0:
		return 0, false, true
	}
	// A child that changed state fills in SIGCHLD; none leaves it zeroed.
	if field(&info, 0) != int32(syscall.SIGCHLD) {
		return 0, false, false
	}
	status := field(&info, siStatusOffset)
	switch field(&info, siCodeOffset) {
	case cldExited:
		return int(status), true, true
	case cldKilled, cldDumped:
		return -1, true, true
	}
	return 0, false, true // not an exit: let Wait tell
}

// The si_code values of an exit (<asm-generic/siginfo.h>).
const (
	cldExited = 1
	cldKilled = 2
	cldDumped = 3
)

// siStatusOffset is where si_status lies in siginfo_t: the union that
// follows the three ints (si_signo, si_errno, si_code) is aligned as a
// pointer, and SIGCHLD's part of it is si_pid, si_uid, si_status.
const siStatusOffset = (12+unsafe.Sizeof(uintptr(0))-1)/unsafe.Sizeof(uintptr(0))*unsafe.Sizeof(uintptr(0)) + 8

// field is the int32 at off in info.
func field(info *[128]byte, off uintptr) int32 {
	return *(*int32)(unsafe.Pointer(&info[off]))
}
