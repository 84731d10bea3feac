package hooks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// newTestEngine builds an engine whose only hooks are the session hooks given
// as a hooks object ({Event: [groups]}).
func newTestEngine(t *testing.T, hooksObj string, bypass bool) *Engine {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	e := New(Options{
		Profile:     codexProfile(),
		Session:     Session{ID: "sess_1", Cwd: t.TempDir(), TranscriptPath: "/tmp/t.jsonl", Model: "gpt-5", PermissionMode: "default"},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(hooksObj)},
		BypassTrust: bypass,
	})
	t.Cleanup(e.Close)
	if sum := e.Load(); sum.Warnings != 0 {
		_, w := e.List("")
		t.Fatalf("unexpected warnings: %+v", w)
	}
	return e
}

// The event's fields come in the host's order, filled from the session; a
// field the event does not name keeps its place before the next event field
// the input had after it.
func TestInput_FieldsInCodexOrderFilledFromSession(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	got := e.buildInput(codexProfile().Event("PreToolUse"), []byte(`{"tool_use_id":"c1","extra":{"a":1},"tool_input":{"command":"ls"},"tool_name":"exec_command"}`), "turn-1")
	want := fmt.Sprintf(`{"session_id":"sess_1","turn_id":"turn-1","transcript_path":"/tmp/t.jsonl","cwd":%q,"hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","extra":{"a":1},"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c1"}`, e.opts.Session.Cwd)
	if string(got) != want {
		t.Errorf("input\n got %s\nwant %s", got, want)
	}
}

func TestInput_RequestFieldWinsOverSessionButNotEventName(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	got := gjson.ParseBytes(e.buildInput(codexProfile().Event("Stop"), []byte(`{"cwd":"/elsewhere","hook_event_name":"Fake","session_id":"other"}`), ""))
	if got.Get("cwd").Str != "/elsewhere" || got.Get("session_id").Str != "other" {
		t.Errorf("request fields should win: %s", got.Raw)
	}
	if got.Get("hook_event_name").Str != "Stop" {
		t.Errorf("hook_event_name = %q, want Stop", got.Get("hook_event_name").Str)
	}
	if got.Get("turn_id").Exists() {
		t.Errorf("turn_id without a turn: %s", got.Raw)
	}
	if got.Get("last_assistant_message").Type != gjson.Null || got.Get("stop_hook_active").Raw != "false" {
		t.Errorf("Stop defaults: %s", got.Raw)
	}
}

func TestInput_NoTranscriptIsNull(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	e.opts.Session.TranscriptPath = ""
	got := gjson.ParseBytes(e.buildInput(codexProfile().Event("SessionEnd"), []byte(`{"reason":"other"}`), ""))
	if got.Get("transcript_path").Type != gjson.Null || got.Get("model").Exists() || got.Get("permission_mode").Exists() {
		t.Errorf("SessionEnd input: %s", got.Raw)
	}
}

func TestRun_HandlerMatchedThroughSeveralAliasesRunsOnce(t *testing.T) {
	e := newTestEngine(t, `{"PreToolUse": [
		{"matcher": "apply_patch", "hooks": [{"type": "command", "command": "echo a"}]},
		{"matcher": "Edit", "hooks": [{"type": "command", "command": "echo b"}]},
		{"matcher": "Write", "hooks": [{"type": "command", "command": "echo c"}]},
		{"matcher": "Edit|Write|apply_patch", "hooks": [{"type": "command", "command": "echo d"}]},
		{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo e"}]}]}`, true)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"apply_patch","tool_input":{"command":"patch"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 4 {
		t.Fatalf("ran %d handlers, want 4 (each once): %+v", len(res.Hooks), res.Hooks)
	}
	for i, h := range res.Hooks {
		if !strings.HasSuffix(h.Key, fmt.Sprintf(":pre_tool_use:%d:0", i)) {
			t.Errorf("hook %d = %s, want configuration order", i, h.Key)
		}
	}
}

func TestRun_ShellToolsAreBashForMatchingAndInput(t *testing.T) {
	e := newTestEngine(t, `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat"}]}]}`, true)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"shell_command","tool_input":{"command":"ls"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 {
		t.Fatalf("Bash matcher did not match shell_command: %+v", res)
	}
}

func TestRun_EventsWithoutTargetIgnoreMatchers(t *testing.T) {
	e := newTestEngine(t, `{"UserPromptSubmit": [{"matcher": "nothing-matches-this", "hooks": [{"type": "command", "command": "echo hi"}]}]}`, true)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "hi" {
		t.Fatalf("UserPromptSubmit should ignore its matcher: %+v", res)
	}
}

func TestRun_MissingMatchTargetOnlyMatchesMatchAll(t *testing.T) {
	e := newTestEngine(t, `{"SessionStart": [
		{"matcher": "startup", "hooks": [{"type": "command", "command": "echo exact"}]},
		{"matcher": "*", "hooks": [{"type": "command", "command": "echo star"}]},
		{"hooks": [{"type": "command", "command": "echo none"}]}]}`, true)
	res, err := e.Run(context.Background(), "SessionStart", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range res.AdditionalContext {
		texts = append(texts, c.Text)
	}
	if strings.Join(texts, ",") != "star,none" {
		t.Errorf("contexts = %q, want star,none", texts)
	}
}

func TestRun_SkippedHooksAreReportedWithReason(t *testing.T) {
	e := newTestEngine(t, `{"Stop": [{"hooks": [
		{"type": "command", "command": "echo a"},
		{"type": "command", "command": "echo b"},
		{"type": "command", "command": "echo c"}]}]}`, false)
	hooks, _ := e.snapshot()
	hooks[1].Enabled = false
	hooks[2].Trust = TrustModified
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"untrusted", "disabled", "modified"}
	if len(res.Skipped) != 3 || len(res.Hooks) != 0 {
		t.Fatalf("skipped %+v, ran %+v", res.Skipped, res.Hooks)
	}
	for i, s := range res.Skipped {
		if s.Reason != want[i] {
			t.Errorf("skip %d reason %q, want %q", i, s.Reason, want[i])
		}
	}
}

func TestRun_BypassRunsUntrustedButNotDisabled(t *testing.T) {
	e := newTestEngine(t, `{"Stop": [{"hooks": [{"type": "command", "command": "echo '{}'"}, {"type": "command", "command": "echo '{}'"}]}]}`, true)
	hooks, _ := e.snapshot()
	hooks[1].Enabled = false
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "disabled" {
		t.Fatalf("bypass: ran %+v skipped %+v", res.Hooks, res.Skipped)
	}
}

func TestRun_RewriteOfShellToolNeedsStringCommand(t *testing.T) {
	e := newTestEngine(t, `{"PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"cmd\":1}}}'"}]}]}`, true)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.UpdatedInput != nil || res.Hooks[0].Status != StatusFailed || !strings.Contains(*res.Hooks[0].Error, `string "command"`) {
		t.Fatalf("bad Bash rewrite accepted: %+v %s", res.Hooks[0], res.UpdatedInput)
	}
	// Another tool takes any object.
	res, err = e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"mcp__x__y","tool_input":{}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.UpdatedInput) != `{"cmd":1}` || res.Decision != DecisionAllow {
		t.Fatalf("MCP rewrite: decision %s input %s", res.Decision, res.UpdatedInput)
	}
}

func TestRun_UnknownEventAndBadInputAreParamErrors(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	for _, tc := range []struct{ event, input, field string }{
		{"Nope", `{}`, "event"},
		{"Stop", `[1]`, "input"},
		{"Stop", `"x"`, "input"},
	} {
		_, err := e.Run(context.Background(), tc.event, []byte(tc.input), "")
		pe, ok := err.(*ParamError)
		if !ok || pe.Field != tc.field {
			t.Errorf("Run(%s, %s) = %v, want ParamError on %s", tc.event, tc.input, err, tc.field)
		}
	}
}

func TestRun_CancelledContextIsAnError(t *testing.T) {
	e := newTestEngine(t, `{"Stop": [{"hooks": [{"type": "command", "command": "sleep 100"}]}]}`, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Run(ctx, "Stop", nil, ""); err == nil {
		t.Fatal("Run with a cancelled context succeeded")
	}
}

// codexProfile is Codex's profile, registered by package codex, which
// hosts_test.go links into the test binary.
func codexProfile() *Profile {
	p, ok := LookupProfile("codex")
	if !ok {
		panic("codex profile not registered: hosts_test.go links it")
	}
	return p
}

// Claude Code puts pass-through fields such as prompt_id among its own:
// hookd keeps them there rather than last.
func TestInput_PassThroughFieldsKeepTheirPlace(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/w","prompt_id":"p1","permission_mode":"plan","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":null,"effort":"high"}`
	got := string(e.buildInput(codexProfile().Event("Stop"), []byte(in), ""))
	want := `{"session_id":"s","transcript_path":"/t","cwd":"/w","prompt_id":"p1","hook_event_name":"Stop","model":"gpt-5","permission_mode":"plan","stop_hook_active":false,"last_assistant_message":null,"effort":"high"}`
	if got != want {
		t.Errorf("input\n got %s\nwant %s", got, want)
	}
}
