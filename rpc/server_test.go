package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

func init() {
	// test/panic exists only in tests: it proves a panic in any method becomes
	// -32603 and the server keeps serving.
	methods["test/panic"] = method{handle: func(context.Context, *Server, []byte) (any, error) {
		panic("boom")
	}}
}

// harness is an in-process server with a library client on the other end of
// two pipes.
type harness struct {
	conn   *jsonrpc2.Conn
	notifs chan *jsonrpc2.Request
	code   chan int
	stdin  *io.PipeWriter
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{notifs: make(chan *jsonrpc2.Request, 100), code: make(chan int, 1), stdin: inW}
	go func() {
		h.code <- Serve(inR, outW, nil, Options{Version: "test"})
		outW.Close()
	}()
	h.conn = jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(rw{outR, inW}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.AsyncHandler(notifHandler(h.notifs)))
	t.Cleanup(func() { h.conn.Close() })
	return h
}

type rw struct {
	io.Reader
	io.WriteCloser
}

type notifHandler chan *jsonrpc2.Request

func (n notifHandler) Handle(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	if r.Notif {
		n <- r
	}
}

func (h *harness) init(t *testing.T, params map[string]any) gjson.Result {
	t.Helper()
	var res any
	if err := h.conn.Call(context.Background(), "initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	b, _ := json.Marshal(res)
	return gjson.ParseBytes(b)
}

func codeOf(err error) int64 {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}

func TestServer_PanicInMethodIsInternalErrorAndServingGoesOn(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	err := h.conn.Call(context.Background(), "test/panic", nil, nil)
	if codeOf(err) != jsonrpc2.CodeInternalError || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicking method: %v, want -32603 naming the panic", err)
	}
	var list map[string]any
	if err := h.conn.Call(context.Background(), "hooks/list", nil, &list); err != nil {
		t.Fatalf("after a panic: %v", err)
	}
}

func TestServer_InitializeResultShape(t *testing.T) {
	h := newHarness(t)
	res := h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	if res.Get("serverInfo.name").Str != "hookd" || res.Get("protocolVersion").Int() != 1 || res.Get("profile").Str != "codex" {
		t.Errorf("initialize result: %s", res.Raw)
	}
	if n := len(res.Get("capabilities.events").Array()); n != 11 {
		t.Errorf("codex events = %d, want 11", n)
	}
	id := res.Get("session.id").Str
	if len(id) != 36 || !strings.HasSuffix(res.Get("session.spillDir").Str, filepath.Join("hook_outputs", id)) {
		t.Errorf("generated session: %s", res.Get("session").Raw)
	}
	for _, k := range []string{"installed", "runnable", "warnings"} {
		if !res.Get("hooks." + k).Exists() {
			t.Errorf("hooks.%s missing: %s", k, res.Raw)
		}
	}
}

func TestServer_UnknownProfileIsInvalidParams(t *testing.T) {
	h := newHarness(t)
	err := h.conn.Call(context.Background(), "initialize", map[string]any{"profile": "vim"}, nil)
	if codeOf(err) != jsonrpc2.CodeInvalidParams || !strings.Contains(err.Error(), "profile") {
		t.Fatalf("unknown profile: %v", err)
	}
	// initialize did not succeed, so the server still wants one.
	if err := h.conn.Call(context.Background(), "hooks/list", nil, nil); codeOf(err) != CodeServerNotInitialized {
		t.Fatalf("after a failed initialize: %v, want -32002", err)
	}
}

func TestServer_DiscoveryWarningsAreLogMessages(t *testing.T) {
	home := t.TempDir()
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	res := h.init(t, map[string]any{"config": map[string]any{"home": home}})
	if res.Get("hooks.warnings").Int() != 1 {
		t.Fatalf("warnings count: %s", res.Raw)
	}
	select {
	case n := <-h.notifs:
		p := gjson.ParseBytes(*n.Params)
		if n.Method != "window/logMessage" || p.Get("type").Int() != LogWarning || !strings.Contains(p.Get("message").Str, "prompt hooks are not supported") {
			t.Errorf("notification %s %s", n.Method, *n.Params)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no window/logMessage for a discovery warning")
	}
}

func TestServer_CancelOfUnknownIDIsIgnored(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	if err := h.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": 999}); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"nope": true}); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Call(context.Background(), "hooks/list", nil, nil); err != nil {
		t.Fatalf("server after stray cancels: %v", err)
	}
}

func TestServer_EOFWithoutShutdownReturnsOne(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	h.stdin.Close()
	if code := <-h.code; code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
}

func TestServer_ShutdownThenExitReturnsZero(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	if err := h.conn.Call(context.Background(), "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Notify(context.Background(), "exit", nil); err != nil {
		t.Fatal(err)
	}
	if code := <-h.code; code != 0 {
		t.Fatalf("exit code %d, want 0", code)
	}
}

func TestServer_HostDeathEndsTheSession(t *testing.T) {
	host := exec.Command("sleep", "600")
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.init(t, map[string]any{"processId": host.Process.Pid, "config": map[string]any{"home": t.TempDir()}})
	_ = host.Process.Kill()
	_ = host.Wait()
	select {
	case code := <-h.code:
		if code != 1 {
			t.Errorf("exit code %d after host death, want 1", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("hookd kept serving a dead host")
	}
}
