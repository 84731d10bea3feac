//go:build unix

package rpc

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tidwall/gjson"
)

// A hooks/run that no hook matches is answered on the reader goroutine; it
// must not wait behind, or hold up, a run whose hook is still going.
func TestHooksRun_NoMatchAnsweredWhileAHookRuns(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	fifo := filepath.Join(dir, "release")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no fifo: %v", err)
	}
	t.Setenv("SHELL", "/bin/sh")
	// Whatever happens, the hook is released (no reader: nothing to do).
	t.Cleanup(func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "cat '` + fifo + `' >/dev/null"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home, "bypassTrust": true}})
	ctx := context.Background()
	stop, err := h.conn.DispatchCall(ctx, "hooks/run", map[string]any{"event": "Stop", "input": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var res any
	if err := h.conn.Call(ctx, "hooks/run", map[string]any{"event": "PreToolUse", "input": map[string]any{"tool_name": "Read"}}, &res); err != nil {
		t.Fatalf("no-match run while Stop's hook waits: %v", err)
	}
	got := gjson.Parse(mustJSON(t, res))
	if got.Get("decision").Str != "none" || got.Get("hooks.#").Int() != 0 || len(got.Get("runId").Str) != 36 {
		t.Errorf("no-match result %s", got.Raw)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := stop.Wait(ctx, &res); err != nil {
		t.Fatalf("Stop run: %v", err)
	}
	if got := gjson.Parse(mustJSON(t, res)); got.Get("hooks.0.status").Str != "succeeded" {
		t.Errorf("Stop result %s", got.Raw)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
