package copilot

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestVSCodeInput_SnakeCaseWithClaudeToolNames(t *testing.T) {
	in := []byte(`{"sessionId":"s1","timestamp":1767225600000,"cwd":"/repo","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a"}}`)
	out := vscodeInput("PostToolUse", in)
	want := `{"hook_event_name":"PostToolUse","session_id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/repo","tool_name":"Bash","tool_input":{"command":"ls"},"tool_result":{"result_type":"success","text_result_for_llm":"a"}}`
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

func TestLiftAnswer_PascalCaseAnswersReadAsCamelCase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","updatedInput":{"a":1}}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","updatedInput":{"a":1}},"modifiedArgs":{"a":1},"permissionDecision":"deny","permissionDecisionReason":"r"}`},
		{`{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m","interrupt":true}}}`,
			`{"behavior":"deny","hookSpecificOutput":{"decision":{"behavior":"deny","message":"m","interrupt":true}},"interrupt":true,"message":"m"}`},
		// The top level wins; text and other JSON are left alone.
		{`{"permissionDecision":"allow","hookSpecificOutput":{"permissionDecision":"deny"}}`, `{"hookSpecificOutput":{"permissionDecision":"deny"},"permissionDecision":"allow"}`},
		{"plain text", "plain text"},
		{`{"decision":"block"}`, `{"decision":"block"}`},
	} {
		if got := liftAnswer(tc.in); got != tc.want {
			t.Errorf("liftAnswer(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// Copilot CLI gives every hook its version and a git setting through
// GIT_CONFIG_COUNT/KEY_0/VALUE_0, in place of any GIT_CONFIG_* of its own
// environment; the provider's settings stay out.
func TestCopilotEnv_VersionAndGitConfig(t *testing.T) {
	got := envFilter([]string{"PATH=/bin", "COPILOT_PROVIDER_API_KEY=k", "GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_1=x", "GIT_CONFIG_VALUE_1=y"})
	want := []string{"PATH=/bin", "COPILOT_CLI_BINARY_VERSION=1.0.102", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("env %q, want %q", got, want)
	}
	if got := envFilter([]string{"COPILOT_CLI_BINARY_VERSION=1.0.200"}); got[0] != "COPILOT_CLI_BINARY_VERSION=1.0.200" {
		t.Fatalf("the host's version was not kept: %q", got)
	}
}
