package codex

import (
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestStop_ParseRules(t *testing.T) {
	tests := []struct {
		name       string
		event      string
		raw        hooks.RawResult
		async      bool
		status     hooks.Status
		err        string
		reason     string
		stop       bool
		stopReason string
	}{
		{name: "block gives the continuation prompt", event: "Stop",
			raw:    exitRaw(0, `{"decision":"block","reason":"retry with tests"}`, ""),
			status: hooks.StatusBlocked, reason: "retry with tests"},
		{name: "block without reason fails", event: "Stop",
			raw:    exitRaw(0, `{"decision":"block"}`, ""),
			status: hooks.StatusFailed, err: "Stop hook returned decision:block without a non-empty reason"},
		{name: "block with blank reason fails", event: "Stop",
			raw:    exitRaw(0, `{"decision":"block","reason":"   "}`, ""),
			status: hooks.StatusFailed, err: "Stop hook returned decision:block without a non-empty reason"},
		{name: "SubagentStop block with blank reason fails", event: "SubagentStop",
			raw:    exitRaw(0, `{"decision":"block","reason":""}`, ""),
			status: hooks.StatusFailed, err: "SubagentStop hook returned decision:block without a non-empty reason"},
		{name: "continue false beats block", event: "Stop",
			raw:    exitRaw(0, `{"continue":false,"stopReason":"enough","decision":"block","reason":"retry"}`, ""),
			status: hooks.StatusSucceeded, stop: true, stopReason: "enough"},
		{name: "exit 2 uses stderr only", event: "Stop",
			raw:    exitRaw(2, `{"decision":"block","reason":"from stdout"}`, "from stderr\n"),
			status: hooks.StatusBlocked, reason: "from stderr"},
		{name: "exit 2 without stderr fails", event: "Stop",
			raw:    exitRaw(2, "continue please", ""),
			status: hooks.StatusFailed, err: "Stop hook exited with code 2 but did not write a continuation prompt to stderr"},
		{name: "SubagentStop exit 2 without stderr fails", event: "SubagentStop",
			raw:    exitRaw(2, "", ""),
			status: hooks.StatusFailed, err: "SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr"},
		{name: "plain stdout fails when sync", event: "Stop",
			raw:    exitRaw(0, "all done\n", ""),
			status: hooks.StatusFailed, err: "hook returned invalid stop hook JSON output"},
		{name: "SubagentStop plain stdout fails when sync", event: "SubagentStop",
			raw:    exitRaw(0, "all done\n", ""),
			status: hooks.StatusFailed, err: "hook returned invalid subagent stop hook JSON output"},
		{name: "plain stdout is ignored when async", event: "Stop",
			raw: exitRaw(0, "all done\n", ""), async: true,
			status: hooks.StatusSucceeded},
		{name: "async block without a reason completes without an error", event: "Stop",
			raw: exitRaw(0, `{"decision":"block","reason":"  "}`, ""), async: true,
			status: hooks.StatusSucceeded},
		{name: "JSON scalar fails when sync", event: "Stop",
			raw:    exitRaw(0, `"done"`, ""),
			status: hooks.StatusFailed, err: "hook returned invalid stop hook JSON output"},
		{name: "common fields are accepted", event: "SubagentStop",
			raw:    exitRaw(0, `{"continue":true,"suppressOutput":true,"systemMessage":"checked"}`, ""),
			status: hooks.StatusSucceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, tt.event, tt.raw, tt.async)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Block != (tt.status == hooks.StatusBlocked) || got.Reason != tt.reason {
				t.Errorf("block, reason = %v, %q; want %v, %q", got.Block, got.Reason, tt.status == hooks.StatusBlocked, tt.reason)
			}
			if got.Stop != tt.stop || got.StopReason != tt.stopReason {
				t.Errorf("stop, stopReason = %v, %q; want %v, %q", got.Stop, got.StopReason, tt.stop, tt.stopReason)
			}
		})
	}
}

func TestStop_ReasonsJoinInConfigOrder(t *testing.T) {
	for _, event := range []string{"Stop", "SubagentStop"} {
		first := parseAs(t, event, exitRaw(0, `{"decision":"block","reason":"first"}`, ""), false)
		failed := parseAs(t, event, exitRaw(0, `{"decision":"block"}`, ""), false)
		second := parseAs(t, event, exitRaw(2, "", "second\n"), false)
		first.Finished, failed.Finished, second.Finished = 3, 2, 1
		res := combineAs(t, event, first, failed, second)
		if res.Decision != hooks.DecisionBlock || res.Reason != "first\n\nsecond" || res.Continuation != "first\n\nsecond" {
			t.Errorf("%s: decision %q reason %q continuation %q; want block with first\\n\\nsecond", event, res.Decision, res.Reason, res.Continuation)
		}
		if !res.Continue {
			t.Errorf("%s: continue = false; want true", event)
		}
	}
}

func TestStop_ContinueFalseBeatsBlock(t *testing.T) {
	for _, event := range []string{"Stop", "SubagentStop"} {
		res := combineAs(t, event,
			parseAs(t, event, exitRaw(0, `{"decision":"block","reason":"retry"}`, ""), false),
			parseAs(t, event, exitRaw(0, `{"continue":false}`, ""), false),
			parseAs(t, event, exitRaw(0, `{"continue":false,"stopReason":"enough"}`, ""), false),
			parseAs(t, event, exitRaw(2, "", "again"), false),
		)
		if res.Continue || res.StopReason != "enough" {
			t.Errorf("%s: continue, stopReason = %v, %q; want false, enough", event, res.Continue, res.StopReason)
		}
		if res.Decision != hooks.DecisionNone || res.Reason != "" || res.Continuation != "" {
			t.Errorf("%s: decision %q reason %q continuation %q; a stop must drop every block", event, res.Decision, res.Reason, res.Continuation)
		}
	}
}

func TestStop_NoBlockNoContinuation(t *testing.T) {
	res := combineAs(t, "Stop",
		parseAs(t, "Stop", exitRaw(0, `{}`, ""), false),
		parseAs(t, "Stop", exitRaw(0, "plain", ""), false))
	if res.Decision != hooks.DecisionNone || !res.Continue || res.Continuation != "" {
		t.Errorf("result = %+v; want nothing decided", res)
	}
}
