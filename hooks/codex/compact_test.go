package codex

import (
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestCompact_ParseRules(t *testing.T) {
	tests := []struct {
		name, event, stdout string
		status              hooks.Status
		err                 string
		stop                bool
		stopReason          string
	}{
		{"block is not supported", "PreCompact", `{"decision":"block","reason":"policy blocked compaction"}`,
			hooks.StatusFailed, "hook returned invalid PreCompact hook JSON output", false, ""},
		{"continue false stops before compaction", "PreCompact", `{"continue":false,"stopReason":"nope"}`,
			hooks.StatusSucceeded, "", true, "nope"},
		{"continue false stops after compaction", "PostCompact", `{"continue":false,"stopReason":"pause after compact"}`,
			hooks.StatusSucceeded, "", true, "pause after compact"},
		{"PreCompact stop without reason has a fixed text", "PreCompact", `{"continue":false}`,
			hooks.StatusSucceeded, "", true, "PreCompact hook stopped execution"},
		{"PostCompact stop without reason has a fixed text", "PostCompact", `{"continue":false,"stopReason":""}`,
			hooks.StatusSucceeded, "", true, "PostCompact hook stopped execution"},
		{"PostCompact rejects hookSpecificOutput", "PostCompact", `{"hookSpecificOutput":{"hookEventName":"PostCompact"}}`,
			hooks.StatusFailed, "hook returned invalid PostCompact hook JSON output", false, ""},
		{"PreCompact plain stdout is ignored", "PreCompact", "compacting now\n", hooks.StatusSucceeded, "", false, ""},
		{"PostCompact plain stdout is ignored", "PostCompact", "compacted\n", hooks.StatusSucceeded, "", false, ""},
		{"common fields are accepted", "PreCompact", `{"continue":true,"suppressOutput":true,"systemMessage":"ok"}`,
			hooks.StatusSucceeded, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, tt.event, exitRaw(0, tt.stdout, ""), false)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Stop != tt.stop || got.StopReason != tt.stopReason {
				t.Errorf("stop, stopReason = %v, %q; want %v, %q", got.Stop, got.StopReason, tt.stop, tt.stopReason)
			}
		})
	}
}

func TestCompact_FailureCarriesStderr(t *testing.T) {
	for _, event := range []string{"PreCompact", "PostCompact"} {
		got := parseAs(t, event, exitRaw(2, "", "  disk full\n"), false)
		if got.Status != hooks.StatusFailed || got.Error != "disk full" || got.Block {
			t.Errorf("%s: status %q error %q block %v; want failed with stderr", event, got.Status, got.Error, got.Block)
		}
	}
}

func TestCompact_ContinueFalseStopsWithFirstReason(t *testing.T) {
	for _, event := range []string{"PreCompact", "PostCompact"} {
		res := combineAs(t, event,
			parseAs(t, event, exitRaw(0, `{}`, ""), false),
			parseAs(t, event, exitRaw(0, `{"continue":false}`, ""), false),
			parseAs(t, event, exitRaw(0, `{"continue":false,"stopReason":"later"}`, ""), false),
		)
		if res.Continue || res.StopReason != event+" hook stopped execution" || res.Decision != hooks.DecisionNone {
			t.Errorf("%s: continue %v stopReason %q decision %q; want a stop with the fixed text", event, res.Continue, res.StopReason, res.Decision)
		}
	}
}

func TestCompact_NoStopGoesOn(t *testing.T) {
	res := combineAs(t, "PreCompact", parseAs(t, "PreCompact", exitRaw(1, "", ""), false))
	if !res.Continue || res.StopReason != "" {
		t.Errorf("continue %v stopReason %q; want the compaction to go on", res.Continue, res.StopReason)
	}
}
