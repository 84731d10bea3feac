package cli

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestAdaptOutput_GivesTheHostTheFieldsItReads(t *testing.T) {
	cases := []struct{ to, event, in, want string }{
		// Gemini CLI reads a top-level decision, not permissionDecision.
		{"gemini", "PreToolUse", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}`,
			`{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"},"decision":"deny","reason":"no"}`},
		// A decision the hook gave itself is kept.
		{"gemini", "PreToolUse", `{"decision":"allow","hookSpecificOutput":{"permissionDecision":"deny"}}`,
			`{"decision":"allow","hookSpecificOutput":{"permissionDecision":"deny"}}`},
		{"gemini", "PreToolUse", `{"hookSpecificOutput":{"updatedInput":{"command":"ls"}}}`,
			`{"hookSpecificOutput":{"updatedInput":{"command":"ls"},"tool_input":{"command":"ls"}}}`},
		// Plain text on a context event becomes additionalContext.
		{"copilot", "SessionStart", "hello\n", `{"hookSpecificOutput":{"additionalContext":"hello","hookEventName":"SessionStart"}}`},
		// Anything else passes as it is: plain text elsewhere, nothing at all.
		{"gemini", "PreToolUse", "just text\n", "just text\n"},
		{"gemini", "SessionStart", "", ""},
		{"copilot", "SessionStart", `{"x":1}`, `{"x":1}`},
	}
	for _, c := range cases {
		got := strings.TrimSuffix(string(adaptOutput(c.to, c.event, []byte(c.in))), "\n")
		if got != strings.TrimSuffix(c.want, "\n") {
			t.Errorf("%s %s %q:\n got %s\nwant %s", c.to, c.event, c.in, got, c.want)
		}
	}
}

func TestTranslateHooks_RenamesEventsToolsAndTimeouts(t *testing.T) {
	src := map[string]gjson.Result{
		"PreToolUse":        gjson.Parse(`[{"matcher":"Bash|Task","hooks":[{"type":"command","command":"sh ${CLAUDE_PLUGIN_ROOT}/g.sh","timeout":5,"statusMessage":"x"}]},{"matcher":"Task","hooks":[{"type":"command","command":"t"}]},{"matcher":"Bash.*","hooks":[{"type":"command","command":"r"}]}]`),
		"SessionStart":      gjson.Parse(`[{"matcher":"startup|resume","hooks":[{"type":"command","command":"s"}]}]`),
		"PermissionRequest": gjson.Parse(`[{"hooks":[{"type":"command","command":"p"}]}]`),
		"Stop":              gjson.Parse(`[{"hooks":[{"type":"prompt","prompt":"done?"}]}]`),
	}
	tb, _ := hooks.LookupPortTable("gemini")
	r := &portReport{}
	out := translateHooks(tb, "claude", src, r)
	bt := out["BeforeTool"].([]any)
	if len(bt) != 2 {
		t.Fatalf("BeforeTool groups: %v (the Task-only group has no gemini tool)", bt)
	}
	g := bt[0].(map[string]any)
	h := g["hooks"].([]any)[0].(map[string]any)
	if g["matcher"] != "run_shell_command" || h["timeout"] != float64(5000) || h["statusMessage"] != nil {
		t.Errorf("group 0: %v", g)
	}
	if !strings.Contains(h["command"].(string), "sh ${extensionPath}/g.sh") || !strings.Contains(h["command"].(string), "hookd port-output --to gemini --event PreToolUse") {
		t.Errorf("command: %s", h["command"])
	}
	if bt[1].(map[string]any)["matcher"] != "Bash.*" {
		t.Errorf("a regex matcher is kept: %v", bt[1])
	}
	if len(out["SessionStart"].([]any)) != 2 {
		t.Errorf("SessionStart: %v, want one group per exact value", out["SessionStart"])
	}
	if _, ok := out["PermissionRequest"]; ok {
		t.Error("gemini has no PermissionRequest")
	}
	lost := strings.Join(r.Lost, "\n")
	for _, want := range []string{"PermissionRequest hooks: gemini has no such event", "tool Task has no gemini counterpart", `matcher "Bash.*" is a regex`, `a "prompt" handler does not run on gemini`, `"statusMessage" is not read by gemini`} {
		if !strings.Contains(lost, want) {
			t.Errorf("the report does not say %q:\n%s", want, lost)
		}
	}
}

func TestCompareCell_AHookWithoutItsDataFolderIsNotCarriedOver(t *testing.T) {
	tb, _ := hooks.LookupPortTable("qwen")
	rep := &portReport{Out: "/port", Lost: []string{"the plugin reads PLUGIN_DATA or CLAUDE_PLUGIN_DATA: qwen gives a plugin no data folder, and hooks see neither variable"}}
	base := scriptResult{status: "PASS", log: "> hookd run UserPromptSubmit --input event.json\n      \"stderr\": \"\",\n> status succeeded\n"}
	failed := "> hookd run UserPromptSubmit --input event.json\n      \"stderr\": \"KeyError: 'CLAUDE_PLUGIN_DATA'\\n\",\n> status succeeded\nFAIL: /port/testscripts/prompt.txtar:5: status: hooks ran with other statuses\n"
	c := compareCell(tb, rep, base, scriptResult{status: "FAIL", log: failed})
	if c.Outcome != cellDifferent || !strings.HasPrefix(c.Rule, "not carried over: the plugin reads PLUGIN_DATA") {
		t.Errorf("a hook that fails for want of its data folder: %+v", c)
	}
	if strings.Contains(c.Detail, "/port/") {
		t.Errorf("the detail names the port's temporary folder: %s", c.Detail)
	}
	// A failure that does not come from the missing folder keeps the
	// table's rule.
	other := strings.ReplaceAll(failed, "KeyError: 'CLAUDE_PLUGIN_DATA'", "boom")
	if c := compareCell(tb, rep, base, scriptResult{status: "FAIL", log: other}); strings.HasPrefix(c.Rule, "not carried over") {
		t.Errorf("another failure is put down to the data folder: %+v", c)
	}
}
