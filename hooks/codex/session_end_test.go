package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestSessionEnd_ControlJSONIsIgnored(t *testing.T) {
	for _, stdout := range []string{
		`{"continue":false,"decision":"block"}`,
		`{"systemMessage":"bye","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}`,
		`{not json`,
		"saved notes\n",
	} {
		got := parseAs(t, "SessionEnd", exitRaw(0, stdout, ""), false)
		want := hooks.Outcome{Status: hooks.StatusSucceeded, Raw: got.Raw}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: outcome %+v; want success with no effect", stdout, got)
		}
	}
	res := combineAs(t, "SessionEnd", parseAs(t, "SessionEnd", exitRaw(0, `{"continue":false,"systemMessage":"bye"}`, ""), false))
	if !reflect.DeepEqual(res, &hooks.Result{Event: "SessionEnd", Decision: hooks.DecisionNone, Continue: true}) {
		t.Errorf("result = %+v; want nothing", res)
	}
}

func TestSessionEnd_FailureCarriesStderrElseExitCode(t *testing.T) {
	tests := []struct {
		raw hooks.RawResult
		err string
	}{
		{exitRaw(1, "", "could not save notes\n"), "could not save notes"},
		{exitRaw(2, "", ""), "hook exited with code 2"},
		{exitRaw(2, "", "two"), "two"},
		{hooks.RawResult{}, "hook process terminated without an exit code"},
	}
	for _, tt := range tests {
		got := parseAs(t, "SessionEnd", tt.raw, false)
		if got.Status != hooks.StatusFailed || got.Error != tt.err {
			t.Errorf("status, error = %q, %q; want failed, %q", got.Status, got.Error, tt.err)
		}
	}
}
