package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/spill"
)

// hostHarness is an in-process server whose client end plays the host: it
// answers mcp/callTool with answer and collects notifications.
type hostHarness struct {
	conn   *jsonrpc2.Conn
	notifs chan *jsonrpc2.Request
	calls  chan *jsonrpc2.Request
	code   chan int
	stdin  *io.PipeWriter
}

type hostHandler struct {
	h      *hostHarness
	answer func(ctx context.Context, params json.RawMessage) (any, error)
}

func (hh hostHandler) Handle(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	if r.Notif {
		hh.h.notifs <- r
		return
	}
	hh.h.calls <- r
	res, err := hh.answer(ctx, *r.Params)
	if err != nil {
		var je *jsonrpc2.Error
		if !errors.As(err, &je) {
			je = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		_ = c.ReplyWithError(ctx, r.ID, je)
		return
	}
	_ = c.Reply(ctx, r.ID, res)
}

func newHostHarness(t *testing.T, answer func(ctx context.Context, params json.RawMessage) (any, error)) *hostHarness {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &hostHarness{notifs: make(chan *jsonrpc2.Request, 1000), calls: make(chan *jsonrpc2.Request, 100), code: make(chan int, 1), stdin: inW}
	go func() {
		h.code <- Serve(inR, outW, nil, Options{Version: "test"})
		outW.Close()
	}()
	h.conn = jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(rw{outR, inW}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.AsyncHandler(hostHandler{h, answer}))
	t.Cleanup(func() { h.conn.Close() })
	return h
}

// initHooks initializes a session with the given session hooks and trust
// bypassed.
func (h *hostHarness) initHooks(t *testing.T, session, hooksObj string, extra map[string]any) {
	t.Helper()
	params := map[string]any{
		"session": map[string]any{"id": session, "cwd": t.TempDir()},
		"config":  map[string]any{"home": t.TempDir(), "bypassTrust": true, "hooks": json.RawMessage(hooksObj)},
	}
	for k, v := range extra {
		params[k] = v
	}
	if err := h.conn.Call(context.Background(), "initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
}

func (h *hostHarness) run(t *testing.T, event, input string) gjson.Result {
	t.Helper()
	var res json.RawMessage
	if err := h.conn.Call(context.Background(), "hooks/run", map[string]any{"event": event, "input": json.RawMessage(input)}, &res); err != nil {
		t.Fatalf("hooks/run %s: %v", event, err)
	}
	return gjson.ParseBytes(res)
}

// nextNotif waits for the next notification of method.
func (h *hostHarness) nextNotif(t *testing.T, method string) gjson.Result {
	t.Helper()
	for {
		select {
		case n := <-h.notifs:
			if n.Method == method {
				return gjson.ParseBytes(*n.Params)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no %s notification", method)
		}
	}
}

const scanHook = `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "mcp_tool", "server": "security", "tool": "scan",
	"timeout": %d, "statusMessage": "Scanning", "input": {"command": "${tool_input.command}", "cwd": "${cwd}"}}]}]}`

func TestHost_CallToolRoundTripBlocks(t *testing.T) {
	h := newHostHarness(t, func(ctx context.Context, params json.RawMessage) (any, error) {
		return map[string]any{"content": []any{map[string]any{"type": "text",
			"text": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by MCP scanner"}}`}}}, nil
	})
	h.initHooks(t, "s-mcp", strings.Replace(scanHook, "%d", "20", 1), nil)
	res := h.run(t, "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"rm important.txt"}}`)
	if res.Get("decision").Str != "deny" || res.Get("reason").Str != "blocked by MCP scanner" {
		t.Fatalf("result %s", res.Raw)
	}
	call := <-h.calls
	p := gjson.ParseBytes(*call.Params)
	if call.Method != "mcp/callTool" || p.Get("server").Str != "security" || p.Get("tool").Str != "scan" ||
		p.Get("arguments.command").Str != "rm important.txt" || p.Get("timeoutMs").Int() != 20000 || !p.Get("arguments.cwd").Exists() {
		t.Errorf("mcp/callTool %s %s", call.Method, p.Raw)
	}
	started := h.nextNotif(t, "hooks/status")
	finished := h.nextNotif(t, "hooks/status")
	if started.Get("state").Str != "started" || finished.Get("state").Str != "finished" ||
		started.Get("runId").Str != res.Get("runId").Str || started.Get("statusMessage").Str != "Scanning" {
		t.Errorf("status notifications %s %s (run %s)", started.Raw, finished.Raw, res.Get("runId").Str)
	}
}

func TestHost_ErrorAnswerFailsTheHookWithoutBlocking(t *testing.T) {
	h := newHostHarness(t, func(ctx context.Context, params json.RawMessage) (any, error) {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: `unknown MCP server "security"`}
	})
	h.initHooks(t, "s-err", strings.Replace(scanHook, "%d", "20", 1), nil)
	res := h.run(t, "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if res.Get("decision").Str != "none" || res.Get("hooks.0.status").Str != "failed" ||
		!strings.Contains(res.Get("hooks.0.error").Str, `error -32602: unknown MCP server "security"`) {
		t.Fatalf("result %s", res.Raw)
	}
}

func TestHost_UnansweredCallTimesOutAndIsCancelled(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := newHostHarness(t, func(ctx context.Context, params json.RawMessage) (any, error) {
		<-release
		return nil, errors.New("too late")
	})
	h.initHooks(t, "s-timeout", strings.Replace(scanHook, "%d", "1", 1), nil)
	res := h.run(t, "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	if res.Get("hooks.0.status").Str != "timedOut" || res.Get("hooks.0.error").Str != "hook timed out after 1s" || res.Get("decision").Str != "none" {
		t.Fatalf("result %s", res.Raw)
	}
	call := <-h.calls
	cancel := h.nextNotif(t, "$/cancelRequest")
	if cancel.Get("id").Raw != call.ID.String() {
		t.Errorf("$/cancelRequest %s, want id %s", cancel.Raw, call.ID.String())
	}
}

func TestHost_CallPendingAtStdinEOFFailsAtOnce(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	h := newHostHarness(t, func(ctx context.Context, params json.RawMessage) (any, error) {
		<-release
		return nil, errors.New("too late")
	})
	// The default timeout is 600 s: only the end of input can end this call.
	h.initHooks(t, "s-eof", `{"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]}`, nil)
	w, err := h.conn.DispatchCall(context.Background(), "hooks/run", map[string]any{"event": "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	<-h.calls
	h.stdin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res json.RawMessage
	if err := w.Wait(ctx, &res); err != nil {
		t.Fatalf("hooks/run after EOF: %v", err)
	}
	r := gjson.ParseBytes(res)
	if r.Get("hooks.0.status").Str != "failed" || !strings.Contains(r.Get("hooks.0.error").Str, "closed hookd's input") {
		t.Errorf("result %s", res)
	}
	if code := <-h.code; code != 1 {
		t.Errorf("exit code %d", code)
	}
}

func TestHost_AsyncResultIsNotifiedAndTakenOnce(t *testing.T) {
	h := newHostHarness(t, nil)
	h.initHooks(t, "s-async", `{"UserPromptSubmit": [{"hooks": [{"type": "command", "async": true, "command": "echo background"}]}]}`, nil)
	res := h.run(t, "UserPromptSubmit", `{"prompt":"x"}`)
	if res.Get("hooks.0.status").Str != "started" || !res.Get("hooks.0.async").Bool() {
		t.Fatalf("result %s", res.Raw)
	}
	n := h.nextNotif(t, "hooks/asyncCompleted")
	if n.Get("additionalContext.0.text").Str != "background" || n.Get("status").Str != "succeeded" || n.Get("runId").Str != res.Get("runId").Str {
		t.Errorf("asyncCompleted %s", n.Raw)
	}
	var taken json.RawMessage
	if err := h.conn.Call(context.Background(), "hooks/takePending", nil, &taken); err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(taken, "results.#").Int(); got != 1 || gjson.GetBytes(taken, "results.0.hook").Str != n.Get("hook").Str {
		t.Errorf("takePending %s", taken)
	}
	if err := h.conn.Call(context.Background(), "hooks/takePending", nil, &taken); err != nil {
		t.Fatal(err)
	}
	if string(taken) != `{"results":[],"dropped":0}` {
		t.Errorf("second takePending %s, want empty", taken)
	}
}

// spillHooks makes a session with a spilled context and an async hook that
// would run for ever.
const spillHooks = `{
	"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >/dev/null; head -c 20000 /dev/zero | tr '\\0' a"}]}],
	"Stop": [{"hooks": [{"type": "command", "async": true, "command": "exec sleep 1000"}]}],
	"SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}]}`

func TestServer_SpillFolderIsRemovedOnEveryEndOfTheSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, h *hostHarness)
		// serving: the server goes on after the end (SessionEnd)
		serving bool
	}{
		{"SessionEnd", func(t *testing.T, h *hostHarness) {
			if res := h.run(t, "SessionEnd", `{"reason":"other"}`); res.Get("hooks.0.status").Str != "succeeded" {
				t.Errorf("SessionEnd %s", res.Raw)
			}
		}, true},
		{"shutdown", func(t *testing.T, h *hostHarness) {
			if err := h.conn.Call(context.Background(), "shutdown", nil, nil); err != nil {
				t.Fatal(err)
			}
			// The cleanup runs once the reply is written, off the reader:
			// the poll below waits for it.
		}, false},
		{"exit", func(t *testing.T, h *hostHarness) {
			_ = h.conn.Notify(context.Background(), "exit", nil)
			<-h.code
		}, false},
		{"stdin EOF", func(t *testing.T, h *hostHarness) {
			h.stdin.Close()
			<-h.code
		}, false},
		{"host death", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHostHarness(t, nil)
			var extra map[string]any
			var host *exec.Cmd
			if tc.end == nil {
				host = exec.Command("sleep", "600")
				if err := host.Start(); err != nil {
					t.Fatal(err)
				}
				extra = map[string]any{"processId": host.Process.Pid}
				tc.end = func(t *testing.T, h *hostHarness) {
					_ = host.Process.Kill()
					_ = host.Wait()
					<-h.code
				}
			}
			session := "s-" + strings.ReplaceAll(tc.name, " ", "-")
			h.initHooks(t, session, spillHooks, extra)
			res := h.run(t, "UserPromptSubmit", `{"prompt":"x"}`)
			path := res.Get("additionalContext.0.spilled").Str
			if filepath.Dir(path) != spill.Dir(session) {
				t.Fatalf("no spill: %s", res.Raw)
			}
			if res := h.run(t, "Stop", `{}`); res.Get("hooks.0.status").Str != "started" {
				t.Fatalf("async Stop %s", res.Raw)
			}

			tc.end(t, h)
			deadline := time.Now().Add(10 * time.Second)
			for {
				_, err := os.Stat(spill.Dir(session))
				if errors.Is(err, os.ErrNotExist) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("spill folder still there after %s: %v", tc.name, err)
				}
				time.Sleep(10 * time.Millisecond)
			}
			if tc.serving {
				var taken json.RawMessage
				if err := h.conn.Call(context.Background(), "hooks/takePending", nil, &taken); err != nil || string(taken) != `{"results":[],"dropped":0}` {
					t.Errorf("after SessionEnd: %s, %v; want a serving server and no results", taken, err)
				}
			}
		})
	}
}

// Calls the host never answers are forgotten when hookd gives up on them:
// their params are not held for the rest of the session.
func TestHost_UnansweredCallsAreNotHeldAfterTheHookGivesUp(t *testing.T) {
	// 16 calls: held, they would add at least 64 MiB; forgotten, what
	// stays is the server's buffers, a few MiB whatever the count.
	const calls, size = 16, 4 << 20
	// A host that takes each call and never answers, keeping nothing.
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Serve(inR, outW, nil, Options{Version: "test"})
		outW.Close()
	}()
	host := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(rw{outR, inW}, jsonrpc2.VSCodeObjectCodec{}),
		silentHost{})
	t.Cleanup(func() { host.Close(); <-code })
	if err := host.Call(context.Background(), "initialize", map[string]any{
		"session": map[string]any{"id": "s-leak", "cwd": t.TempDir()},
		"config":  map[string]any{"home": t.TempDir(), "bypassTrust": true, "hooks": json.RawMessage(strings.Replace(scanHook, "%d", "1", 1))},
	}, nil); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", size) // before the first reading: it is not the calls'
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan error, calls)
	for range calls {
		go func() {
			var res json.RawMessage
			done <- host.Call(context.Background(), "hooks/run", map[string]any{"event": "PreToolUse",
				"input": map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": big}}}, &res)
		}()
	}
	for range calls {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("measured: heap after %d unanswered calls of %d MiB: %+d MiB", calls, size>>20, grown>>20)
	if grown > calls*size/2 {
		t.Errorf("heap grew %d MiB after %d calls of %d MiB that timed out: the calls are still held", grown>>20, calls, size>>20)
	}
}

// silentHost takes every request and notification and answers none.
type silentHost struct{}

func (silentHost) Handle(context.Context, *jsonrpc2.Conn, *jsonrpc2.Request) {}

// TestStream_AForgottenCallLeavesNothingAndItsAnswerIsDropped is the
// bookkeeping the heap test above measures: forget removes the call, and a
// late answer reaches no one.
func TestStream_AForgottenCallLeavesNothingAndItsAnswerIsDropped(t *testing.T) {
	s := NewStream(strings.NewReader(""), io.Discard, nil, StreamOptions{})
	answers := make([]<-chan []byte, 0, 3)
	forgets := make([]func(), 0, 3)
	for id := range uint64(3) {
		a, f := s.Expect(id + 1)
		answers, forgets = append(answers, a), append(forgets, f)
	}
	for _, f := range forgets[:2] {
		f()
	}
	s.callsMu.Lock()
	left := len(s.calls)
	s.callsMu.Unlock()
	if left != 1 {
		t.Fatalf("%d calls registered after forgetting 2 of 3", left)
	}
	if s.answerCall([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)) {
		t.Fatal("an answer to a forgotten call was delivered")
	}
	if !s.answerCall([]byte(`{"jsonrpc":"2.0","id":3,"result":{}}`)) || len(answers[2]) != 1 {
		t.Fatal("the answer to the waiting call was not delivered")
	}
}
