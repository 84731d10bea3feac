//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// Trust item: claude -p in a project that ~/.claude.json does not mark
// trusted. Which of the project's hooks run: its settings.json hooks, a
// project skill's frontmatter hooks once the skill is invoked, a project
// agent's frontmatter hooks inside that agent. A user settings hook records
// every event's input; the same inputs, in order, go to hookd serve with
// session.printMode (the skill activated where the host invoked it), and
// both must run the same project hooks for the same calls.
func TestClaude_PrintModeProjectHooks(t *testing.T) {
	rec := rh.NewRecorder(t)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	all := []any{cgroup("-", cmdHandler(rec.Cmd("all", "", 0)))}
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("UserPromptSubmit", all, "PreToolUse", all, "SubagentStart", all, "SubagentStop", all, "Stop", all)})
	proj := filepath.Join(r.work, ".claude")
	rh.WriteFile(t, filepath.Join(proj, "settings.json"), mustJSON(map[string]any{"hooks": hooksOf(
		"UserPromptSubmit", []any{group("-", rec.Cmd("settings", "", 0))},
		"PreToolUse", []any{group("Bash", rec.Cmd("settings", "", 0))})}))
	rh.WriteFile(t, filepath.Join(proj, "skills", "guard", "SKILL.md"), "---\nname: guard\ndescription: Guards the shell. Use before running shell commands.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "+q(rec.Cmd("skill", "", 0))+"\n---\nFollow the guard.\n")
	rh.WriteFile(t, filepath.Join(proj, "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code. Use for reviews.\ntools: Bash\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "+q(rec.Cmd("agent", "", 0))+"\n---\nYou review code.\n")
	bash := bashTurn
	r.model.SetScript(bash("echo before"), callTool("Skill", `{"skill":"guard"}`), bash("echo after"),
		callTool("Agent", `{"description":"review","prompt":"review it","subagent_type":"reviewer"}`), say("finished"))
	r.subagentScript("You review code.", bash("echo inside"), say("reviewed"))
	r.exec(t, "run it")
	calls := func(name string) string { return callKeys(rec, name, "none") }
	host := [3]string{calls("settings"), calls("skill"), calls("agent")}
	events := calls("all")
	t.Logf("events in Claude Code: %s", events)
	if !strings.Contains(events, "echo inside@reviewer") {
		t.Fatalf("the subagent did not run its Bash call: %s", events)
	}
	var inputs []string
	for _, c := range rec.Calls("all") {
		inputs = append(inputs, c.Stdin)
	}

	replay := func(session map[string]any) [3]string {
		rec.Reset()
		ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
		defer cancel()
		c := r.serveHookd(t, ctx, session)
		defer c.Kill()
		for _, in := range inputs {
			if _, err := c.Run(ctx, gjson.Get(in, "hook_event_name").Str, json.RawMessage(in)); err != nil {
				t.Fatal(err)
			}
			if gjson.Get(in, "tool_name").Str == "Skill" {
				if err := c.Call(ctx, "hooks/activateSkill", map[string]any{"name": "guard"}, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		return [3]string{calls("settings"), calls("skill"), calls("agent")}
	}
	ours := replay(map[string]any{"printMode": true})
	for i, what := range []string{"the project's settings.json hooks", "a project skill's hooks, once invoked", "a project agent's hooks, inside the agent"} {
		record(t, "claude", "trust", "-p, project not trusted in .claude.json (hookd: session.printMode): calls that ran "+what, host[i], ours[i])
	}
}
