package proc

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// childPipe returns a pipe as hookd's end, which the poller waits on, and
// the child's end, a plain blocking descriptor: hookd reads when
// parentReads, else it writes. Both are close-on-exec; the start of the
// hook gives the child its copy.
func childPipe(parentReads bool) (r, w *os.File, err error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	parent := fds[1]
	if parentReads {
		parent = fds[0]
	}
	// A new pipe's status flags are its access mode, which F_SETFL leaves
	// as it is: setting O_NONBLOCK needs no F_GETFL first. Raw, as neither
	// call can block.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_FCNTL, uintptr(parent), syscall.F_SETFL, syscall.O_NONBLOCK); errno != 0 {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil, nil, os.NewSyscallError("fcntl", errno)
	}
	// os.NewFile registers a non-blocking descriptor with the poller and
	// leaves a blocking one as it is.
	return os.NewFile(uintptr(fds[0]), "|0"), os.NewFile(uintptr(fds[1]), "|1"), nil
}
