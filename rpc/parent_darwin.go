package rpc

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid runs. kill(pid, 0) alone succeeds on a
// zombie, so kqueue decides: registering EVFILT_PROC NOTE_EXIT on a process
// that has exited either fails with ESRCH or reports the exit at once.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	kq, err := syscall.Kqueue()
	if err != nil {
		return true // kill's answer stands
	}
	defer syscall.Close(kq)
	change := syscall.Kevent_t{Ident: uint64(pid), Filter: syscall.EVFILT_PROC,
		Flags: syscall.EV_ADD | syscall.EV_ONESHOT, Fflags: syscall.NOTE_EXIT}
	out := make([]syscall.Kevent_t, 1)
	n, err := syscall.Kevent(kq, []syscall.Kevent_t{change}, out, &syscall.Timespec{})
	switch {
	case errors.Is(err, syscall.ESRCH):
		return false
	case err != nil:
		return true
	case n > 0 && out[0].Flags&syscall.EV_ERROR != 0:
		return syscall.Errno(out[0].Data) != syscall.ESRCH
	case n > 0 && out[0].Fflags&syscall.NOTE_EXIT != 0:
		return false
	}
	return true
}
