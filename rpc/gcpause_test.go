package rpc

import (
	"runtime/debug"
	"testing"
)

// initialize and hooks/reload pause the collector for their load and resume
// it once the reply is written; by the next request's answer (requests are
// read one after the other) the setting is back.
func TestInitializeAndReload_ResumeTheCollectorAfterTheReply(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(67))
	percent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": t.TempDir()}})
	if _, err := h.call(t, "hooks/list", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if p := percent(); p != 67 {
		t.Errorf("after initialize: GC percent %d, want 67", p)
	}
	if _, err := h.call(t, "hooks/reload", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.call(t, "hooks/list", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if p := percent(); p != 67 {
		t.Errorf("after hooks/reload: GC percent %d, want 67", p)
	}
}
