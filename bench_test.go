package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/client"
)

// benchHookd starts "hookd serve" with one trivial Stop hook. SHELL is pinned
// to /bin/sh so hookd and the exec baseline run the same shell.
func benchHookd(b *testing.B) *client.Client {
	b.Helper()
	b.Setenv("SHELL", "/bin/sh")
	home := b.TempDir()
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	if err := os.WriteFile(home+"/hooks.json", []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(b), nil, "serve", "--log-level", "error")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Kill)
	if _, err := c.Initialize(ctx, map[string]any{"session": map[string]any{"cwd": b.TempDir()},
		"config": map[string]any{"home": home, "bypassTrust": true}}); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkHooksRun_TrivialCommand is one hooks/run round trip through the
// real transport (LSP framing over pipes to the hookd binary) that runs one
// command hook.
func BenchmarkHooksRun_TrivialCommand(b *testing.B) {
	c := benchHookd(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := c.Run(ctx, "Stop", map[string]any{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExecCommand_TrivialCommand is the baseline: what a host pays to
// spawn the same shell command itself, with the same stdin payload.
func BenchmarkExecCommand_TrivialCommand(b *testing.B) {
	input := []byte(`{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/tmp","hook_event_name":"Stop","model":"gpt-5","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`)
	for b.Loop() {
		cmd := exec.Command("/bin/sh", "-lc", "true")
		cmd.Stdin = bytes.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
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
