package cli

import (
	"os"
	"path/filepath"
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

func TestPortPlugin_ReportsScriptsThatCompareClaudeToolNames(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".claude-plugin/plugin.json": `{"name": "g"}`,
		"hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/scripts/g.py"}]}]}}`,
		"scripts/g.py":               "if data.get('tool_name') != 'Bash':\n    sys.exit(0)\n",
		"testscripts/g.txtar":        "event PreToolUse Bash 'ls'\n# \"Write\" is named here only\n",
	}
	for rel, body := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := portPlugin(root, "gemini", filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, l := range r.Lost {
		if strings.Contains(l, "names the tool") {
			named = append(named, l)
		}
	}
	want := `scripts/g.py names the tool "Bash": gemini calls it run_shell_command`
	if len(named) != 1 || !strings.HasPrefix(named[0], want) {
		t.Errorf("reported: %q, want one starting %q (test scripts are not the plugin's hooks)", named, want)
	}
	// A host that keeps Claude Code's name has nothing to report.
	r, err = portPlugin(root, "codex", filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Lost {
		if strings.Contains(l, "names the tool") {
			t.Errorf("codex: %s", l)
		}
	}
}

func TestCompareCell_AScriptComparingAClaudeToolNameIsNotCarriedOver(t *testing.T) {
	tb, _ := hooks.LookupPortTable("qwen")
	lost := `scripts/g.py names the tool "Bash": qwen calls it run_shell_command, so a hook that compares tool_name with Claude Code's name does not match there`
	rep := &portReport{Out: "/port", Lost: []string{lost}}
	base := scriptResult{status: "PASS", log: "> ! hookd run PreToolUse --input event.json\n"}
	got := scriptResult{status: "FAIL", log: "> event PreToolUse Bash 'gh pr create'\ntranslated: tool Bash is run_shell_command on qwen\n> ! hookd run PreToolUse --input event.json\nFAIL: /port/testscripts/write.txtar:5: unexpected hookd success\n"}
	if c := compareCell(tb, rep, base, got); c.Rule != "not carried over: "+lost || c.Link != "profile-qwen.md#matchers" {
		t.Errorf("%+v", c)
	}
	// Without the report's note the host's own rule stays.
	if c := compareCell(tb, &portReport{Out: "/port"}, base, got); strings.HasPrefix(c.Rule, "not carried over") {
		t.Errorf("%+v", c)
	}
}
