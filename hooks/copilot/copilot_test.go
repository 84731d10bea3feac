package copilot

import (
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestVSCodeInput_SnakeCaseWithClaudeToolNames(t *testing.T) {
	in := []byte(`{"sessionId":"s1","timestamp":1767225600000,"cwd":"/repo","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a"}}`)
	out := vscodeInput("PostToolUse", in)
	want := `{"hook_event_name":"PostToolUse","session_id":"s1","transcript_path":null,"cwd":"/repo","timestamp":"2026-01-01T00:00:00.000Z","tool_name":"Bash","tool_input":{"command":"ls"},"tool_result":{"result_type":"success","text_result_for_llm":"a"}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	// toolArgs given as a JSON string (older CLIs) is parsed.
	out = vscodeInput("PreToolUse", []byte(`{"toolName":"view","toolArgs":"{\"path\":\"a\"}"}`))
	if gjson.GetBytes(out, "tool_input.path").Str != "a" || gjson.GetBytes(out, "tool_name").Str != "Read" {
		t.Errorf("got %s", out)
	}
}

func TestMatchers_AnchoredOnCopilotNamesClaudeNamesForPascalCase(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		vscode  bool
		want    bool
	}{
		{"bash", false, true}, {"b.*", false, true}, {"view|bash", false, true},
		{"Bash", false, false}, {"ba", false, false},
		{"Bash", true, true}, {"bash", true, true}, {"Shell", true, false},
	} {
		d := &discovery{}
		d.handler(rowOf("preToolUse"), map[bool]string{true: "PreToolUse"}[tc.vscode], gjson.Parse(`"`+tc.pattern+`"`),
			gjson.Parse(`{"type":"command","bash":"true"}`), testSource, "k", nil)
		if len(d.Hooks) != 1 {
			t.Fatalf("%q: no hook: %v", tc.pattern, d.Warns)
		}
		if got := d.Hooks[0].CompiledMatcher().Match(toolNames("bash")); got != tc.want {
			t.Errorf("matcher %q (PascalCase %v) on bash: %v, want %v", tc.pattern, tc.vscode, got, tc.want)
		}
	}
}

var testSource = hooks.Source{Layer: hooks.LayerUser, Path: "test.json"}
