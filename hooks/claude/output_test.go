package claude

import (
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

func claudeRow(t *testing.T, name string) *claudeEvent {
	t.Helper()
	for i := range claudeEvents {
		if claudeEvents[i].name == name {
			return &claudeEvents[i]
		}
	}
	t.Fatalf("no claude event %s", name)
	return nil
}

// Each row is one rule of reference/claude-hooks.md A.6 (and takeaway 3).
func TestClaudeParse_Rules(t *testing.T) {
	for _, tc := range []struct {
		rule           string
		event          string
		code           int
		stdout, stderr string
		async          bool

		status     hooks.Status
		reason     string
		permission string
		contexts   []string
		message    string
		output     string // JSON of Outcome.Output, "" for none
		stop       bool
		errHas     string
		updated    string
	}{
		{rule: "permissionDecision deny blocks with its reason", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`,
			status: hooks.StatusBlocked, reason: "no", permission: "deny"},
		{rule: "deny without a reason is accepted", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
			status: hooks.StatusBlocked, reason: "Blocked by hook", permission: "deny"},
		{rule: "ask keeps its reason for the user", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"look first"}}`,
			status: hooks.StatusSucceeded, reason: "look first", permission: "ask"},
		{rule: "defer is a decision", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}`,
			status: hooks.StatusSucceeded, permission: "defer"},
		{rule: "allow with updatedInput", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}`,
			status: hooks.StatusSucceeded, permission: "allow", updated: `{"command":"ls"}`},
		{rule: "updatedInput without a decision is kept", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}`,
			status: hooks.StatusSucceeded, updated: `{"command":"ls"}`},
		{rule: "unknown fields anywhere are ignored", event: "PreToolUse",
			stdout: `{"metrics":{"n":1},"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","extra":true},"systemMessage":"hi"}`,
			status: hooks.StatusSucceeded, permission: "allow", message: "hi"},
		{rule: "legacy approve is allow", event: "PreToolUse", stdout: `{"decision":"approve"}`,
			status: hooks.StatusSucceeded, permission: "allow"},
		{rule: "legacy block is deny", event: "PreToolUse", stdout: `{"decision":"block","reason":"old style"}`,
			status: hooks.StatusBlocked, permission: "deny", reason: "old style"},
		{rule: "an unknown permissionDecision fails the handler", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"maybe"}}`,
			status: hooks.StatusFailed, errHas: "hook returned invalid PreToolUse JSON output: hookSpecificOutput.permissionDecision must be one of allow, deny, ask, defer"},
		{rule: "a wrongly typed field fails the handler and nothing applies", event: "PreToolUse",
			stdout: `{"systemMessage":"lost","continue":"no"}`,
			status: hooks.StatusFailed, errHas: "continue must be true or false"},
		{rule: "hookSpecificOutput for another event fails", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"x"}}`,
			status: hooks.StatusFailed, errHas: `hookSpecificOutput.hookEventName is "PostToolUse", not "PreToolUse"`},
		{rule: "hookSpecificOutput without hookEventName fails", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`,
			status: hooks.StatusFailed, errHas: "hookEventName is missing"},
		{rule: "invalid JSON is plain text, not a failure", event: "PreToolUse", stdout: `{"hookSpecificOutput": nope`,
			status: hooks.StatusSucceeded},
		{rule: "exit 2 blocks with stderr", event: "PreToolUse", code: 2, stderr: "  refused \n",
			status: hooks.StatusBlocked, permission: "deny", reason: "refused"},
		{rule: "exit 2 blocks even when the JSON allows, with stderr", event: "PreToolUse", code: 2,
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine by me"}}`, stderr: "from stderr",
			status: hooks.StatusBlocked, permission: "deny", reason: "from stderr"},
		{rule: "exit 2 with a JSON deny: the JSON reason wins", event: "PreToolUse", code: 2,
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"from json"}}`, stderr: "from stderr",
			status: hooks.StatusBlocked, permission: "deny", reason: "from json"},
		{rule: "exit 2 with a JSON block without reason: stderr", event: "UserPromptSubmit", code: 2,
			stdout: `{"decision":"block"}`, stderr: "from stderr",
			status: hooks.StatusBlocked, reason: "from stderr"},
		{rule: "exit 2 with invalid JSON still blocks with stderr", event: "PreToolUse", code: 2,
			stdout: `{"hookSpecificOutput": 3}`, stderr: "from stderr",
			status: hooks.StatusBlocked, permission: "deny", reason: "from stderr"},
		{rule: "exit 2 with nothing to say still blocks", event: "PreToolUse", code: 2,
			status: hooks.StatusBlocked, permission: "deny", reason: "No stderr output"},
		{rule: "JSON is read on exit 1 and still decides", event: "PreToolUse", code: 1,
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json on 1"}}`, stderr: "oops\nmore",
			status: hooks.StatusBlocked, permission: "deny", reason: "json on 1", errHas: "hook exited with code 1: oops"},
		{rule: "exit 1 does not block", event: "PreToolUse", code: 1, stderr: "broken\n",
			status: hooks.StatusFailed, errHas: "hook exited with code 1: broken"},
		{rule: "continue:false stops", event: "PreToolUse", stdout: `{"continue":false,"stopReason":"enough"}`,
			status: hooks.StatusSucceeded, stop: true, reason: ""},
		{rule: "additionalContext on PreToolUse", event: "PreToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`,
			status: hooks.StatusSucceeded, contexts: []string{"note"}},

		{rule: "plain stdout is context on UserPromptSubmit", event: "UserPromptSubmit", stdout: "  be brief \n",
			status: hooks.StatusSucceeded, contexts: []string{"be brief"}},
		{rule: "stdout starting with [ is plain text", event: "UserPromptSubmit", stdout: `[1, 2]`,
			status: hooks.StatusSucceeded, contexts: []string{"[1, 2]"}},
		{rule: "invalid JSON starting with { is plain text", event: "UserPromptSubmit", stdout: `{not json`,
			status: hooks.StatusSucceeded, contexts: []string{"{not json"}},
		{rule: "plain stdout on a non-zero exit is not context", event: "UserPromptSubmit", code: 1, stdout: "text",
			status: hooks.StatusFailed, errHas: "hook exited with code 1"},
		{rule: "decision block on UserPromptSubmit", event: "UserPromptSubmit", stdout: `{"decision":"block","reason":"secret in prompt"}`,
			status: hooks.StatusBlocked, reason: "secret in prompt"},
		{rule: "block without a reason gets a default", event: "UserPromptSubmit", stdout: `{"decision":"block"}`,
			status: hooks.StatusBlocked, reason: "Blocked by hook"},
		{rule: "sessionTitle is passed to the host", event: "UserPromptSubmit",
			stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","sessionTitle":"t","suppressOriginalPrompt":true}}`,
			status: hooks.StatusSucceeded, output: `{"sessionTitle":"t","suppressOriginalPrompt":true}`},

		{rule: "plain stdout on Stop is ignored, not a failure", event: "Stop", stdout: "done",
			status: hooks.StatusSucceeded},
		{rule: "Stop block needs a reason", event: "Stop", stdout: `{"decision":"block","systemMessage":"lost"}`,
			status: hooks.StatusFailed, errHas: "decision:block needs a non-empty reason"},
		{rule: "Stop block with a reason", event: "Stop", stdout: `{"decision":"block","reason":"keep going","systemMessage":"looping"}`,
			status: hooks.StatusBlocked, reason: "keep going", message: "looping"},
		{rule: "Stop exit 2 blocks with stderr", event: "Stop", code: 2, stderr: "tests fail",
			status: hooks.StatusBlocked, reason: "tests fail"},
		{rule: "decision approve is ignored outside PreToolUse", event: "Stop", stdout: `{"decision":"approve"}`,
			status: hooks.StatusSucceeded},

		{rule: "exit 2 on a non-blocking event is an error", event: "Notification", code: 2, stderr: "offline",
			status: hooks.StatusFailed, errHas: "hook exited with code 2: offline"},
		{rule: "PermissionRequest ignores exit 2", event: "PermissionRequest", code: 2, stderr: "no",
			status: hooks.StatusFailed, errHas: "hook exited with code 2"},
		{rule: "PermissionRequest deny through JSON", event: "PermissionRequest",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not here","interrupt":true}}}`,
			status: hooks.StatusBlocked, permission: "deny", reason: "not here", output: `{"interrupt":true}`},
		{rule: "PermissionRequest allow with updatedInput and updatedPermissions", event: "PermissionRequest",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits"}]}}}`,
			status: hooks.StatusSucceeded, permission: "allow", updated: `{"command":"ls"}`, output: `{"updatedPermissions":[{"type":"setMode","mode":"acceptEdits"}]}`},
		{rule: "PermissionRequest behavior is required", event: "PermissionRequest",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{}}}`,
			status: hooks.StatusFailed, errHas: "hookSpecificOutput.decision.behavior must be allow or deny"},

		{rule: "PostToolUse block is feedback", event: "PostToolUse", stdout: `{"decision":"block","reason":"lint failed"}`,
			status: hooks.StatusBlocked, reason: "lint failed"},
		{rule: "PostToolUse updatedToolOutput is passed to the host", event: "PostToolUse",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"x":1}}}`,
			status: hooks.StatusSucceeded, output: `{"updatedMCPToolOutput":{"x":1}}`},
		{rule: "PostToolUseFailure exit 2 is feedback for the model", event: "PostToolUseFailure", code: 2, stderr: "try --force",
			status: hooks.StatusBlocked, reason: "try --force"},

		{rule: "SessionStart fields are passed to the host", event: "SessionStart",
			stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx","watchPaths":["a","b"],"initialUserMessage":"hello"}}`,
			status: hooks.StatusSucceeded, contexts: []string{"ctx"}, output: `{"initialUserMessage":"hello","watchPaths":["a","b"]}`},
		{rule: "a wrongly typed pass-through field fails", event: "SessionStart",
			stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","watchPaths":"a"}}`,
			status: hooks.StatusFailed, errHas: "hookSpecificOutput.watchPaths must be an array of strings"},
		{rule: "terminalSequence is passed to the host", event: "Notification", stdout: `{"terminalSequence":"\u0007"}`,
			status: hooks.StatusSucceeded, output: `{"terminalSequence":"\u0007"}`},
		{rule: "Elicitation action must be known", event: "Elicitation",
			stdout: `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"maybe"}}`,
			status: hooks.StatusFailed, errHas: "action must be one of accept, decline, cancel"},
		{rule: "Elicitation answer is passed to the host", event: "Elicitation",
			stdout: `{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"x"}}}`,
			status: hooks.StatusSucceeded, output: `{"action":"accept","content":{"name":"x"}}`},

		{rule: "WorktreeCreate fails on any non-zero exit", event: "WorktreeCreate", code: 1, stderr: "no space",
			status: hooks.StatusBlocked, reason: "no space"},
		{rule: "WorktreeCreate's last stdout line is the path", event: "WorktreeCreate", stdout: "creating\n/tmp/wt-1\n\n",
			status: hooks.StatusSucceeded, output: `{"worktreePath":"/tmp/wt-1"}`},
		{rule: "SessionEnd output is ignored", event: "SessionEnd", stdout: `{"continue":false}`,
			status: hooks.StatusSucceeded},

		{rule: "async handlers keep context but never decide", event: "PreToolUse", async: true,
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","additionalContext":"late"}}`,
			status: hooks.StatusSucceeded, contexts: []string{"late"}, reason: "", permission: ""},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			code := tc.code
			o := claudeRow(t, tc.event).parse(hooks.RawResult{ExitCode: &code, Stdout: tc.stdout, Stderr: tc.stderr}, tc.async)
			if o.Status != tc.status {
				t.Errorf("status %s, want %s (error %q)", o.Status, tc.status, o.Error)
			}
			if o.Reason != tc.reason {
				t.Errorf("reason %q, want %q", o.Reason, tc.reason)
			}
			if o.Permission != tc.permission {
				t.Errorf("permission %q, want %q", o.Permission, tc.permission)
			}
			if strings.Join(o.Contexts, "|") != strings.Join(tc.contexts, "|") {
				t.Errorf("contexts %q, want %q", o.Contexts, tc.contexts)
			}
			if o.SystemMessage != tc.message {
				t.Errorf("systemMessage %q, want %q", o.SystemMessage, tc.message)
			}
			if o.Stop != tc.stop {
				t.Errorf("stop %v, want %v", o.Stop, tc.stop)
			}
			if !strings.Contains(o.Error, tc.errHas) || (tc.errHas == "" && o.Error != "") {
				t.Errorf("error %q, want it to hold %q", o.Error, tc.errHas)
			}
			if string(o.UpdatedInput) != tc.updated {
				t.Errorf("updatedInput %s, want %s", o.UpdatedInput, tc.updated)
			}
			got := ""
			if o.Output != nil {
				b, _ := json.Marshal(o.Output)
				got = string(b)
			}
			if got != tc.output {
				t.Errorf("output %s, want %s", got, tc.output)
			}
		})
	}
}

func TestClaudeParse_ProcessFailures(t *testing.T) {
	ev := claudeRow(t, "PreToolUse")
	o := ev.parse(hooks.RawResult{TimedOut: true, Timeout: 600 * time.Second}, false)
	if o.Status != hooks.StatusTimedOut || o.Error != "hook timed out after 600s" || o.Block {
		t.Errorf("timeout: %+v", o)
	}
	o = claudeRow(t, "SessionEnd").parse(hooks.RawResult{Cancelled: true}, false)
	if o.Status != hooks.StatusCancelled || !strings.Contains(o.Error, "budget") {
		t.Errorf("spent SessionEnd budget: %+v", o)
	}
	o = ev.parse(hooks.RawResult{}, false)
	if o.Status != hooks.StatusFailed || o.Block {
		t.Errorf("no exit status: %+v", o)
	}
}

func outcome(perm, reason string, finished int, updated string) hooks.Outcome {
	o := hooks.Outcome{Hook: &hooks.Hook{Key: "k" + perm}, Permission: perm, Reason: reason, Finished: finished, Status: hooks.StatusSucceeded}
	if perm == hooks.DecisionDeny {
		o.Block, o.Status = true, hooks.StatusBlocked
	}
	if updated != "" {
		o.UpdatedInput = json.RawMessage(updated)
	}
	return o
}

func TestClaudeCombine_PermissionPrecedenceDenyDeferAskAllow(t *testing.T) {
	ev := claudeRow(t, "PreToolUse")
	for _, tc := range []struct {
		perms []string
		want  string
	}{
		{[]string{"allow"}, "allow"},
		{[]string{"allow", "ask"}, "ask"},
		{[]string{"ask", "defer", "allow"}, "defer"},
		{[]string{"allow", "deny", "defer", "ask"}, "deny"},
		{[]string{"", ""}, "none"},
	} {
		var outs []hooks.Outcome
		for i, p := range tc.perms {
			outs = append(outs, outcome(p, p+" reason", i, ""))
		}
		res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
		ev.combine(res, outs)
		if res.Decision != tc.want {
			t.Errorf("%v: decision %s, want %s", tc.perms, res.Decision, tc.want)
		}
	}
}

func TestClaudeCombine_DenyReasonsAreJoined(t *testing.T) {
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	claudeRow(t, "PreToolUse").combine(res, []hooks.Outcome{outcome("deny", "one", 1, ""), outcome("ask", "x", 2, ""), outcome("deny", "two", 3, "")})
	if res.Decision != hooks.DecisionDeny || res.Reason != "one\n\ntwo" {
		t.Fatalf("got %s %q", res.Decision, res.Reason)
	}
}

func TestClaudeCombine_UpdatedInputOfTheLastFinishedHandler(t *testing.T) {
	ev := claudeRow(t, "PreToolUse")
	// Configuration order first-second, completion order second-first.
	outs := []hooks.Outcome{outcome("allow", "", 9, `{"command":"first"}`), outcome("allow", "", 4, `{"command":"second"}`)}
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	ev.combine(res, outs)
	if res.Decision != hooks.DecisionAllow || string(res.UpdatedInput) != `{"command":"first"}` {
		t.Fatalf("got %s %s, want the input of the handler that finished last", res.Decision, res.UpdatedInput)
	}
	// A deny drops every rewrite.
	res = &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	ev.combine(res, append(outs, outcome("deny", "no", 1, "")))
	if res.Decision != hooks.DecisionDeny || res.UpdatedInput != nil {
		t.Fatalf("got %s %s, want a deny without rewrite", res.Decision, res.UpdatedInput)
	}
}

func TestClaudeCombine_ContinueFalseBeatsEveryDecision(t *testing.T) {
	stopper := hooks.Outcome{Hook: &hooks.Hook{Key: "stop"}, Stop: true, StopReason: "halt", Contexts: []string{"kept"}}
	for _, tc := range []struct {
		event string
		out   hooks.Outcome
	}{
		{"PreToolUse", outcome("deny", "no", 1, `{"command":"x"}`)},
		{"Stop", hooks.Outcome{Hook: &hooks.Hook{Key: "b"}, Block: true, Reason: "again", Status: hooks.StatusBlocked}},
		{"PostToolUse", hooks.Outcome{Hook: &hooks.Hook{Key: "b"}, Block: true, Reason: "bad", Feedback: "bad", Status: hooks.StatusBlocked}},
		{"PermissionRequest", hooks.Outcome{Hook: &hooks.Hook{Key: "b"}, Permission: "allow"}},
	} {
		res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
		claudeRow(t, tc.event).combine(res, []hooks.Outcome{tc.out, stopper})
		if res.Continue || res.StopReason != "halt" || res.Decision != hooks.DecisionNone || res.Reason != "" ||
			res.Feedback != "" || res.Continuation != "" || res.UpdatedInput != nil || res.Permission != nil {
			t.Errorf("%s: %+v", tc.event, res)
		}
		if len(res.AdditionalContext) != 1 {
			t.Errorf("%s: context lost: %+v", tc.event, res.AdditionalContext)
		}
	}
}

func TestClaudeCombine_StopReasonsFormTheContinuation(t *testing.T) {
	t.Setenv(shinyFountainEnv, "0") // the reasons alone (hooktext_test.go has the wrapped form)
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	claudeRow(t, "Stop").combine(res, []hooks.Outcome{
		{Hook: &hooks.Hook{Key: "a"}, Block: true, Reason: "first"},
		{Hook: &hooks.Hook{Key: "b"}},
		{Hook: &hooks.Hook{Key: "c"}, Block: true, Reason: "second"},
	})
	if res.Decision != hooks.DecisionBlock || res.Continuation != "first\n\nsecond" {
		t.Fatalf("got %+v", res)
	}
}

func TestClaudeCombine_StopContextKeepsTheTurnGoing(t *testing.T) {
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	claudeRow(t, "Stop").combine(res, []hooks.Outcome{{Hook: &hooks.Hook{Key: "a"}, Contexts: []string{"also update the changelog"}}})
	if res.Decision != hooks.DecisionBlock || res.Continuation != "" || len(res.AdditionalContext) != 1 {
		t.Fatalf("got %+v", res)
	}
}

func TestClaudeCombine_PermissionRequestDenyWinsAllowTakesLastRewrite(t *testing.T) {
	ev := claudeRow(t, "PermissionRequest")
	allowA := hooks.Outcome{Hook: &hooks.Hook{Key: "a"}, Permission: "allow", UpdatedInput: json.RawMessage(`{"a":1}`), Finished: 5}
	allowB := hooks.Outcome{Hook: &hooks.Hook{Key: "b"}, Permission: "allow", UpdatedInput: json.RawMessage(`{"b":1}`), Finished: 2}
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	ev.combine(res, []hooks.Outcome{allowA, allowB})
	if res.Decision != hooks.DecisionAllow || res.Permission.Behavior != "allow" || string(res.UpdatedInput) != `{"a":1}` {
		t.Fatalf("allow: %+v", res)
	}
	res = &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	ev.combine(res, []hooks.Outcome{allowA, {Hook: &hooks.Hook{Key: "d"}, Permission: "deny", Block: true}, allowB})
	if res.Decision != hooks.DecisionDeny || res.Permission.Message != claudePermissionDenied || res.UpdatedInput != nil {
		t.Fatalf("deny: %+v", res)
	}
}

func TestClaudeCombine_OutputLastFinishedWinsWatchPathsAddUp(t *testing.T) {
	res := &hooks.Result{Decision: hooks.DecisionNone, Continue: true}
	claudeRow(t, "SessionStart").combine(res, []hooks.Outcome{
		{Hook: &hooks.Hook{Key: "a"}, Finished: 3, Output: map[string]json.RawMessage{"sessionTitle": json.RawMessage(`"a"`), "watchPaths": json.RawMessage(`["x","y"]`)}},
		{Hook: &hooks.Hook{Key: "b"}, Finished: 1, Output: map[string]json.RawMessage{"sessionTitle": json.RawMessage(`"b"`), "watchPaths": json.RawMessage(`["y","z"]`)}},
	})
	b, _ := json.Marshal(res.Output)
	if string(b) != `{"sessionTitle":"a","watchPaths":["x","y","z"]}` {
		t.Fatalf("output %s", b)
	}
}
