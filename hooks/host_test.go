package hooks

import (
	"context"
	"sync"
	"testing"

	json "github.com/goccy/go-json"
)

// fakeHost is a Host for engine tests: it answers tool calls with callTool
// and records every call and notification.
type fakeHost struct {
	callTool func(ctx context.Context, call ToolCall) (json.RawMessage, error)

	mu    sync.Mutex
	calls []ToolCall
	// notes receives every notification in order; it is buffered so that a
	// test that ignores them never blocks the engine.
	notes chan fakeNote
}

type fakeNote struct {
	method string
	params any
}

func newFakeHost(callTool func(ctx context.Context, call ToolCall) (json.RawMessage, error)) *fakeHost {
	return &fakeHost{callTool: callTool, notes: make(chan fakeNote, 1000)}
}

func (h *fakeHost) CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error) {
	h.mu.Lock()
	h.calls = append(h.calls, call)
	h.mu.Unlock()
	return h.callTool(ctx, call)
}

func (h *fakeHost) Notify(method string, params any) { h.notes <- fakeNote{method, params} }

func (h *fakeHost) toolCalls() []ToolCall {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ToolCall(nil), h.calls...)
}

// textResult is a CallToolResult with one text item.
func textResult(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
	return b
}

// newHostEngine builds an engine with session hooks, trust bypassed, a host
// (nil for none) and its own temp dir, so spill files stay in the test.
func newHostEngine(t *testing.T, hooksObj string, host Host, maxOutput int) *Engine {
	t.Helper()
	e := hostEngine(t, hooksObj, host, maxOutput)
	if _, w := e.List(""); len(w) != 0 {
		t.Fatalf("unexpected warnings: %+v", w)
	}
	return e
}

// hostEngine is newHostEngine for hooks that warn at discovery.
func hostEngine(t *testing.T, hooksObj string, host Host, maxOutput int) *Engine {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	e := New(Options{
		Profile:     codexProfile(),
		Session:     Session{ID: "sess_h", Cwd: t.TempDir(), Model: "gpt-5"},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(hooksObj)},
		BypassTrust: true,
		Host:        host,
		MaxOutput:   maxOutput,
	})
	t.Cleanup(e.Close)
	e.Load()
	return e
}

func TestStatus_StartedAndFinishedForHandlersWithStatusMessage(t *testing.T) {
	host := newFakeHost(nil)
	e := newHostEngine(t, `{"Stop": [{"hooks": [
		{"type": "command", "command": "echo '{}'", "statusMessage": "Checking the work"},
		{"type": "command", "command": "echo '{}'"}]}]}`, host, 0)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RunID) != 36 {
		t.Fatalf("runId %q", res.RunID)
	}
	close(host.notes)
	var got []StatusNotice
	for n := range host.notes {
		if n.method != MethodStatus {
			t.Errorf("unexpected notification %s", n.method)
			continue
		}
		got = append(got, n.params.(StatusNotice))
	}
	key := res.Hooks[0].Key
	want := []StatusNotice{
		{RunID: res.RunID, Hook: key, StatusMessage: "Checking the work", State: StateStarted},
		{RunID: res.RunID, Hook: key, StatusMessage: "Checking the work", State: StateFinished},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("status notifications\n got %+v\nwant %+v", got, want)
	}
}
