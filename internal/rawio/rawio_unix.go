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

// call is one read(2) or write(2) (trap) of p on fd, made again when a
// signal interrupted it.
func call(trap, fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

func (r *File) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	werr := r.rc.Read(func(fd uintptr) bool {
		m, e := call(syscall.SYS_READ, fd, p)
		switch e {
		case 0:
			n = m
			if n == 0 {
				err = io.EOF
			}
		case syscall.EAGAIN:
			return false
		default:
			err = &os.PathError{Op: "read", Path: r.Name(), Err: e}
		}
		return true
	})
	if err == nil && werr != nil {
		err = werr
	}
	return n, err
}

func (r *File) Write(p []byte) (n int, err error) {
	werr := r.rc.Write(func(fd uintptr) bool {
		var full bool
		n, full, err = r.writeFrom(fd, p, n)
		return !full // a full pipe: wait in the poller, then go on from n
	})
	if err == nil && werr != nil {
		err = werr
	}
	return n, err
}

// writeFrom writes p[n:] to fd until it is all written, the pipe is full
// for now, or the write fails, and returns how much of p is written.
func (r *File) writeFrom(fd uintptr, p []byte, n int) (int, bool, error) {
	for n < len(p) {
		m, e := call(syscall.SYS_WRITE, fd, p[n:])
		switch e {
		case 0:
			n += m
		case syscall.EAGAIN:
			return n, true, nil
		default:
			return n, false, &os.PathError{Op: "write", Path: r.Name(), Err: e}
		}
	}
	return n, false, nil
}

// TryWrite writes as much of p to f as f takes without waiting, and returns
// the rest (all of p when f is not a file the poller waits on). A write that
// fails leaves the rest to a later Write, which reports why.
func TryWrite(f *os.File, p []byte) []byte {
	r := Of(f)
	if r == nil {
		return p
	}
	n := 0
	_ = r.rc.Write(func(fd uintptr) bool {
		n, _, _ = r.writeFrom(fd, p, 0)
		return true
	})
	return p[n:]
}
