package rpc

import (
	"errors"
	"testing"
	"time"
)

// stuckWriter is a host that never reads: every Write blocks until released.
type stuckWriter struct{ release chan struct{} }

func (w stuckWriter) Write(p []byte) (int, error) {
	<-w.release
	return len(p), nil
}

func TestStream_WriteToAHostThatStopsReadingTimesOutAndStaysFailed(t *testing.T) {
	w := stuckWriter{release: make(chan struct{})}
	defer close(w.release)
	stuck := make(chan struct{})
	s := NewStream(nil, w, nil, StreamOptions{Framing: FramingJSONL, WriteTimeout: 10 * time.Millisecond,
		OnWriteStuck: func() { close(stuck) }})
	if err := s.WriteRaw([]byte(`{"jsonrpc":"2.0","method":"a"}`)); !errors.Is(err, ErrWriteStuck) {
		t.Fatalf("write to a host that does not read: %v, want ErrWriteStuck", err)
	}
	<-stuck // OnWriteStuck was called
	if err := s.WriteRaw([]byte(`{"jsonrpc":"2.0","method":"b"}`)); !errors.Is(err, ErrWriteStuck) {
		t.Fatalf("later write: %v, want ErrWriteStuck at once", err)
	}
}

func TestStream_AbandonEndsABlockedWrite(t *testing.T) {
	w := stuckWriter{release: make(chan struct{})}
	defer close(w.release)
	s := NewStream(nil, w, nil, StreamOptions{Framing: FramingJSONL})
	errc := make(chan error, 2)
	for range 2 { // one blocked in Write, one waiting for the write lock
		go func() { errc <- s.WriteRaw([]byte(`{"jsonrpc":"2.0","method":"a"}`)) }()
	}
	s.Abandon()
	for range 2 {
		if err := <-errc; !errors.Is(err, ErrWriteStuck) {
			t.Errorf("abandoned write: %v, want ErrWriteStuck", err)
		}
	}
}
