//go:build realhost

package newhosts

import (
	"encoding/json"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// sortedJSON is a JSON value with its object keys sorted, for comparing
// what two programs wrote.
func sortedJSON(v gjson.Result) string {
	if !v.Exists() {
		return "(absent)"
	}
	var x any
	if json.Unmarshal([]byte(v.Raw), &x) != nil {
		return v.Raw
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// lastField is one field of the last recorded stdin of name, or "(no call)".
func lastField(calls []rh.Call, path string) string {
	if len(calls) == 0 {
		return "(no call)"
	}
	return sortedJSON(gjson.Get(calls[len(calls)-1].Stdin, path))
}

// TestGemini_Sequential: a group with sequential:true makes the whole plan
// serial, and each hook's rewrite reaches the next hook's input.
func TestGemini_Sequential(t *testing.T) {
	rec := rh.NewRecorder(t)
	seq := func(hs ...any) map[string]any { return map[string]any{"sequential": true, "hooks": hs} }
	cmd := func(c string) map[string]any { return map[string]any{"type": "command", "command": c} }
	r := newGemini(t, map[string]any{
		"BeforeTool": []any{
			map[string]any{"matcher": "run_shell_command", "sequential": true, "hooks": []any{
				cmd(rec.Cmd("t1", `{"hookSpecificOutput":{"tool_input":{"command":"echo chained"}}}`, 0)),
				cmd(rec.Cmd("t2", `{"hookSpecificOutput":{"tool_input":{"command":"echo from-failing"}}}`, 1)),
			}},
			ghook("shell", rec.Cmd("t3", "", 0)),
		},
		"BeforeAgent": []any{seq(
			cmd(rec.Cmd("a1", `{"hookSpecificOutput":{"additionalContext":"ctx-one"}}`, 0)),
			cmd(rec.Cmd("a2", "", 0)),
		)},
	}, shellCall, say("ok"))
	r.run(t, "run it")
	t1, a1 := rec.Calls("t1"), rec.Calls("a1")
	if len(t1) == 0 || len(a1) == 0 {
		t.Fatalf("hooks did not run\n%s", r.stderr)
	}
	hostT2, hostT3 := lastField(rec.Calls("t2"), "tool_input"), lastField(rec.Calls("t3"), "tool_input")
	hostA2 := lastField(rec.Calls("a2"), "prompt")
	r.hookd(t, "BeforeTool", t1[0].Stdin)
	r.hookd(t, "BeforeAgent", a1[0].Stdin)
	record(t, "gemini", "sequential: the next hook gets tool_input merged over the original", hostT2, lastField(rec.Calls("t2"), "tool_input"))
	record(t, "gemini", "sequential: another group's hook runs after, a failed hook's rewrite not passed on", hostT3, lastField(rec.Calls("t3"), "tool_input"))
	record(t, "gemini", "sequential: BeforeAgent context is added to the next hook's prompt", hostA2, lastField(rec.Calls("a2"), "prompt"))
}

// TestQwen_Sequential: Qwen Code chains as Gemini CLI does, on PreToolUse
// and UserPromptSubmit.
func TestQwen_Sequential(t *testing.T) {
	rec := rh.NewRecorder(t)
	cmd := func(c string) map[string]any { return map[string]any{"type": "command", "command": c} }
	r := newQwen(t, map[string]any{
		"PreToolUse": []any{
			map[string]any{"matcher": "run_shell_command", "sequential": true, "hooks": []any{
				cmd(rec.Cmd("t1", `{"hookSpecificOutput":{"tool_input":{"command":"echo chained"}}}`, 0)),
				cmd(rec.Cmd("t2", `{"hookSpecificOutput":{"tool_input":{"command":"echo from-failing"}}}`, 1)),
			}},
			qhook("run_shell_command", rec.Cmd("t3", "", 0)),
		},
		"UserPromptSubmit": []any{map[string]any{"sequential": true, "hooks": []any{
			cmd(rec.Cmd("a1", "plain-context", 0)),
			cmd(rec.Cmd("a2", "", 0)),
		}}},
	}, qwenShell, say("ok"))
	r.run(t, "run it")
	t1, a1 := rec.Calls("t1"), rec.Calls("a1")
	if len(t1) == 0 || len(a1) == 0 {
		t.Fatalf("hooks did not run\n%s", r.stderr)
	}
	hostT2, hostT3 := lastField(rec.Calls("t2"), "tool_input"), lastField(rec.Calls("t3"), "tool_input")
	// Qwen Code sends UserPromptSubmit again (prompt "") after the tool
	// call; the first one answers the user's prompt.
	hostA2 := lastField(rec.Calls("a2")[:min(1, len(rec.Calls("a2")))], "prompt")
	r.hookd(t, "PreToolUse", t1[0].Stdin)
	r.hookd(t, "UserPromptSubmit", a1[0].Stdin)
	record(t, "qwen", "sequential: the next hook gets tool_input merged over the original", hostT2, lastField(rec.Calls("t2"), "tool_input"))
	record(t, "qwen", "sequential: another group's hook runs after, a failed hook's rewrite not passed on", hostT3, lastField(rec.Calls("t3"), "tool_input"))
	record(t, "qwen", "sequential: plain-stdout prompt context is added to the next hook's prompt", hostA2, lastField(rec.Calls("a2"), "prompt"))
}
