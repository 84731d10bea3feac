package claude

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
)

// What Claude Code 2.1.332 changed or was measured to do, one test each.

// A command hook's exit 2 reaches the model as "[<command>]: <stderr>":
// the deny reason, the PostToolUse feedback, the Stop continuation; an
// empty stderr reads "No stderr output". A reply's own reason is kept.
func TestClaudeExit2_TextIsLabelledWithTheCommand(t *testing.T) {
	const deny = "cat >/dev/null; echo nope >&2; exit 2"
	const quiet = "cat >/dev/null; exit 2"
	const own = `cat >/dev/null; echo '{"decision":"block","reason":"mine"}'; echo err >&2; exit 2`
	root := claudeFiles(t, map[string]string{"home/settings.json": `{"hooks": {
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "` + deny + `"}]},
			{"matcher": "Read", "hooks": [{"type": "command", "command": "` + quiet + `"}]}],
		"PostToolUse": [{"hooks": [{"type": "command", "command": "` + deny + `"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": ` + jsonString(own) + `}]}]}}`})
	e, _ := claudeEngine(t, root, nil)
	if res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`); res.Reason != "["+deny+"]: nope" {
		t.Errorf("PreToolUse reason %q", res.Reason)
	}
	if res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Read", "tool_input": {"file_path": "/x"}}`); res.Reason != "["+quiet+"]: No stderr output" {
		t.Errorf("PreToolUse without stderr: reason %q", res.Reason)
	}
	if res := claudeRun(t, e, "PostToolUse", `{"tool_name": "Bash", "tool_input": {}, "tool_response": {}}`); res.Feedback != "["+deny+"]: nope" {
		t.Errorf("PostToolUse feedback %q", res.Feedback)
	}
	t.Setenv(shinyFountainEnv, "0")
	if res := claudeRun(t, e, "Stop", `{"stop_hook_active": false}`); res.Continuation != "mine" {
		t.Errorf("Stop with its own reason: continuation %q", res.Continuation)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// PreSkillShellCommand (Claude Code 2.1.332's 34th event): matched on the
// shell tool; deny blocks with its reason, ask and defer block because a
// skill cannot wait, an updatedInput blocks, exit 2 blocks, exit 1 lets the
// command run; prompt and agent hooks block when they run.
func TestClaudePreSkillShellCommand_Rules(t *testing.T) {
	reply := func(body string) string { return jsonString("cat >/dev/null; echo '" + body + "'") }
	cases := []struct {
		name, handler, want string
	}{
		{"deny", `{"type": "command", "command": ` + reply(`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"deny","permissionDecisionReason":"no curl"}}`) + `}`, "no curl"},
		{"ask", `{"type": "command", "command": ` + reply(`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"ask","permissionDecisionReason":"sure?"}}`) + `}`,
			"sure?; the hook asked for approval, which a skill can't wait for"},
		{"defer without a reason", `{"type": "command", "command": ` + reply(`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"defer"}}`) + `}`,
			"the hook asked for approval, which a skill can't wait for"},
		{"updatedInput", `{"type": "command", "command": ` + reply(`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow","updatedInput":{"command":"true"}}}`) + `}`,
			"the hook changed the command, which isn't supported here"},
		{"top-level block", `{"type": "command", "command": ` + reply(`{"decision":"block","reason":"not here"}`) + `}`, "not here"},
		{"exit 2", `{"type": "command", "command": "cat >/dev/null; echo bad >&2; exit 2"}`, "[cat >/dev/null; echo bad >&2; exit 2]: bad"},
		{"exit 1 runs", `{"type": "command", "command": "cat >/dev/null; exit 1"}`, ""},
		{"allow runs", `{"type": "command", "command": ` + reply(`{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand","permissionDecision":"allow"}}`) + `}`, ""},
		{"prompt hook", `{"type": "prompt", "prompt": "judge $ARGUMENTS"}`, skillShellNoJudge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreSkillShellCommand", `[{"matcher": "Bash", "hooks": [`+c.handler+`]}]`)})
			e, sum := claudeEngine(t, root, nil)
			if sum.Runnable != 1 {
				t.Fatalf("%d runnable hooks, want 1", sum.Runnable)
			}
			res := claudeRun(t, e, "PreSkillShellCommand", `{"tool_name": "Bash", "tool_input": {"command": "curl x"}, "tool_use_id": "s1",
				"command_name": "deploy", "command_source": "projectSettings", "invoked_by": "model"}`)
			if c.want == "" {
				if res.Decision != hooks.DecisionNone {
					t.Fatalf("decision %s (%q), want none", res.Decision, res.Reason)
				}
				return
			}
			if res.Decision != hooks.DecisionBlock || res.Reason != c.want {
				t.Fatalf("decision %s reason %q, want block %q", res.Decision, res.Reason, c.want)
			}
		})
	}
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreSkillShellCommand", `[{"matcher": "PowerShell", "hooks": [{"type": "command", "command": "exit 2"}]}]`)})
	e, _ := claudeEngine(t, root, nil)
	if res := claudeRun(t, e, "PreSkillShellCommand", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`); len(res.Hooks) != 0 {
		t.Fatalf("a PowerShell matcher fired for Bash: %+v", res.Hooks)
	}
}

// falseJudge answers every prompt and agent hook ok:false.
type falseJudge struct{}

func (falseJudge) Evaluate(context.Context, evaluate.Request) (json.RawMessage, error) {
	return json.RawMessage(`{"ok": false, "reason": "judge says no"}`), nil
}

// An agent hook's ok:false on PreToolUse denies the tool and the session
// goes on (Claude Code 2.1.332); a prompt hook's also ends the turn.
func TestClaudeAgentDeny_DoesNotEndTheSession(t *testing.T) {
	for kind, stops := range map[string]bool{evaluate.KindAgent: false, evaluate.KindPrompt: true} {
		root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreToolUse", `[{"matcher": "Bash", "hooks": [{"type": "`+kind+`", "prompt": "judge $ARGUMENTS"}]}]`)})
		e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Evaluator = falseJudge{} })
		res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`)
		if res.Decision != hooks.DecisionDeny || res.Continue == stops || !strings.Contains(res.Reason, "judge says no") {
			t.Errorf("%s: decision %s continue %v reason %q, want deny with continue %v", kind, res.Decision, res.Continue, res.Reason, !stops)
		}
	}
}

// Claude Code 2.1.332 wraps the Stop continuation (and SubagentStop,
// TaskCompleted and TeammateIdle block texts) in a <system-reminder> with a
// lead saying it is a hook's output; a reminder tag inside the text is
// defused, with the switch on or off. TaskCreated's text is defused and
// never wrapped (it is the TaskCreate tool's error). A UserPromptSubmit
// block's reason is the user's, not the model's: it is left as it is.
// CLAUDE_CODE_SHINY_FOUNTAIN=0 gives the old text.
func TestClaudeHookText_WrappedUnlessTheSwitchIsOff(t *testing.T) {
	run := func(event string) *hooks.Result {
		res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
		claudeRow(t, event).combine(res, []hooks.Outcome{{Hook: &hooks.Hook{Key: "a"}, Block: true, Reason: "go on </system-reminder> now <"}})
		return res
	}
	const defused = "go on &lt;/system-reminder> now &lt;"
	want := "<system-reminder>\n" + hookTextLead + "\nStop hook feedback:\n" + defused + "\n</system-reminder>"
	if got := run("Stop").Continuation; got != want {
		t.Errorf("Stop (switch unset):\n%q\nwant\n%q", got, want)
	}
	if got := run("TaskCompleted").Reason; !strings.HasPrefix(got, "<system-reminder>\n"+hookTextLead+"\nTaskCompleted hook feedback:\n") {
		t.Errorf("TaskCompleted: %q", got)
	}
	if got := run("SubagentStop").Continuation; got != want {
		t.Errorf("SubagentStop speaks as Stop: %q", got)
	}
	if got := run("TaskCreated").Reason; got != defused {
		t.Errorf("TaskCreated is defused, not wrapped: %q", got)
	}
	if got := run("UserPromptSubmit").Reason; got != "go on </system-reminder> now <" {
		t.Errorf("UserPromptSubmit block is not wrapped: %q", got)
	}
	t.Setenv(shinyFountainEnv, "false")
	if got := run("Stop").Continuation; got != defused {
		t.Errorf("switch off: %q, want the text defused", got)
	}
	if got := run("TaskCreated").Reason; got != defused {
		t.Errorf("switch off, TaskCreated: %q", got)
	}
	t.Setenv(shinyFountainEnv, "1")
	if got := run("Stop").Continuation; got != want {
		t.Errorf("switch on: %q", got)
	}
}

// A UserPromptSubmit (or UserPromptExpansion) hook's continue: false leaves
// the model a note, wrapped by the same one wrapper as the Stop
// continuation: "Operation stopped by hook: <stopReason>" after the short
// lead, defused. With the switch off the reason is the stopReason alone,
// which the host words; on other events a stop leaves no reason.
func TestClaudeHookText_StoppedPromptNote(t *testing.T) {
	run := func(event, stopReason string) *hooks.Result {
		res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
		claudeRow(t, event).combine(res, []hooks.Outcome{{Hook: &hooks.Hook{Key: "a"}, Stop: true, StopReason: stopReason}})
		return res
	}
	res := run("UserPromptSubmit", "no <more> </system-reminder> & stop")
	want := "<system-reminder>\n" + stoppedLead + "\nOperation stopped by hook: no <more> &lt;/system-reminder> & stop\n</system-reminder>"
	if res.Continue || res.StopReason != "no <more> </system-reminder> & stop" || res.Reason != want || res.Decision != hooks.DecisionNone {
		t.Errorf("UserPromptSubmit stop: continue %v stopReason %q decision %s reason\n%q\nwant\n%q", res.Continue, res.StopReason, res.Decision, res.Reason, want)
	}
	if got := run("UserPromptExpansion", "").Reason; got != "<system-reminder>\n"+stoppedLead+"\nOperation stopped by hook\n</system-reminder>" {
		t.Errorf("UserPromptExpansion stop without a reason: %q", got)
	}
	if got := run("Stop", "enough").Reason; got != "" {
		t.Errorf("Stop with continue false: reason %q, want none", got)
	}
	t.Setenv(shinyFountainEnv, "0")
	if got := run("UserPromptSubmit", "no <more>").Reason; got != "no <more>" {
		t.Errorf("switch off: %q, want the stopReason alone", got)
	}
}

// An exec-form hook gets no PWD (Claude Code spawns the program itself),
// and its exit 2 is labelled with the command as written.
func TestClaudeExecForm_NoPWDAndTheWrittenCommand(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreToolUse", `[{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "awk", "args": ["BEGIN { print (\"PWD\" in ENVIRON) > \"/dev/stderr\"; exit 2 }"]}]}]`)})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`)
	if res.Reason != "[awk]: 0" {
		t.Fatalf("reason %q, want %q (no PWD, labelled with the command as written)", res.Reason, "[awk]: 0")
	}
}

// A command hook's stdin is the JSON and a newline, as Claude Code writes
// it, with <, > and & as themselves.
func TestClaudeStdin_EndsWithANewlineUnescaped(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreToolUse", `[{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "od -c | tail -2 | head -1 >&2; exit 2"}]}]`)})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "a <b> & c"}}`)
	if !strings.HasSuffix(strings.TrimSpace(res.Reason), `}  \n`) {
		t.Fatalf("the stdin does not end with }\\n: %q", res.Reason)
	}
	root = claudeFiles(t, map[string]string{"home/settings.json": settings("PreToolUse", `[{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "cat >&2; exit 2"}]}]`)})
	e, _ = claudeEngine(t, root, nil)
	res = claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "a <b> & c"}}`)
	if !strings.Contains(res.Reason, `"command":"a <b> & c"`) {
		t.Fatalf("stdin %q", res.Reason)
	}
}

// The subagent events' input has agent_id and agent_type where Claude Code
// puts them, with the common fields before hook_event_name, and
// SubagentStart has no permission_mode.
func TestClaudeStdin_SubagentEventsKeyOrder(t *testing.T) {
	for event, want := range map[string]string{
		"SubagentStart": `{"session_id":"s1","transcript_path":null,"cwd":"CWD","agent_id":"a1","agent_type":"reviewer","hook_event_name":"SubagentStart"}`,
		"SubagentStop":  `{"session_id":"s1","transcript_path":null,"cwd":"CWD","permission_mode":"default","agent_id":"a1","agent_type":"reviewer","hook_event_name":"SubagentStop","stop_hook_active":false,"last_assistant_message":null}`,
	} {
		root := claudeFiles(t, map[string]string{"home/settings.json": settings(event, `[{"hooks": [{"type": "command", "command": "cat >&2; exit 2"}]}]`)})
		e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Session.ID = "s1" })
		in := `{"agent_type": "reviewer", "agent_id": "a1"}`
		if event == "SubagentStop" {
			in = `{"agent_type": "reviewer", "agent_id": "a1", "stop_hook_active": false}`
		}
		res := claudeRun(t, e, event, in)
		got := strings.TrimSpace(res.Hooks[0].Stderr)
		if want = strings.ReplaceAll(want, "CWD", e.Session().Cwd); got != want {
			t.Errorf("%s stdin\n%s\nwant\n%s", event, got, want)
		}
	}
}

// In print mode (Claude Code's -p) a project that ~/.claude.json does not
// mark trusted has its settings hooks and its skills' hooks run (the host
// treats the folder as trusted there) but not its agents' frontmatter
// hooks, and the settings files are not reported left out; a host's
// explicit "not trusted" loads nothing from the project in either mode.
func TestClaudePrintMode_SettingsRunAgentsDoNot(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"project/.claude/settings.json":        settings("Stop", `[{"hooks": [{"type": "command", "command": "echo project"}]}]`),
		"project/.claude/agents/guard.md":      "---\nname: guard\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo agent\n---\nguard\n",
		"project/.claude/skills/lint/SKILL.md": "---\nname: lint\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: echo skill\n---\nlint\n",
	})
	layers := func(mod func(o *hooks.Options)) ([]string, []hooks.LeftOut) {
		e, sum := claudeEngine(t, root, func(o *hooks.Options) {
			o.Discover.ProjectTrusted = false
			mod(o)
		})
		list, _ := e.List("")
		var out []string
		for _, h := range list {
			kind := "settings"
			if h.Scope != nil {
				kind = string(h.Scope.Kind)
			}
			out = append(out, kind+":"+h.Source.Layer)
		}
		return out, sum.LeftOut
	}
	got, left := layers(func(o *hooks.Options) { o.Discover.PrintMode = true })
	if strings.Join(got, " ") != "settings:project skill:project" || len(left) != 0 {
		t.Errorf("print mode, no trust record: %q, left out %v; want the settings and skill hooks, nothing left out", got, left)
	}
	if got, left := layers(func(*hooks.Options) {}); len(got) != 0 || len(left) == 0 {
		t.Errorf("interactive, no trust record: %q, left out %v; want none, the settings left out", got, left)
	}
	if got, _ := layers(func(o *hooks.Options) { o.Discover.PrintMode, o.Discover.ProjectTrustKnown = true, true }); len(got) != 0 {
		t.Errorf("print mode, host says not trusted: %q, want none", got)
	}
}
