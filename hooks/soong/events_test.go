package soong

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
)

func exitCode(n int) *int { return &n }

func TestSoongOutput_ProtocolRules(t *testing.T) {
	for _, tc := range []struct {
		name     string
		raw      hooks.RawResult
		canDeny  bool
		status   hooks.Status
		block    bool
		reason   string
		errHas   string
		metadata string
		logs     string
	}{
		{name: "exit 0 and no stdout allows", raw: hooks.RawResult{ExitCode: exitCode(0)}, canDeny: true, status: hooks.StatusSucceeded},
		{name: "explicit allow", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"allow"}`}, canDeny: true, status: hooks.StatusSucceeded},
		{name: "no decision allows", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"reason":"just saying"}`}, canDeny: true, status: hooks.StatusSucceeded},
		{name: "deny with reason", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: ` {"decision":"deny","reason":"  no  "}` + "\n"}, canDeny: true,
			status: hooks.StatusBlocked, block: true, reason: "no"},
		{name: "deny without reason still denies", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"deny"}`}, canDeny: true,
			status: hooks.StatusBlocked, block: true},
		{name: "deny on an observe-only event changes nothing", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"deny","reason":"x"}`},
			status: hooks.StatusSucceeded},
		{name: "metadata and logs are passed on",
			raw:     hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"allow","metadata":{"a":1},"logs":["one",{"level":"info"}]}`},
			canDeny: true, status: hooks.StatusSucceeded, metadata: `{"a":1}`, logs: `["one",{"level":"info"}]`},
		{name: "null fields are absent", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":null,"reason":null,"metadata":null,"logs":null}`},
			canDeny: true, status: hooks.StatusSucceeded},
		{name: "fields outside the protocol are ignored", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"allow","updatedInput":{"command":"rm"}}`},
			canDeny: true, status: hooks.StatusSucceeded},
		{name: "keys are exact: Decision is not decision", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"Decision":"deny"}`},
			canDeny: true, status: hooks.StatusSucceeded},
		{name: "another decision value is invalid", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"block","reason":"x"}`},
			canDeny: true, status: hooks.StatusFailed, errHas: `"decision" must be "allow" or "deny"`},
		{name: "decision in another case is invalid", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"DENY"}`},
			canDeny: true, status: hooks.StatusFailed, errHas: `"decision" must be`},
		{name: "reason must be a string", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"deny","reason":3}`},
			canDeny: true, status: hooks.StatusFailed, errHas: `"reason" must be a string`},
		{name: "metadata must be an object", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"metadata":[1]}`},
			canDeny: true, status: hooks.StatusFailed, errHas: `"metadata" must be an object`},
		{name: "logs must be an array", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"logs":"one"}`},
			canDeny: true, status: hooks.StatusFailed, errHas: `"logs" must be an array`},
		{name: "plain text is not the protocol", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: "deny\n"},
			canDeny: true, status: hooks.StatusFailed, errHas: "want a JSON object"},
		{name: "an array is not the protocol", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `[{"decision":"deny"}]`},
			canDeny: true, status: hooks.StatusFailed, errHas: "want a JSON object"},
		{name: "truncated JSON is invalid", raw: hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"deny"`},
			canDeny: true, status: hooks.StatusFailed, errHas: "want a JSON object"},
		{name: "non-zero exit fails", raw: hooks.RawResult{ExitCode: exitCode(3), Stdout: `{"decision":"allow"}`},
			canDeny: true, status: hooks.StatusFailed, errHas: "hook exited with code 3"},
		{name: "exit 2 is no different from other failures", raw: hooks.RawResult{ExitCode: exitCode(2), Stderr: "blocked!"},
			canDeny: true, status: hooks.StatusFailed, errHas: "hook exited with code 2"},
		{name: "non-zero exit with an explicit deny denies", raw: hooks.RawResult{ExitCode: exitCode(1), Stdout: `{"decision":"deny","reason":"r"}`},
			canDeny: true, status: hooks.StatusBlocked, block: true, reason: "r", errHas: "hook exited with code 1"},
		{name: "non-zero exit keeps metadata", raw: hooks.RawResult{ExitCode: exitCode(1), Stdout: `{"metadata":{"k":"v"}}`},
			canDeny: true, status: hooks.StatusFailed, errHas: "code 1", metadata: `{"k":"v"}`},
		{name: "non-zero exit deny on an observe-only event is a failure only", raw: hooks.RawResult{ExitCode: exitCode(1), Stdout: `{"decision":"deny"}`},
			status: hooks.StatusFailed, errHas: "code 1"},
		{name: "stderr never decides", raw: hooks.RawResult{ExitCode: exitCode(0), Stderr: `{"decision":"deny","reason":"from stderr"}`},
			canDeny: true, status: hooks.StatusSucceeded},
		{name: "a timed-out hook has no answer", raw: hooks.RawResult{TimedOut: true, Timeout: 5 * time.Second, Stdout: `{"decision":"deny"}`},
			canDeny: true, status: hooks.StatusTimedOut, errHas: "hook timed out after 5s"},
		{name: "a hook killed by a signal has no answer", raw: hooks.RawResult{Stdout: `{"decision":"deny"}`},
			canDeny: true, status: hooks.StatusFailed, errHas: hooks.MsgNoStatus},
		{name: "spawn error", raw: hooks.RawResult{Err: errors.New("fork failed")}, canDeny: true, status: hooks.StatusFailed, errHas: "fork failed"},
		{name: "cancelled", raw: hooks.RawResult{Cancelled: true}, canDeny: true, status: hooks.StatusCancelled, errHas: hooks.MsgCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := readSoong(tc.raw, tc.canDeny)
			if o.Status != tc.status || o.Block != tc.block || o.Reason != tc.reason {
				t.Fatalf("got status %s block %v reason %q (error %q), want %s %v %q", o.Status, o.Block, o.Reason, o.Error, tc.status, tc.block, tc.reason)
			}
			if tc.errHas == "" && o.Error != "" || !strings.Contains(o.Error, tc.errHas) {
				t.Errorf("error %q, want it to hold %q", o.Error, tc.errHas)
			}
			if string(o.Metadata) != tc.metadata || string(o.Logs) != tc.logs {
				t.Errorf("metadata %s logs %s, want %s %s", o.Metadata, o.Logs, tc.metadata, tc.logs)
			}
		})
	}
}

func TestSoongPreToolUse_DenyRefusesAndAllowGrantsNothing(t *testing.T) {
	h := &hooks.Hook{Key: "k"}
	for _, tc := range []struct {
		name     string
		outs     []hooks.Outcome
		decision string
		reason   string
	}{
		{"nothing", nil, hooks.DecisionNone, ""},
		{"allow only", []hooks.Outcome{{Hook: h, Status: hooks.StatusSucceeded}}, hooks.DecisionNone, ""},
		{"deny", []hooks.Outcome{{Hook: h}, {Hook: h, Block: true, Reason: "r1"}, {Hook: h, Block: true, Reason: "r2"}}, hooks.DecisionDeny, "r1"},
		{"deny without reason", []hooks.Outcome{{Hook: h, Block: true}}, hooks.DecisionDeny, soongToolDenied},
	} {
		res := &hooks.Result{Decision: hooks.DecisionNone}
		combineSoongPreToolUse(res, tc.outs)
		if res.Decision != tc.decision || res.Reason != tc.reason || res.Continuation != "" {
			t.Errorf("%s: got %s %q, want %s %q", tc.name, res.Decision, res.Reason, tc.decision, tc.reason)
		}
	}
}

func TestSoongStop_DenyFeedsTheReasonBackAsContext(t *testing.T) {
	h := &hooks.Hook{Key: "k"}
	res := &hooks.Result{Decision: hooks.DecisionNone}
	combineSoongStop(res, []hooks.Outcome{{Hook: h, Block: true, Reason: "tests not run"}})
	if res.Decision != hooks.DecisionDeny || res.Reason != "tests not run" ||
		res.Continuation != "Stop hook prevented completion. Reason: tests not run" {
		t.Fatalf("got %+v", res)
	}
	res = &hooks.Result{Decision: hooks.DecisionNone}
	combineSoongStop(res, []hooks.Outcome{{Hook: h, Block: true}})
	if res.Decision != hooks.DecisionDeny || res.Reason != "" || res.Continuation != "Stop hook prevented completion." {
		t.Fatalf("without reason: got %+v", res)
	}
	res = &hooks.Result{Decision: hooks.DecisionNone}
	combineSoongStop(res, []hooks.Outcome{{Hook: h}})
	if res.Decision != hooks.DecisionNone || res.Continuation != "" {
		t.Fatalf("allow: got %+v", res)
	}
}

func TestSoongEvents_OnlyPreToolUseAndStopMayDeny(t *testing.T) {
	var names []string
	for _, ev := range Profile.Events {
		o := ev.Parse(hooks.RawResult{ExitCode: exitCode(0), Stdout: `{"decision":"deny","reason":"x"}`}, false)
		if o.Block {
			names = append(names, ev.Name)
		}
	}
	if got := strings.Join(names, ","); got != "PreToolUse,Stop" {
		t.Fatalf("events that deny: %s", got)
	}
	if got := strings.Join(Profile.EventNames(), ","); got != "SessionStart,UserPromptSubmit,PreToolUse,PostToolUse,Stop" {
		t.Fatalf("events: %s", got)
	}
}
