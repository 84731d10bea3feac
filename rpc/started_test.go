package rpc

import (
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// Options.Started is called once, after the first reply is written, and
// never again; a session that ends without a reply still gets its call.
func TestServe_StartedOnceAfterTheFirstReply(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var calls atomic.Int32
	started := make(chan struct{})
	code := make(chan int, 1)
	go func() {
		code <- Serve(inR, outW, nil, Options{Version: "test", Started: func() {
			if calls.Add(1) == 1 {
				close(started)
			}
		}})
		outW.Close()
	}()
	conn := jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(rw{outR, inW}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(nopHandler{}))
	defer conn.Close()
	select {
	case <-started:
		t.Fatal("Started before any reply")
	default:
	}
	params := map[string]any{"session": map[string]any{"id": "started", "cwd": t.TempDir()},
		"config": map[string]any{"home": t.TempDir()}}
	if err := conn.Call(context.Background(), "initialize", params, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("Started not called after the initialize reply")
	}
	if err := conn.Call(context.Background(), "hooks/list", nil, nil); err != nil {
		t.Fatal(err)
	}
	inW.Close()
	<-code
	if n := calls.Load(); n != 1 {
		t.Errorf("Started called %d times, want 1", n)
	}

	// No reply at all: the end of the session is the end of the start.
	inR, inW = io.Pipe()
	var again atomic.Int32
	inW.Close()
	Serve(inR, io.Discard, nil, Options{Version: "test", Started: func() { again.Add(1) }})
	if n := again.Load(); n != 1 {
		t.Errorf("a session without a reply: Started called %d times, want 1", n)
	}
}

type nopHandler struct{}

func (nopHandler) Handle(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) {}
