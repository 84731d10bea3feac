//go:build !windows

package rawio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func pipe(t *testing.T) (*File, *File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	rf, wf := Of(r), Of(w)
	if rf == nil || wf == nil {
		t.Fatal("os.Pipe ends are not pollable")
	}
	return rf, wf
}

// A write larger than the pipe holds waits in the poller for the reader
// and arrives whole, in order; the reader then sees EOF.
func TestFile_BigWriteWaitsForTheReaderAndArrivesWhole(t *testing.T) {
	r, w := pipe(t)
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB, 16 pipe buffers
	done := make(chan error, 1)
	go func() {
		n, err := w.Write(want)
		if err == nil && n != len(want) {
			err = io.ErrShortWrite
		}
		w.Close()
		done <- err
	}()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want %d, or not the same", len(got), len(want))
	}
}

// The file's deadline ends a write that waits on a full pipe, and Close
// ends a read that waits on an empty one.
func TestFile_DeadlineAndCloseEndAWait(t *testing.T) {
	r, w := pipe(t)
	if err := w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := w.Write(make([]byte, 4<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write to a full pipe: %v, want the deadline", err)
	}
	r2, _ := pipe(t)
	done := make(chan error, 1)
	go func() {
		_, err := r2.Read(make([]byte, 10))
		done <- err
	}()
	r2.Close()
	if err := <-done; err == nil {
		t.Fatal("a read of a closed file succeeded")
	}
	_ = r
}

// A regular file is not waited on by the poller, so it is not wrapped;
// neither is anything but an *os.File.
func TestOf_OnlyPollableFiles(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if Of(f) != nil {
		t.Error("a regular file was wrapped")
	}
	if Of(&bytes.Buffer{}) != nil {
		t.Error("a buffer was wrapped")
	}
}
