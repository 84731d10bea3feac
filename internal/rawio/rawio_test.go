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

// TryWrite writes what the pipe takes without waiting and returns the rest;
// a file the poller does not wait on gets nothing ahead.
func TestTryWrite_WritesWhatFitsAndReturnsTheRest(t *testing.T) {
	r, w := pipe(t)
	small := []byte(`{"session_id":"s"}`)
	if rest := TryWrite(w.File, small); len(rest) != 0 {
		t.Fatalf("a small payload left %d bytes", len(rest))
	}
	got := make([]byte, len(small))
	if _, err := io.ReadFull(r, got); err != nil || !bytes.Equal(got, small) {
		t.Fatalf("read %q, %v", got, err)
	}
	big := make([]byte, 4<<20) // more than any pipe holds
	rest := TryWrite(w.File, big)
	if len(rest) == 0 || len(rest) == len(big) {
		t.Fatalf("a payload larger than the pipe left %d of %d bytes", len(rest), len(big))
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rest := TryWrite(f, small); len(rest) != len(small) {
		t.Errorf("a regular file took %d bytes ahead", len(small)-len(rest))
	}
}
