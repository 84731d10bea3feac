package e2e

import (
	"context"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/client"
)

// benchHookd starts "hookd serve" with one trivial Stop hook. SHELL is pinned
// to /bin/sh and HOME to an empty profile so hookd and the exec baseline run
// the same shell.
func benchHookd(b *testing.B) *client.Client {
	b.Helper()
	benchHome(b, "")
	return benchServe(b, nil, trueStop, nil)
}

// BenchmarkHooksRun_TrivialCommand is one hooks/run round trip through the
// real transport (LSP framing over pipes to the hookd binary) that runs one
// command hook.
func BenchmarkHooksRun_TrivialCommand(b *testing.B) {
	c := benchHookd(b)
	ctx := context.Background()
	if _, err := c.Run(ctx, "Stop", map[string]any{}); err != nil {
		b.Fatal(err)
	}
	cpu0 := procCPU(c.Pid())
	for b.Loop() {
		if _, err := c.Run(ctx, "Stop", map[string]any{}); err != nil {
			b.Fatal(err)
		}
	}
	reportHookdCPU(b, c.Pid(), cpu0)
}

// BenchmarkExecCommand_TrivialCommand is the baseline: what a host pays to
// spawn the same shell command itself, with the same stdin payload.
func BenchmarkExecCommand_TrivialCommand(b *testing.B) {
	benchHome(b, "")
	benchExec(b, "-c")
}

// BenchmarkHooksRun_NoMatchPipelined keeps 64 hooks/run requests in flight for
// an event with no hooks: the cost of the protocol and dispatch alone.
func BenchmarkHooksRun_NoMatchPipelined(b *testing.B) {
	c := benchHookd(b)
	conn := c.Conn()
	ctx := context.Background()
	params := map[string]any{"event": "PreToolUse", "input": map[string]any{"tool_name": "Read", "tool_input": map[string]any{"path": "x"}}}
	const window = 64
	inflight := make(chan jsonrpc2.Waiter, window)
	done := make(chan error, 1)
	n := b.N
	go func() {
		for range n {
			w := <-inflight
			if err := w.Wait(ctx, nil); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	b.ResetTimer()
	for range n {
		w, err := conn.DispatchCall(ctx, "hooks/run", params)
		if err != nil {
			b.Fatal(err)
		}
		inflight <- w
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
}
