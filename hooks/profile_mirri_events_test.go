package hooks

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func exited(code int, stdout, stderr string) RawResult {
	return RawResult{ExitCode: &code, Stdout: stdout, Stderr: stderr, Timeout: 30 * time.Second}
}

// The spec's exit-code table and output fields, read per event kind.
func TestMirriParse_ExitCodesAndOutputFields(t *testing.T) {
	const (
		deny       = `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"use rg"}}`
		denyNoWhy  = `{"hookSpecificOutput":{"permissionDecision":"deny"}}`
		allow      = `{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"fine"}}`
		message    = `{"hookSpecificOutput":{"message":"branch: main"}}`
		topMessage = `{"message":"top"}`
		both       = `{"message":"top","hookSpecificOutput":{"message":"specific"}}`
		denyMsg    = `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no","message":"lost"}}`
		rewrite    = `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"rg x"}}}`
		badRewrite = `{"hookSpecificOutput":{"updatedInput":"rg x"}}`
		ctxOnly    = `{"hookSpecificOutput":{"additionalContext":"reserved"}}`
		wrongTypes = `{"hookSpecificOutput":{"permissionDecision":true,"message":5},"extra":1}`
	)
	for _, tc := range []struct {
		name, event string
		raw         RawResult
		status      Status
		block       bool
		reason      string
		contexts    string
		updated     string
		errText     string
	}{
		{name: "exit 0 empty allows", event: "PreToolUse", raw: exited(0, "", ""), status: StatusSucceeded},
		{name: "exit 0 plain text is no output", event: "UserPromptSubmit", raw: exited(0, "hello", ""), status: StatusSucceeded},
		{name: "exit 2 blocks with stderr", event: "PreToolUse", raw: exited(2, "", "  dangerous\n"), status: StatusBlocked, block: true, reason: "dangerous"},
		{name: "exit 2 without stderr still blocks", event: "Stop", raw: exited(2, "", ""), status: StatusBlocked, block: true, reason: "Stop blocked by a hook (exit code 2, nothing on stderr)"},
		{name: "exit 2 ignores stdout JSON", event: "UserPromptSubmit", raw: exited(2, message, "no"), status: StatusBlocked, block: true, reason: "no"},
		{name: "other exit fails open", event: "PreToolUse", raw: exited(1, deny, ""), status: StatusFailed, errText: "hook exited with code 1"},
		{name: "exit 2 cannot block RewriteToolInput", event: "RewriteToolInput", raw: exited(2, "", "x"), status: StatusFailed, errText: "only UserPromptSubmit, PreToolUse and Stop can be blocked"},
		{name: "exit 2 on an observing event fails", event: "PostToolUse", raw: exited(2, "", "x"), status: StatusFailed, errText: "hook exited with code 2"},
		{name: "timeout", event: "PreToolUse", raw: RawResult{TimedOut: true, Timeout: 5 * time.Second}, status: StatusTimedOut, errText: "hook timed out after 5s"},
		{name: "killed by a signal", event: "Stop", raw: RawResult{Timeout: time.Second}, status: StatusFailed, errText: msgNoStatus},
		{name: "spawn error", event: "Stop", raw: RawResult{Err: errors.New("no shell"), Timeout: time.Second}, status: StatusFailed, errText: "no shell"},
		{name: "broken JSON fails", event: "PreToolUse", raw: exited(0, `{"hookSpecificOutput":`, ""), status: StatusFailed, errText: "invalid JSON"},
		{name: "JSON array fails", event: "Stop", raw: exited(0, `[1]`, ""), status: StatusFailed, errText: "invalid JSON"},
		{name: "JSON deny", event: "PreToolUse", raw: exited(0, deny, ""), status: StatusBlocked, block: true, reason: "use rg"},
		{name: "JSON deny without reason", event: "UserPromptSubmit", raw: exited(0, denyNoWhy, ""), status: StatusBlocked, block: true, reason: "UserPromptSubmit denied by a hook (no permissionDecisionReason)"},
		{name: "only deny decides", event: "PreToolUse", raw: exited(0, allow, ""), status: StatusSucceeded},
		{name: "deny cannot block RewriteToolInput", event: "RewriteToolInput", raw: exited(0, deny, ""), status: StatusSucceeded},
		{name: "message is context", event: "UserPromptSubmit", raw: exited(0, message, ""), status: StatusSucceeded, contexts: "branch: main"},
		{name: "top-level message is the fallback", event: "UserPromptSubmit", raw: exited(0, topMessage, ""), status: StatusSucceeded, contexts: "top"},
		{name: "hookSpecificOutput.message first", event: "UserPromptSubmit", raw: exited(0, both, ""), status: StatusSucceeded, contexts: "specific"},
		{name: "a denying hook's message is dropped", event: "UserPromptSubmit", raw: exited(0, denyMsg, ""), status: StatusBlocked, block: true, reason: "no"},
		{name: "message only on UserPromptSubmit", event: "PreToolUse", raw: exited(0, message, ""), status: StatusSucceeded},
		{name: "additionalContext has no effect", event: "UserPromptSubmit", raw: exited(0, ctxOnly, ""), status: StatusSucceeded},
		{name: "wrong types are ignored", event: "UserPromptSubmit", raw: exited(0, wrongTypes, ""), status: StatusSucceeded},
		{name: "updatedInput on RewriteToolInput", event: "RewriteToolInput", raw: exited(0, rewrite, ""), status: StatusSucceeded, updated: `{"command":"rg x"}`},
		{name: "updatedInput read on PreToolUse", event: "PreToolUse", raw: exited(0, rewrite, ""), status: StatusSucceeded, updated: `{"command":"rg x"}`},
		{name: "updatedInput not an object is ignored", event: "RewriteToolInput", raw: exited(0, badRewrite, ""), status: StatusSucceeded},
		{name: "updatedInput not read on Stop", event: "Stop", raw: exited(0, rewrite, ""), status: StatusSucceeded},
		{name: "observing events never read stdout", event: "Notification", raw: exited(0, `{broken`, ""), status: StatusSucceeded},
		{name: "observing events ignore a deny", event: "PostToolUse", raw: exited(0, deny, ""), status: StatusSucceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Mirri.Event(tc.event).Parse(tc.raw, false)
			if o.Status != tc.status || o.Block != tc.block || o.Reason != tc.reason {
				t.Errorf("status %s block %v reason %q; want %s %v %q", o.Status, o.Block, o.Reason, tc.status, tc.block, tc.reason)
			}
			if got := strings.Join(o.Contexts, "|"); got != tc.contexts {
				t.Errorf("contexts %q, want %q", got, tc.contexts)
			}
			if string(o.UpdatedInput) != tc.updated {
				t.Errorf("updatedInput %s, want %s", o.UpdatedInput, tc.updated)
			}
			if !strings.Contains(o.Error, tc.errText) || (tc.errText == "" && o.Error != "") {
				t.Errorf("error %q, want %q", o.Error, tc.errText)
			}
		})
	}
}

func TestMirriInvalidJSON(t *testing.T) {
	for in, want := range map[string]bool{
		"": false, "  \n": false, "plain text": false, "42": false, `"s"`: false,
		`{}`: false, ` {"a":1} `: false, `{"a":`: true, `[]`: true, `[{"a":1}]`: true, `{"a":1}{"b":2}`: true,
	} {
		if got := mirriInvalidJSON(in); got != want {
			t.Errorf("mirriInvalidJSON(%q) = %v, want %v", in, got, want)
		}
	}
}

// outcome builds a parsed outcome of a hook with key and failClosed.
func mirriOutcome(event, key string, failClosed bool, raw RawResult) Outcome {
	o := Mirri.Event(event).Parse(raw, false)
	o.Hook = &Hook{Key: key, Event: event, Handler: Handler{Type: TypeCommand, FailClosed: failClosed}}
	return o
}

func TestMirriCombine_BlocksRewritesAndContext(t *testing.T) {
	deny := func(why string) RawResult {
		return exited(0, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"`+why+`"}}`, "")
	}
	rewrite := func(cmd string) RawResult {
		return exited(0, `{"hookSpecificOutput":{"updatedInput":{"command":"`+cmd+`"}}}`, "")
	}
	message := func(m string) RawResult { return exited(0, `{"message":"`+m+`"}`, "") }
	timedOut := RawResult{TimedOut: true, Timeout: 2 * time.Second}
	for _, tc := range []struct {
		name, event  string
		outs         []Outcome
		decision     string
		reason       string
		continuation string
		contexts     string
		updated      string
	}{
		{name: "nothing", event: "PreToolUse", outs: []Outcome{mirriOutcome("PreToolUse", "a", false, exited(0, "", ""))}, decision: DecisionNone},
		{name: "crash fails open", event: "PreToolUse", outs: []Outcome{mirriOutcome("PreToolUse", "a", false, exited(1, "", ""))}, decision: DecisionNone},
		{name: "timeout fails open", event: "Stop", outs: []Outcome{mirriOutcome("Stop", "a", false, timedOut)}, decision: DecisionNone},
		{name: "failClosed crash denies the call", event: "PreToolUse",
			outs:     []Outcome{mirriOutcome("PreToolUse", "k", true, exited(1, "", ""))},
			decision: DecisionDeny, reason: "failClosed hook k failed: hook exited with code 1"},
		{name: "failClosed timeout blocks the prompt", event: "UserPromptSubmit",
			outs:     []Outcome{mirriOutcome("UserPromptSubmit", "k", true, timedOut)},
			decision: DecisionBlock, reason: "failClosed hook k failed: hook timed out after 2s"},
		{name: "failClosed invalid JSON continues Stop", event: "Stop",
			outs:     []Outcome{mirriOutcome("Stop", "k", true, exited(0, "{", ""))},
			decision: DecisionBlock, reason: "failClosed hook k failed: hook returned invalid JSON output", continuation: "failClosed hook k failed: hook returned invalid JSON output"},
		{name: "failClosed hook that answers does not block", event: "PreToolUse",
			outs: []Outcome{mirriOutcome("PreToolUse", "k", true, exited(0, "ok", ""))}, decision: DecisionNone},
		{name: "deny reasons join in configuration order", event: "PreToolUse",
			outs:     []Outcome{mirriOutcome("PreToolUse", "a", false, deny("first")), mirriOutcome("PreToolUse", "b", false, exited(2, "", "second"))},
			decision: DecisionDeny, reason: "first\n\nsecond"},
		{name: "a deny drops every rewrite", event: "PreToolUse",
			outs:     []Outcome{mirriOutcome("PreToolUse", "a", false, rewrite("x")), mirriOutcome("PreToolUse", "b", false, deny("no"))},
			decision: DecisionDeny, reason: "no"},
		{name: "first rewrite in configuration order wins", event: "RewriteToolInput",
			outs: []Outcome{mirriOutcome("RewriteToolInput", "a", false, exited(0, "", "")), mirriOutcome("RewriteToolInput", "b", false, rewrite("one")),
				mirriOutcome("RewriteToolInput", "c", false, rewrite("two"))},
			decision: DecisionAllow, updated: `{"command":"one"}`},
		{name: "a failed rewriter keeps the original", event: "RewriteToolInput",
			outs:     []Outcome{mirriOutcome("RewriteToolInput", "a", false, exited(1, `{"hookSpecificOutput":{"updatedInput":{"command":"x"}}}`, ""))},
			decision: DecisionNone},
		{name: "messages in configuration order", event: "UserPromptSubmit",
			outs:     []Outcome{mirriOutcome("UserPromptSubmit", "a", false, message("one")), mirriOutcome("UserPromptSubmit", "b", false, message("two"))},
			decision: DecisionNone, contexts: "one|two"},
		{name: "a blocked prompt gets no context", event: "UserPromptSubmit",
			outs:     []Outcome{mirriOutcome("UserPromptSubmit", "a", false, message("one")), mirriOutcome("UserPromptSubmit", "b", false, deny("stop"))},
			decision: DecisionBlock, reason: "stop"},
		{name: "Stop deny is a continuation", event: "Stop",
			outs:     []Outcome{mirriOutcome("Stop", "a", false, deny("run the tests"))},
			decision: DecisionBlock, reason: "run the tests", continuation: "run the tests"},
		{name: "observing events never decide", event: "PermissionRequest",
			outs:     []Outcome{mirriOutcome("PermissionRequest", "a", true, exited(2, deny("x").Stdout, "no"))},
			decision: DecisionNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &Result{Decision: DecisionNone, Continue: true}
			Mirri.Event(tc.event).Combine(res, tc.outs)
			var ctx []string
			for _, c := range res.AdditionalContext {
				ctx = append(ctx, c.Text)
			}
			if res.Decision != tc.decision || res.Reason != tc.reason || res.Continuation != tc.continuation ||
				strings.Join(ctx, "|") != tc.contexts || string(res.UpdatedInput) != tc.updated {
				t.Fatalf("got decision %s reason %q continuation %q contexts %q updated %s",
					res.Decision, res.Reason, res.Continuation, strings.Join(ctx, "|"), res.UpdatedInput)
			}
		})
	}
}

// Every event of the spec's table, with its payload fields after the base
// ones and its match target.
func TestMirriEvents_TheSpecsTable(t *testing.T) {
	want := map[string]string{
		"UserPromptSubmit": "prompt", "PreToolUse": "tool_name", "Stop": "", "PostToolUse": "tool_name",
		"PostToolUseFailure": "tool_name", "PermissionRequest": "tool_name", "PermissionResult": "tool_name",
		"SessionStart": "source", "SessionEnd": "reason", "SubagentStart": "agent_name", "SubagentStop": "agent_name",
		"StopFailure": "error_type", "Interrupt": "", "PreCompact": "trigger", "PostCompact": "trigger",
		"Notification": "notification_type", "RewriteToolInput": "tool_name", "PreLlmRequest": "", "PostLlmRequest": "",
	}
	if len(Mirri.Events) != 19 || len(want) != 19 {
		t.Fatalf("%d events", len(Mirri.Events))
	}
	for _, ev := range Mirri.Events {
		target, ok := want[ev.Name]
		if !ok || ev.MatchField != target {
			t.Errorf("%s: target %q, want %q (known %v)", ev.Name, ev.MatchField, target, ok)
		}
		if strings.Join(ev.InputFields[:3], ",") != "hook_event_name,session_id,cwd" {
			t.Errorf("%s: input starts %v", ev.Name, ev.InputFields[:3])
		}
		if ev.DefaultTimeout != 30 || ev.MaxTimeout != 600 {
			t.Errorf("%s: timeouts %d/%d", ev.Name, ev.DefaultTimeout, ev.MaxTimeout)
		}
		blocking := ev.Name == "UserPromptSubmit" || ev.Name == "PreToolUse" || ev.Name == "Stop"
		if ev.Blocking != blocking {
			t.Errorf("%s: blocking %v", ev.Name, ev.Blocking)
		}
	}
}
