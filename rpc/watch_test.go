package rpc

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// TestWatch_ReloadsAndSendsHooksChanged: with config.watch, a hooks file
// written after initialize is loaded without hooks/reload, and the host is
// told what was added, removed and awaits review.
func TestWatch_ReloadsAndSendsHooksChanged(t *testing.T) {
	home := t.TempDir()
	write := func(doc string) {
		t.Helper()
		// Write then rename, as editors save: the watcher sees the new file whole.
		tmp := filepath.Join(home, ".hooks.json.tmp")
		if err := os.WriteFile(tmp, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(home, "hooks.json")); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t)
	res := h.init(t, map[string]any{"config": map[string]any{"home": home, "watch": true}})
	if res.Get("hooks.installed").Int() != 0 {
		t.Fatalf("initialize: %s", res.Raw)
	}
	changed := func() gjson.Result {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case n := <-h.notifs:
				if n.Method == "hooks/changed" {
					return gjson.ParseBytes(*n.Params)
				}
			case <-deadline:
				t.Fatal("no hooks/changed after the hooks file changed")
			}
		}
	}
	write(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo a"}]}]}}`)
	c := changed()
	key := filepath.Join(home, "hooks.json") + ":stop:0:0"
	if c.Get("installed").Int() != 1 || c.Get("added.0").Str != key || c.Get("awaitingReview.0").Str != key || len(c.Get("removed").Array()) != 0 {
		t.Errorf("first change: %s", c.Raw)
	}
	write(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo b"}]}]}}`)
	c = changed()
	var removed []string
	for _, r := range c.Get("removed").Array() {
		removed = append(removed, r.Str)
	}
	if c.Get("added.0").Str != filepath.Join(home, "hooks.json")+":pre_tool_use:0:0" || !slices.Equal(removed, []string{key}) {
		t.Errorf("second change: %s", c.Raw)
	}
}
