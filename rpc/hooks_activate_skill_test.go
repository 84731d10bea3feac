package rpc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// scopedHome is a Claude Code user folder with one skill and one agent,
// each guarding Bash with a block.
func scopedHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	guard := "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo '{\"decision\":\"block\",\"reason\":\"guarded\"}'\n"
	files := map[string]string{
		"skills/guard/SKILL.md": "---\ndescription: guard\n" + guard + "---\nbody\n",
		"agents/reviewer.md":    "---\nname: reviewer\ndescription: reviews\n" + guard + "---\nbody\n",
	}
	for name, text := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func TestHooksActivateSkill_AddsTheSkillsHooksToTheSession(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"profile": "claude", "config": map[string]any{"home": scopedHome(t)}})
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	run := func() string {
		t.Helper()
		res, err := h.call(t, "hooks/run", map[string]any{"event": "PreToolUse", "input": bash})
		if err != nil {
			t.Fatal(err)
		}
		return res.Get("decision").Str
	}
	if d := run(); d != "none" {
		t.Fatalf("before activation: %s", d)
	}
	list, err := h.call(t, "hooks/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if list.Get(`hooks.#(scope.kind=="skill").scope.active`).Bool() || list.Get(`hooks.#(scope.kind=="agent").scope.name`).Str != "reviewer" {
		t.Fatalf("hooks/list %s", list.Get("hooks").Raw)
	}
	res, err := h.call(t, "hooks/activateSkill", map[string]any{"name": "guard"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Get("name").Str != "guard" || res.Get("hooks.#").Int() != 1 || res.Get("active.0").Str != "guard" {
		t.Fatalf("hooks/activateSkill = %s", res.Raw)
	}
	out, err := h.call(t, "hooks/run", map[string]any{"event": "PreToolUse", "input": bash})
	if err != nil {
		t.Fatal(err)
	}
	if out.Get("decision").Str != "deny" || out.Get("hooks.0.scope.kind").Str != "skill" || out.Get("hooks.0.scope.name").Str != "guard" {
		t.Fatalf("after activation: %s", out.Raw)
	}
	bash["agent_type"], bash["agent_id"] = "reviewer", "r1"
	out, err = h.call(t, "hooks/run", map[string]any{"event": "PreToolUse", "input": bash})
	if err != nil {
		t.Fatal(err)
	}
	// A skill the main agent invoked does not run in a subagent (Claude
	// Code 2.1.332 measured); invoked in the subagent (agentId), it does.
	if out.Get("hooks.#").Int() != 1 || out.Get(`hooks.#(scope.kind=="agent").scope.name`).Str != "reviewer" {
		t.Fatalf("inside the reviewer, the main agent's skill: %s", out.Get("hooks").Raw)
	}
	if _, err := h.call(t, "hooks/activateSkill", map[string]any{"name": "guard", "agentId": "r1"}); err != nil {
		t.Fatal(err)
	}
	out, err = h.call(t, "hooks/run", map[string]any{"event": "PreToolUse", "input": bash})
	if err != nil {
		t.Fatal(err)
	}
	if out.Get("hooks.#").Int() != 2 || out.Get(`hooks.#(scope.kind=="skill").scope.name`).Str != "guard" {
		t.Fatalf("inside the reviewer, the skill invoked there: %s", out.Get("hooks").Raw)
	}
	if _, err := h.call(t, "hooks/activateSkill", map[string]any{"name": " "}); codeOf(err) != jsonrpc2.CodeInvalidParams || !strings.Contains(err.Error(), `"name"`) {
		t.Fatalf("empty name: %v", err)
	}
	if _, err := h.call(t, "hooks/activateSkill", map[string]any{"name": 3}); codeOf(err) != jsonrpc2.CodeInvalidParams {
		t.Fatalf("name of the wrong type: %v", err)
	}
}
