package codex

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
)

// exitRaw is a finished handler's raw result with an exit code.
func exitRaw(code int, stdout, stderr string) hooks.RawResult {
	return hooks.RawResult{ExitCode: &code, Stdout: stdout, Stderr: stderr, Timeout: 600 * time.Second}
}

// parseAs reads raw with the codex rules of event.
func parseAs(t *testing.T, event string, raw hooks.RawResult, async bool) hooks.Outcome {
	t.Helper()
	ev := Profile.Event(event)
	if ev == nil || ev.Parse == nil {
		t.Fatalf("codex event %s has no Parse rule", event)
	}
	return ev.Parse(raw, async)
}

// combineAs folds outcomes, given in configuration order, with the codex
// rules of event. Each outcome gets the hook key h<index> and, unless it has
// one, a completion number in configuration order.
func combineAs(t *testing.T, event string, outs ...hooks.Outcome) *hooks.Result {
	t.Helper()
	ev := Profile.Event(event)
	if ev == nil || ev.Combine == nil {
		t.Fatalf("codex event %s has no Combine rule", event)
	}
	for i := range outs {
		outs[i].Hook = &hooks.Hook{Key: fmt.Sprintf("h%d", i), Event: event}
		if outs[i].Finished == 0 {
			outs[i].Finished = i + 1
		}
	}
	res := &hooks.Result{Event: event, Decision: hooks.DecisionNone, Continue: true}
	ev.Combine(res, outs)
	return res
}

// contexts lists the texts of res.AdditionalContext as "hook: text".
func contexts(res *hooks.Result) []string {
	var out []string
	for _, c := range res.AdditionalContext {
		out = append(out, c.Hook+": "+c.Text)
	}
	return out
}

// classifyEvent is what the shared classification needs to know per event.
type classifyEvent struct {
	name        string
	invalidJSON string
	plain       plainRule
	// exit2Missing is empty for events where exit 2 is an ordinary failure.
	exit2Missing string
	lifecycle    bool
	sessionEnd   bool
}

var classifyEvents = []classifyEvent{
	{"PreToolUse", "hook returned invalid pre-tool-use JSON output", plainIgnored,
		"PreToolUse hook exited with code 2 but did not write a blocking reason to stderr", false, false},
	{"PermissionRequest", "hook returned invalid permission-request JSON output", plainIgnored,
		"PermissionRequest hook exited with code 2 but did not write a denial reason to stderr", false, false},
	{"PostToolUse", "hook returned invalid post-tool-use JSON output", plainIgnored,
		"PostToolUse hook exited with code 2 but did not write feedback to stderr", false, false},
	{"UserPromptSubmit", "hook returned invalid user prompt submit JSON output", plainContext,
		"UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr", false, false},
	{"SessionStart", "hook returned invalid session start JSON output", plainContext, "", false, false},
	{"SubagentStart", "hook returned invalid subagent start JSON output", plainContext, "", false, false},
	{"Stop", "hook returned invalid stop hook JSON output", plainInvalid,
		"Stop hook exited with code 2 but did not write a continuation prompt to stderr", false, false},
	{"SubagentStop", "hook returned invalid subagent stop hook JSON output", plainInvalid,
		"SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr", false, false},
	{"PreCompact", "hook returned invalid PreCompact hook JSON output", plainIgnored, "", true, false},
	{"PostCompact", "hook returned invalid PostCompact hook JSON output", plainIgnored, "", true, false},
	{"SessionEnd", "", plainIgnored, "", true, true},
}

// TestClassify_ExitCodesAndStdoutKinds runs every event through the shared
// classification: process failures, exit codes and the kinds of exit-0 stdout.
func TestClassify_ExitCodesAndStdoutKinds(t *testing.T) {
	type want struct {
		status  hooks.Status
		err     string
		block   bool
		reason  string
		context []string
	}
	type row struct {
		name  string
		raw   hooks.RawResult
		async bool
		want  func(ev classifyEvent) want
	}
	ok := func(classifyEvent) want { return want{status: hooks.StatusSucceeded} }
	// plain is what an event does with exit-0 text that is not a JSON object.
	plain := func(text string) func(ev classifyEvent) want {
		return func(ev classifyEvent) want {
			switch {
			case ev.sessionEnd:
				return want{status: hooks.StatusSucceeded}
			case ev.plain == plainContext:
				return want{status: hooks.StatusSucceeded, context: []string{text}}
			case ev.plain == plainInvalid:
				return want{status: hooks.StatusFailed, err: ev.invalidJSON}
			}
			return want{status: hooks.StatusSucceeded}
		}
	}
	invalid := func(ev classifyEvent) want {
		if ev.sessionEnd {
			return want{status: hooks.StatusSucceeded}
		}
		return want{status: hooks.StatusFailed, err: ev.invalidJSON}
	}
	// exitFailure is a non-zero exit that does not block.
	exitFailure := func(code int, stderr string) func(ev classifyEvent) want {
		return func(ev classifyEvent) want {
			if ev.lifecycle && stderr != "" {
				return want{status: hooks.StatusFailed, err: stderr}
			}
			return want{status: hooks.StatusFailed, err: fmt.Sprintf("hook exited with code %d", code)}
		}
	}
	timedOut := hooks.RawResult{TimedOut: true, Timeout: 1500 * time.Millisecond, Err: errors.New("signal: killed")}
	cancelled := hooks.RawResult{Cancelled: true, Timeout: time.Second}
	spawn := hooks.RawResult{Err: errors.New("fork/exec /bin/sh: no such file or directory")}
	wrote := exitRaw(0, "", "")
	wrote.Err = errors.New("failed to write hook stdin: broken pipe")

	rows := []row{
		{"exit 0 blank stdout", exitRaw(0, " \n\t", "ignored"), false, ok},
		{"exit 0 plain text", exitRaw(0, "  hello from hook\n", ""), false, plain("hello from hook")},
		{"exit 0 JSON string is text", exitRaw(0, `"hi"`, ""), false, plain(`"hi"`)},
		{"exit 0 JSON number is text", exitRaw(0, "42\n", ""), false, plain("42")},
		{"exit 0 text starting with a tag bracket", exitRaw(0, "[info] done", ""), false, invalid},
		{"exit 0 JSON array", exitRaw(0, "[]", ""), false, invalid},
		{"exit 0 truncated object", exitRaw(0, "\n  {", ""), false, invalid},
		{"exit 0 unknown field", exitRaw(0, `{"unknown":1}`, ""), false, invalid},
		{"exit 0 trailing data", exitRaw(0, `{} x`, ""), false, invalid},
		{"exit 0 two objects", exitRaw(0, `{}{}`, ""), false, invalid},
		{"exit 0 empty object", exitRaw(0, "  {}\n", ""), false, ok},
		{"exit 2 with stderr", exitRaw(2, `{"ignored":true}`, "why\n"), false, func(ev classifyEvent) want {
			if ev.exit2Missing != "" {
				return want{status: hooks.StatusBlocked, block: true, reason: "why"}
			}
			return exitFailure(2, "why")(ev)
		}},
		{"exit 2 blank stderr", exitRaw(2, "", " \n"), false, func(ev classifyEvent) want {
			if ev.exit2Missing != "" {
				return want{status: hooks.StatusFailed, err: ev.exit2Missing}
			}
			return exitFailure(2, "")(ev)
		}},
		{"async exit 2 with stderr", exitRaw(2, "", "why"), true, exitFailure(2, "why")},
		{"exit 1", exitRaw(1, "", ""), false, exitFailure(1, "")},
		{"exit 1 with stderr", exitRaw(1, "", "  boom\n"), false, exitFailure(1, "boom")},
		{"exit 127", exitRaw(127, "", ""), false, exitFailure(127, "")},
		{"no exit code", hooks.RawResult{Stdout: "{}"}, false, func(ev classifyEvent) want {
			if ev.lifecycle {
				return want{status: hooks.StatusFailed, err: "hook process terminated without an exit code"}
			}
			return want{status: hooks.StatusFailed, err: "hook exited without a status code"}
		}},
		{"timed out", timedOut, false, func(classifyEvent) want {
			return want{status: hooks.StatusTimedOut, err: "hook timed out after 2s"}
		}},
		{"cancelled", cancelled, false, func(ev classifyEvent) want {
			if ev.sessionEnd {
				return want{status: hooks.StatusCancelled, err: "hook cancelled"}
			}
			return want{status: hooks.StatusCancelled, err: "Hook cancelled because the turn was interrupted"}
		}},
		{"spawn error", spawn, false, func(classifyEvent) want {
			return want{status: hooks.StatusFailed, err: "fork/exec /bin/sh: no such file or directory"}
		}},
		{"error wins over exit code", wrote, false, func(classifyEvent) want {
			return want{status: hooks.StatusFailed, err: "failed to write hook stdin: broken pipe"}
		}},
	}
	for _, ev := range classifyEvents {
		for _, r := range rows {
			t.Run(ev.name+"/"+r.name, func(t *testing.T) {
				got := parseAs(t, ev.name, r.raw, r.async)
				w := r.want(ev)
				if got.Status != w.status || got.Error != w.err {
					t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, w.status, w.err)
				}
				if got.Block != w.block || got.Reason != w.reason {
					t.Errorf("block, reason = %v, %q; want %v, %q", got.Block, got.Reason, w.block, w.reason)
				}
				if !reflect.DeepEqual(got.Contexts, w.context) {
					t.Errorf("contexts = %q; want %q", got.Contexts, w.context)
				}
				if !reflect.DeepEqual(got.Raw, r.raw) {
					t.Errorf("raw result not kept")
				}
			})
		}
	}
}

// TestClassify_AsyncPlainStopTextIsIgnored: an async Stop handler has no
// continuation to give, so its plain text is not an error.
func TestClassify_AsyncPlainStopTextIsIgnored(t *testing.T) {
	for _, event := range []string{"Stop", "SubagentStop"} {
		got := parseAs(t, event, exitRaw(0, "all done\n", ""), true)
		if got.Status != hooks.StatusSucceeded || got.Error != "" {
			t.Errorf("%s: status, error = %q, %q; want succeeded", event, got.Status, got.Error)
		}
	}
}

// TestOutput_StrictWireShapes checks that outputs are decoded as strictly as
// Codex decodes them: anything serde with deny_unknown_fields rejects is
// invalid JSON output here too.
func TestOutput_StrictWireShapes(t *testing.T) {
	tests := []struct {
		name, event, stdout string
		valid               bool
	}{
		{"universal fields at top level", "SessionStart", `{"continue":true,"stopReason":"x","suppressOutput":false,"systemMessage":"m"}`, true},
		{"key in another case", "SessionStart", `{"Continue":false}`, false},
		{"nested key in another case", "SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionStart","AdditionalContext":"x"}}`, false},
		{"duplicate key", "SessionStart", `{"systemMessage":"a","systemMessage":"b"}`, false},
		{"null bool", "SessionStart", `{"continue":null}`, false},
		{"string bool", "Stop", `{"suppressOutput":"yes"}`, false},
		{"null optional string", "PreToolUse", `{"stopReason":null,"reason":null}`, true},
		{"null hookSpecificOutput", "PreToolUse", `{"hookSpecificOutput":null}`, true},
		{"wrong string type", "SessionStart", `{"systemMessage":123}`, false},
		{"nested unknown field", "UserPromptSubmit", `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","extra":1}}`, false},
		{"missing hookEventName", "UserPromptSubmit", `{"hookSpecificOutput":{"additionalContext":"x"}}`, false},
		{"null hookEventName", "UserPromptSubmit", `{"hookSpecificOutput":{"hookEventName":null}}`, false},
		{"SessionEnd is not a wire event name", "SessionStart", `{"hookSpecificOutput":{"hookEventName":"SessionEnd"}}`, false},
		{"unknown event name", "SessionStart", `{"hookSpecificOutput":{"hookEventName":"Nope"}}`, false},
		{"event name of another event is accepted", "SessionStart", `{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"x"}}`, true},
		{"unknown decision value", "PostToolUse", `{"decision":"approve","reason":"x"}`, false},
		{"unknown permissionDecision", "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`, false},
		{"decision on a compact event", "PreCompact", `{"decision":"block","reason":"policy blocked compaction"}`, false},
		{"hookSpecificOutput on PostCompact", "PostCompact", `{"hookSpecificOutput":{"hookEventName":"PostCompact"}}`, false},
		{"hookSpecificOutput on Stop", "Stop", `{"hookSpecificOutput":{"hookEventName":"Stop"}}`, false},
		{"systemMessage nested in hookSpecificOutput", "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","systemMessage":"x"}}`, false},
		{"missing behavior", "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"message":"x"}}}`, false},
		{"unknown behavior", "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"ask"}}}`, false},
		{"description is unknown", "PreToolUse", `{"description":"my hook"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, tt.event, exitRaw(0, tt.stdout, ""), false)
			isInvalid := got.Status == hooks.StatusFailed && got.Error != "" && got.Error == invalidJSONText(tt.event)
			if isInvalid == tt.valid {
				t.Errorf("%s %s: status %q error %q; want valid=%v", tt.event, tt.stdout, got.Status, got.Error, tt.valid)
			}
		})
	}
}

func invalidJSONText(event string) string {
	for _, ev := range classifyEvents {
		if ev.name == event {
			return ev.invalidJSON
		}
	}
	return ""
}

// TestOutput_SystemMessageKeptWhenOutputBreaksARule: Codex shows the
// systemMessage of a well-formed output even when an event rule fails the
// handler, but never that of malformed JSON.
func TestOutput_SystemMessageKeptWhenOutputBreaksARule(t *testing.T) {
	got := parseAs(t, "PreToolUse", exitRaw(0, `{"systemMessage":"heads up","decision":"approve"}`, ""), false)
	if got.Status != hooks.StatusFailed || got.SystemMessage != "heads up" {
		t.Errorf("status %q message %q; want failed with the message", got.Status, got.SystemMessage)
	}
	got = parseAs(t, "PreToolUse", exitRaw(0, `{"systemMessage":"heads up","bogus":1}`, ""), false)
	if got.SystemMessage != "" {
		t.Errorf("malformed output kept its message %q", got.SystemMessage)
	}
}

// TestOutput_SystemMessagesInConfigOrder: messages are attributed to their
// hook and listed in configuration order, for every event but SessionEnd.
func TestOutput_SystemMessagesInConfigOrder(t *testing.T) {
	for _, ev := range classifyEvents {
		if ev.sessionEnd {
			continue
		}
		a := parseAs(t, ev.name, exitRaw(0, `{"systemMessage":"first"}`, ""), false)
		b := parseAs(t, ev.name, exitRaw(0, `{"systemMessage":"second"}`, ""), false)
		a.Finished, b.Finished = 2, 1
		res := combineAs(t, ev.name, a, b)
		want := []hooks.Message{{Hook: "h0", Text: "first"}, {Hook: "h1", Text: "second"}}
		if !reflect.DeepEqual(res.SystemMessages, want) {
			t.Errorf("%s: messages = %+v; want %+v", ev.name, res.SystemMessages, want)
		}
	}
}

// TestOutput_CombineAsyncAppliesOnlyContextAndMessages: async outcomes never
// decide, stop or rewrite, even if their Outcome says so.
func TestOutput_CombineAsyncAppliesOnlyContextAndMessages(t *testing.T) {
	outs := []hooks.Outcome{
		{Hook: &hooks.Hook{Key: "a"}, Status: hooks.StatusBlocked, Block: true, Reason: "no", Stop: true, Contexts: []string{"ctx a"}},
		{Hook: &hooks.Hook{Key: "b"}, SystemMessage: "msg b", Permission: hooks.DecisionDeny, UpdatedInput: []byte(`{}`), Contexts: []string{"ctx b1", "ctx b2"}},
	}
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	hooks.CombineAsync(res, outs)
	want := &hooks.Result{Decision: hooks.DecisionNone, Continue: true,
		AdditionalContext: []hooks.ContextEntry{{Hook: "a", Text: "ctx a"}, {Hook: "b", Text: "ctx b1"}, {Hook: "b", Text: "ctx b2"}},
		SystemMessages:    []hooks.Message{{Hook: "b", Text: "msg b"}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("result = %+v; want %+v", res, want)
	}
}

// TestOutput_AsyncOutcomesCarryNoControl: an async handler's parsed outcome
// has no control effect and is not reported as blocking.
func TestOutput_AsyncOutcomesCarryNoControl(t *testing.T) {
	tests := []struct{ event, stdout string }{
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"ctx"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"ctx"}}`},
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}`},
		{"PostToolUse", `{"continue":false,"reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}`},
		{"UserPromptSubmit", `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx"}}`},
		{"SessionStart", `{"continue":false,"stopReason":"s","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}`},
		{"Stop", `{"decision":"block","reason":"again"}`},
		{"PreCompact", `{"continue":false}`},
	}
	for _, tt := range tests {
		got := parseAs(t, tt.event, exitRaw(0, tt.stdout, ""), true)
		if got.Status != hooks.StatusSucceeded || got.Block || got.Reason != "" || got.Stop || got.StopReason != "" ||
			got.Feedback != "" || got.UpdatedInput != nil || got.Permission != "" {
			t.Errorf("%s %s: async outcome %+v has control effects", tt.event, tt.stdout, got)
		}
		if tt.event != "PermissionRequest" && tt.event != "Stop" && tt.event != "PreCompact" &&
			!reflect.DeepEqual(got.Contexts, []string{"ctx"}) {
			t.Errorf("%s: contexts = %q; want [ctx]", tt.event, got.Contexts)
		}
	}
}
