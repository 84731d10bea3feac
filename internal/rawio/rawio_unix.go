//go:build !windows

// Package rawio reads and writes pollable files without the runtime's
// system-call bookkeeping.
package rawio

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// File reads and writes a file the poller waits on (a pipe or socket in
// non-blocking mode, as os.Pipe makes them) with
// raw system calls: read(2) and write(2) on a non-blocking descriptor
// return at once, so they need none of what the runtime does around a
// call that may block. That work is not free in a process that is idle
// between messages: the first such call after an idle spell wakes the
// runtime's monitor thread, which naps and goes back to sleep, three
// system calls and two thread switches per message on a host's one
// request at a time (docs/performance.md). A call that would block
// (EAGAIN) parks the goroutine in the poller as before, and the file's
// deadlines and Close end that wait as before.
type File struct {
	*os.File
	rc syscall.RawConn
}

// Of returns x as a File when it is an *os.File the poller waits on, else
// nil.
func Of(x any) *File {
	f, ok := x.(*os.File)
	if !ok || f.SetDeadline(time.Time{}) != nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	return &File{File: f, rc: rc}
}

func (r *File) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	werr := r.rc.Read(func(fd uintptr) bool {
		for {
			m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case 0:
				n = int(m)
				if n == 0 {
					err = io.EOF
				}
				return true
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				err = &os.PathError{Op: "read", Path: r.Name(), Err: e}
				return true
			}
		}
	})
	if err == nil && werr != nil {
		err = werr
	}
	return n, err
}

func (r *File) Write(p []byte) (n int, err error) {
	werr := r.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			m, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(m)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				err = &os.PathError{Op: "write", Path: r.Name(), Err: e}
				return true
			}
		}
		return true
	})
	if err == nil && werr != nil {
		err = werr
	}
	return n, err
}
