//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// Issue 17: a skill's frontmatter hooks join the session when the skill is
// invoked (not before), stay for later tool calls, a once: true handler runs
// once, and CLAUDE_PLUGIN_ROOT is the skill's folder. Claude Code invokes the
// skill through its Skill tool; hookd is told with hooks/activateSkill.
func TestClaude_SkillFrontmatterHooks(t *testing.T) {
	rec := rh.NewRecorder(t)
	every, once := rec.Cmd("every", "", 0), rec.Cmd("once", "", 0)
	r := newClaude(t, rec, map[string]any{})
	skill := filepath.Join(r.home, ".claude", "skills", "guard")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	rh.WriteFile(t, filepath.Join(skill, "SKILL.md"), "---\nname: guard\ndescription: Guards the shell. Use before running shell commands.\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "+q(every)+"\n        - type: command\n          command: "+q(once)+"\n          once: true\n---\nFollow the guard.\n")
	bash := bashTurn
	r.model.SetScript(bash("echo before"), callTool("Skill", `{"skill":"guard"}`), bash("echo after1"), bash("echo after2"), say("finished"))
	r.exec(t, "run it")
	cmds := func(name string) string {
		var out []string
		for _, c := range rec.Calls(name) {
			out = append(out, gjson.Get(c.Stdin, "tool_input.command").Str)
		}
		return strings.Join(out, ",")
	}
	host := [3]string{cmds("every"), cmds("once"), ""}
	if cs := rec.Calls("every"); len(cs) > 0 {
		host[2] = cs[0].Env["CLAUDE_PLUGIN_ROOT"]
	}

	rec.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	c := r.serveHookd(t, ctx)
	defer c.Kill()
	runBash := func(cmd string) {
		if _, err := c.Run(ctx, "PreToolUse", json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"`+cmd+`"}}`)); err != nil {
			t.Fatal(err)
		}
	}
	runBash("echo before")
	if err := c.Call(ctx, "hooks/activateSkill", map[string]any{"name": "guard"}, nil); err != nil {
		t.Fatal(err)
	}
	runBash("echo after1")
	runBash("echo after2")
	ours := [3]string{cmds("every"), cmds("once"), ""}
	if cs := rec.Calls("every"); len(cs) > 0 {
		ours[2] = cs[0].Env["CLAUDE_PLUGIN_ROOT"]
	}
	t.Logf("skill hooks, every handler: Claude Code %q, hookd %q", host[0], ours[0])
	t.Logf("skill hooks, once handler: Claude Code %q, hookd %q", host[1], ours[1])
	t.Logf("CLAUDE_PLUGIN_ROOT: Claude Code %q, hookd %q (skill folder %s)", host[2], ours[2], skill)
	if host != ours {
		t.Errorf("Claude Code %q, hookd %q", host, ours)
	}
}

// bashTurn is a Bash tool call of command c.
func bashTurn(c string) turn { return callTool("Bash", `{"command":"`+c+`","description":"x"}`) }

// subagentScript answers the subagent's requests (those whose system prompt
// holds marker, the agent's body) with their own turns, whenever they
// come; "reviewed" once they are used up.
func (r *claudeRun) subagentScript(marker string, turns ...turn) {
	var mu sync.Mutex
	r.model.side = func(body string) (turn, bool) {
		if !strings.Contains(body, marker) {
			return turn{}, false
		}
		mu.Lock()
		defer mu.Unlock()
		if len(turns) == 0 {
			return say("reviewed"), true
		}
		tn := turns[0]
		turns = turns[1:]
		return tn, true
	}
}

// eventKey names a recorded call: its event, the Bash command, and the
// subagent's type when inside one ("PreToolUse:echo inside@reviewer").
func eventKey(stdin string) string {
	ev := gjson.Get(stdin, "hook_event_name").Str
	if cmd := gjson.Get(stdin, "tool_input.command").Str; cmd != "" {
		ev += ":" + cmd
	}
	if gjson.Get(stdin, "agent_id").Str != "" {
		ev += "@" + gjson.Get(stdin, "agent_type").Str
	}
	return ev
}

// callKeys lists the eventKeys of hook name's calls, or none when it never
// ran.
func callKeys(rec *rh.Recorder, name, none string) string {
	var out []string
	for _, c := range rec.Calls(name) {
		out = append(out, eventKey(c.Stdin))
	}
	if len(out) == 0 {
		return none
	}
	return strings.Join(out, ",")
}

// Issue 17: a user agent's frontmatter hooks run for the tool calls inside
// that subagent only, and its Stop hook runs as SubagentStop when the
// subagent finishes; the main agent's calls and Stop do not run them. A
// settings hook records every event's input; the same inputs, in the same
// order, go to hookd serve, and both must run the agent's hooks for the same
// ones.
func TestClaude_AgentFrontmatterHooks(t *testing.T) {
	rec := rh.NewRecorder(t)
	pre, stop, all := rec.Cmd("agentpre", "", 0), rec.Cmd("agentstop", "", 0), rec.Cmd("all", "", 0)
	every := []any{cgroup("-", cmdHandler(all))}
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("PreToolUse", every, "SubagentStart", every, "SubagentStop", every, "Stop", every)})
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	rh.WriteFile(t, filepath.Join(r.home, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code. Use for reviews.\ntools: Bash\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "+q(pre)+"\n  Stop:\n    - hooks:\n        - type: command\n          command: "+q(stop)+"\n---\nYou review code.\n")
	bash := bashTurn
	r.model.SetScript(callTool("Agent", `{"description":"review","prompt":"review it","subagent_type":"reviewer"}`),
		bash("echo outside"), say("finished"))
	r.subagentScript("You review code.", bash("echo inside"), say("reviewed"))
	r.exec(t, "run it")
	cmds := func(name string) string { return callKeys(rec, name, "") }
	host := [2]string{cmds("agentpre"), cmds("agentstop")}
	var inputs []string
	for _, c := range rec.Calls("all") {
		inputs = append(inputs, c.Stdin)
	}
	t.Logf("events in Claude Code: %s", cmds("all"))

	rec.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	c := r.serveHookd(t, ctx)
	defer c.Kill()
	for _, in := range inputs {
		if _, err := c.Run(ctx, gjson.Get(in, "hook_event_name").Str, json.RawMessage(in)); err != nil {
			t.Fatal(err)
		}
	}
	ours := [2]string{cmds("agentpre"), cmds("agentstop")}
	t.Logf("agent PreToolUse hook: Claude Code %q, hookd %q", host[0], ours[0])
	t.Logf("agent Stop hook: Claude Code %q, hookd %q", host[1], ours[1])
	if host != ours || !strings.Contains(host[0], "echo inside@reviewer") || strings.Contains(host[0], "outside") || !strings.Contains(host[1], "SubagentStop@reviewer") {
		t.Errorf("Claude Code %q, hookd %q", host, ours)
	}
}
