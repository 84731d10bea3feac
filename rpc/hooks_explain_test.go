package rpc

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

func TestHooksExplain_SaysWhichHookRunsAndWhyTheOthersDoNot(t *testing.T) {
	home := t.TempDir()
	doc := `{"hooks": {
  "PreToolUse": [
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo bash"}]},
    {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "echo edit"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home, "bypassTrust": true}})
	var res any
	err := h.conn.Call(context.Background(), "hooks/explain", map[string]any{
		"event": "PreToolUse", "input": map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}}, &res)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	r := gjson.ParseBytes(b)
	want := []struct {
		runs           bool
		reason, line   string
		matchedAgainst string
	}{
		{true, "", "3", "Bash"},
		{false, "matcher", "4", "Bash"},
		{false, "otherEvent", "5", ""},
	}
	hooks := r.Get("hooks").Array()
	if len(hooks) != len(want) {
		t.Fatalf("hooks/explain: %s", b)
	}
	for i, w := range want {
		x := hooks[i]
		if x.Get("runs").Bool() != w.runs || x.Get("reason").Str != w.reason || x.Get("line").String() != w.line ||
			x.Get("matchedAgainst.0").Str != w.matchedAgainst {
			t.Errorf("hook %d: %s, want runs %v reason %q line %s matched against %q", i, x.Raw, w.runs, w.reason, w.line, w.matchedAgainst)
		}
	}
	if got := hooks[1].Get("detail").Str; got != `matcher "Edit|Write" does not match tool_name "Bash"` {
		t.Errorf("detail %q", got)
	}
	// Nothing ran: no status notification, no spill.
	select {
	case n := <-h.notifs:
		if n.Method == "hooks/status" {
			t.Errorf("explain ran a hook: %s", *n.Params)
		}
	default:
	}
	if err := h.conn.Call(context.Background(), "hooks/explain", map[string]any{"event": "Nope"}, &res); codeOf(err) != -32602 {
		t.Errorf("unknown event: %v, want invalid params", err)
	}
}
