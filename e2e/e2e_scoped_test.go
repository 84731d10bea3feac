package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/client"
)

// scopedClaudeHome is a Claude Code user folder with a skill and an agent
// that both block Bash.
func scopedClaudeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	guard := "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo '{\"decision\":\"block\",\"reason\":\"guarded\"}'\n          once: true\n"
	for name, text := range map[string]string{
		"skills/guard/SKILL.md": "---\ndescription: guard\n" + guard + "---\nbody\n",
		"agents/reviewer.md":    "---\nname: reviewer\ndescription: reviews\n" + guard + "---\nbody\n",
	} {
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

func TestClient_ScopedHooksThroughTheGoClient(t *testing.T) {
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	if _, err := c.Initialize(ctx, client.InitializeParams{Profile: "claude",
		Session: &client.SessionParams{ID: "scoped", Cwd: t.TempDir()},
		Config:  &client.ConfigParams{Home: scopedClaudeHome(t)}}); err != nil {
		t.Fatal(err)
	}
	var raw json.RawMessage
	if err := c.Call(ctx, "hooks/list", map[string]any{}, &raw); err != nil {
		t.Fatal(err)
	}
	var list client.ListResult
	strictDecode(t, "hooks/list", raw, &list)
	if len(list.Hooks) != 2 || list.Hooks[0].Scope == nil || list.Hooks[1].Scope == nil {
		t.Fatalf("hooks/list: %s", raw)
	}
	// Invoked inside the reviewer (r1): the skill's hooks run there.
	act, err := c.ActivateSkillIn(ctx, "guard", "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(act.Hooks) != 1 || len(act.Active) != 1 {
		t.Fatalf("ActivateSkill = %+v", act)
	}
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}, "agent_type": "reviewer", "agent_id": "r1"}
	if err := c.Call(ctx, "hooks/run", client.RunParams{Event: "PreToolUse", Input: bash}, &raw); err != nil {
		t.Fatal(err)
	}
	var res client.RunResult
	strictDecode(t, "hooks/run", raw, &res)
	if res.Decision != "deny" || len(res.Hooks) != 2 || res.Hooks[0].Scope.Kind != client.ScopeAgent || res.Hooks[0].Scope.Once || !res.Hooks[1].Scope.Once {
		t.Fatalf("hooks/run in the reviewer after activating guard: %s", raw)
	}
	// once is honoured in skills only: the agent's handler runs again.
	again, err := c.RunEvent(ctx, client.RunParams{Event: "PreToolUse", Input: bash})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Hooks) != 1 || again.Hooks[0].Scope.Kind != client.ScopeAgent || len(again.Skipped) != 1 || again.Skipped[0].Reason != "once" {
		t.Fatalf("second run: %+v", again)
	}
}
