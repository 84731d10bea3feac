//go:build !windows

package rpc

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A host that never reads, on a real pipe: os.Pipe's write end is one the
// poller waits on, so the stream writes on the caller's goroutine with a
// deadline (writeDeadline). A frame larger than the pipe's buffer blocks.
func unreadPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	return w
}

func bigMessage() []byte {
	return []byte(`{"jsonrpc":"2.0","method":"a","params":"` + string(bytes.Repeat([]byte("x"), 1<<20)) + `"}`)
}

func TestStream_PollableWriteTimesOutAndStaysFailed(t *testing.T) {
	w := unreadPipe(t)
	stuck := make(chan struct{})
	s := NewStream(nil, w, nil, StreamOptions{Framing: FramingJSONL, WriteTimeout: 20 * time.Millisecond,
		OnWriteStuck: func() { close(stuck) }})
	if s.dw == nil {
		t.Fatal("the stream does not see os.Pipe's write end as pollable")
	}
	if err := s.WriteRaw(bigMessage()); !errors.Is(err, ErrWriteStuck) {
		t.Fatalf("write to a host that does not read: %v, want ErrWriteStuck", err)
	}
	<-stuck
	if err := s.WriteRaw([]byte(`{"jsonrpc":"2.0","method":"b"}`)); !errors.Is(err, ErrWriteStuck) {
		t.Fatalf("later write: %v, want ErrWriteStuck at once", err)
	}
}

func TestStream_AbandonEndsABlockedPollableWrite(t *testing.T) {
	for _, timeout := range []time.Duration{0, time.Hour} {
		w := unreadPipe(t)
		s := NewStream(nil, w, nil, StreamOptions{Framing: FramingJSONL, WriteTimeout: timeout})
		errc := make(chan error, 2)
		for range 2 { // one blocked in Write, one waiting for the write lock
			go func() { errc <- s.WriteRaw(bigMessage()) }()
		}
		s.Abandon()
		for range 2 {
			if err := <-errc; !errors.Is(err, ErrWriteStuck) {
				t.Errorf("timeout %v: abandoned write: %v, want ErrWriteStuck", timeout, err)
			}
		}
	}
}

func TestPollable_OnlyPipesAndSocketsTurnNonBlocking(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if p := pollable(int(f.Fd()), "f"); p != nil {
		t.Error("a regular file was made pollable")
	}
	if nonblocking(t, int(f.Fd())) {
		t.Error("a regular file was left in non-blocking mode")
	}
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		t.Fatal(err)
	}
	p := pollable(fds[1], "pipe")
	if p == nil {
		t.Fatal("a pipe was not made pollable")
	}
	defer p.Close()
	defer syscall.Close(fds[0])
	if err := p.SetWriteDeadline(time.Now().Add(time.Hour)); err != nil {
		t.Errorf("the pipe takes no deadline: %v", err)
	}
}

func nonblocking(t *testing.T, fd int) bool {
	t.Helper()
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}
