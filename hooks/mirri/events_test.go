package mirri

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/proc"
)

func exited(code int, stdout, stderr string) hooks.RawResult {
	return hooks.RawResult{ExitCode: &code, Stdout: stdout, Stderr: stderr, Timeout: 30 * time.Second}
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
		raw         hooks.RawResult
		status      hooks.Status
		block       bool
		reason      string
		contexts    string
		updated     string
		errText     string
	}{
		{name: "exit 0 empty allows", event: "PreToolUse", raw: exited(0, "", ""), status: hooks.StatusSucceeded},
		{name: "exit 0 plain text is no output", event: "UserPromptSubmit", raw: exited(0, "hello", ""), status: hooks.StatusSucceeded},
		{name: "exit 2 blocks with stderr", event: "PreToolUse", raw: exited(2, "", "  dangerous\n"), status: hooks.StatusBlocked, block: true, reason: "dangerous"},
		{name: "exit 2 without stderr still blocks", event: "Stop", raw: exited(2, "", ""), status: hooks.StatusBlocked, block: true, reason: "Stop blocked by a hook (exit code 2, nothing on stderr)"},
		{name: "exit 2 ignores stdout JSON", event: "UserPromptSubmit", raw: exited(2, message, "no"), status: hooks.StatusBlocked, block: true, reason: "no"},
		{name: "other exit fails open", event: "PreToolUse", raw: exited(1, deny, ""), status: hooks.StatusFailed, errText: "hook exited with code 1"},
		{name: "exit 2 cannot block RewriteToolInput", event: "RewriteToolInput", raw: exited(2, "", "x"), status: hooks.StatusFailed, errText: "only UserPromptSubmit, PreToolUse and Stop can be blocked"},
		{name: "exit 2 on an observing event fails", event: "PostToolUse", raw: exited(2, "", "x"), status: hooks.StatusFailed, errText: "hook exited with code 2"},
		{name: "timeout", event: "PreToolUse", raw: hooks.RawResult{TimedOut: true, Timeout: 5 * time.Second}, status: hooks.StatusTimedOut, errText: "hook timed out after 5s"},
		{name: "killed by a signal", event: "Stop", raw: hooks.RawResult{Timeout: time.Second}, status: hooks.StatusFailed, errText: hooks.MsgNoStatus},
		{name: "spawn error", event: "Stop", raw: hooks.RawResult{Err: errors.New("no shell"), Timeout: time.Second}, status: hooks.StatusFailed, errText: "no shell"},
		{name: "broken JSON fails", event: "PreToolUse", raw: exited(0, `{"hookSpecificOutput":`, ""), status: hooks.StatusFailed, errText: "invalid JSON"},
		{name: "JSON array fails", event: "Stop", raw: exited(0, `[1]`, ""), status: hooks.StatusFailed, errText: "invalid JSON"},
		{name: "JSON deny", event: "PreToolUse", raw: exited(0, deny, ""), status: hooks.StatusBlocked, block: true, reason: "use rg"},
		{name: "JSON deny without reason", event: "UserPromptSubmit", raw: exited(0, denyNoWhy, ""), status: hooks.StatusBlocked, block: true, reason: "UserPromptSubmit denied by a hook (no permissionDecisionReason)"},
		{name: "only deny decides", event: "PreToolUse", raw: exited(0, allow, ""), status: hooks.StatusSucceeded},
		{name: "deny cannot block RewriteToolInput", event: "RewriteToolInput", raw: exited(0, deny, ""), status: hooks.StatusSucceeded},
		{name: "message is context", event: "UserPromptSubmit", raw: exited(0, message, ""), status: hooks.StatusSucceeded, contexts: "branch: main"},
		{name: "top-level message is the fallback", event: "UserPromptSubmit", raw: exited(0, topMessage, ""), status: hooks.StatusSucceeded, contexts: "top"},
		{name: "hookSpecificOutput.message first", event: "UserPromptSubmit", raw: exited(0, both, ""), status: hooks.StatusSucceeded, contexts: "specific"},
		{name: "a denying hook's message is dropped", event: "UserPromptSubmit", raw: exited(0, denyMsg, ""), status: hooks.StatusBlocked, block: true, reason: "no"},
		{name: "message only on UserPromptSubmit", event: "PreToolUse", raw: exited(0, message, ""), status: hooks.StatusSucceeded},
		{name: "additionalContext has no effect", event: "UserPromptSubmit", raw: exited(0, ctxOnly, ""), status: hooks.StatusSucceeded},
		{name: "wrong types are ignored", event: "UserPromptSubmit", raw: exited(0, wrongTypes, ""), status: hooks.StatusSucceeded},
		{name: "updatedInput on RewriteToolInput", event: "RewriteToolInput", raw: exited(0, rewrite, ""), status: hooks.StatusSucceeded, updated: `{"command":"rg x"}`},
		{name: "updatedInput read on PreToolUse", event: "PreToolUse", raw: exited(0, rewrite, ""), status: hooks.StatusSucceeded, updated: `{"command":"rg x"}`},
		{name: "updatedInput not an object is ignored", event: "RewriteToolInput", raw: exited(0, badRewrite, ""), status: hooks.StatusSucceeded},
		{name: "updatedInput not read on Stop", event: "Stop", raw: exited(0, rewrite, ""), status: hooks.StatusSucceeded},
		{name: "observing events never read stdout", event: "Notification", raw: exited(0, `{broken`, ""), status: hooks.StatusSucceeded},
		{name: "observing events ignore a deny", event: "PostToolUse", raw: exited(0, deny, ""), status: hooks.StatusSucceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Profile.Event(tc.event).Parse(tc.raw, false)
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
func mirriOutcome(event, key string, failClosed bool, raw hooks.RawResult) hooks.Outcome {
	o := Profile.Event(event).Parse(raw, false)
	o.Hook = &hooks.Hook{Key: key, Event: event, Handler: hooks.Handler{Type: hooks.TypeCommand, FailClosed: failClosed}}
	return o
}

func TestMirriCombine_BlocksRewritesAndContext(t *testing.T) {
	deny := func(why string) hooks.RawResult {
		return exited(0, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"`+why+`"}}`, "")
	}
	rewrite := func(cmd string) hooks.RawResult {
		return exited(0, `{"hookSpecificOutput":{"updatedInput":{"command":"`+cmd+`"}}}`, "")
	}
	message := func(m string) hooks.RawResult { return exited(0, `{"message":"`+m+`"}`, "") }
	timedOut := hooks.RawResult{TimedOut: true, Timeout: 2 * time.Second}
	for _, tc := range []struct {
		name, event  string
		outs         []hooks.Outcome
		decision     string
		reason       string
		continuation string
		contexts     string
		updated      string
	}{
		{name: "nothing", event: "PreToolUse", outs: []hooks.Outcome{mirriOutcome("PreToolUse", "a", false, exited(0, "", ""))}, decision: hooks.DecisionNone},
		{name: "crash fails open", event: "PreToolUse", outs: []hooks.Outcome{mirriOutcome("PreToolUse", "a", false, exited(1, "", ""))}, decision: hooks.DecisionNone},
		{name: "timeout fails open", event: "Stop", outs: []hooks.Outcome{mirriOutcome("Stop", "a", false, timedOut)}, decision: hooks.DecisionNone},
		{name: "failClosed crash denies the call", event: "PreToolUse",
			outs:     []hooks.Outcome{mirriOutcome("PreToolUse", "k", true, exited(1, "", ""))},
			decision: hooks.DecisionDeny, reason: "failClosed hook k failed: hook exited with code 1"},
		{name: "failClosed hook that could not start for want of resources denies the call", event: "PreToolUse",
			outs: []hooks.Outcome{mirriOutcome("PreToolUse", "k", true, hooks.RawResult{Timeout: time.Second,
				Err: fmt.Errorf("hook could not start: hookd is %w (fork/exec /bin/sh: too many open files)", proc.ErrResources)})},
			decision: hooks.DecisionDeny, reason: "failClosed hook k failed: hook could not start: hookd is out of resources (fork/exec /bin/sh: too many open files)"},
		{name: "failClosed timeout blocks the prompt", event: "UserPromptSubmit",
			outs:     []hooks.Outcome{mirriOutcome("UserPromptSubmit", "k", true, timedOut)},
			decision: hooks.DecisionBlock, reason: "failClosed hook k failed: hook timed out after 2s"},
		{name: "failClosed invalid JSON continues Stop", event: "Stop",
			outs:     []hooks.Outcome{mirriOutcome("Stop", "k", true, exited(0, "{", ""))},
			decision: hooks.DecisionBlock, reason: "failClosed hook k failed: hook returned invalid JSON output", continuation: "failClosed hook k failed: hook returned invalid JSON output"},
		{name: "failClosed hook that answers does not block", event: "PreToolUse",
			outs: []hooks.Outcome{mirriOutcome("PreToolUse", "k", true, exited(0, "ok", ""))}, decision: hooks.DecisionNone},
		{name: "deny reasons join in configuration order", event: "PreToolUse",
			outs:     []hooks.Outcome{mirriOutcome("PreToolUse", "a", false, deny("first")), mirriOutcome("PreToolUse", "b", false, exited(2, "", "second"))},
			decision: hooks.DecisionDeny, reason: "first\n\nsecond"},
		{name: "a deny drops every rewrite", event: "PreToolUse",
			outs:     []hooks.Outcome{mirriOutcome("PreToolUse", "a", false, rewrite("x")), mirriOutcome("PreToolUse", "b", false, deny("no"))},
			decision: hooks.DecisionDeny, reason: "no"},
		{name: "first rewrite in configuration order wins", event: "RewriteToolInput",
			outs: []hooks.Outcome{mirriOutcome("RewriteToolInput", "a", false, exited(0, "", "")), mirriOutcome("RewriteToolInput", "b", false, rewrite("one")),
				mirriOutcome("RewriteToolInput", "c", false, rewrite("two"))},
			decision: hooks.DecisionAllow, updated: `{"command":"one"}`},
		{name: "a failed rewriter keeps the original", event: "RewriteToolInput",
			outs:     []hooks.Outcome{mirriOutcome("RewriteToolInput", "a", false, exited(1, `{"hookSpecificOutput":{"updatedInput":{"command":"x"}}}`, ""))},
			decision: hooks.DecisionNone},
		{name: "messages in configuration order", event: "UserPromptSubmit",
			outs:     []hooks.Outcome{mirriOutcome("UserPromptSubmit", "a", false, message("one")), mirriOutcome("UserPromptSubmit", "b", false, message("two"))},
			decision: hooks.DecisionNone, contexts: "one|two"},
		{name: "a blocked prompt gets no context", event: "UserPromptSubmit",
			outs:     []hooks.Outcome{mirriOutcome("UserPromptSubmit", "a", false, message("one")), mirriOutcome("UserPromptSubmit", "b", false, deny("stop"))},
			decision: hooks.DecisionBlock, reason: "stop"},
		{name: "Stop deny is a continuation", event: "Stop",
			outs:     []hooks.Outcome{mirriOutcome("Stop", "a", false, deny("run the tests"))},
			decision: hooks.DecisionBlock, reason: "run the tests", continuation: "run the tests"},
		{name: "observing events never decide", event: "PermissionRequest",
			outs:     []hooks.Outcome{mirriOutcome("PermissionRequest", "a", true, exited(2, deny("x").Stdout, "no"))},
			decision: hooks.DecisionNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
			Profile.Event(tc.event).Combine(res, tc.outs)
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
	if len(Profile.Events) != 19 || len(want) != 19 {
		t.Fatalf("%d events", len(Profile.Events))
	}
	for _, ev := range Profile.Events {
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
