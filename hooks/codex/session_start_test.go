package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestSessionStart_ParseRules(t *testing.T) {
	tests := []struct {
		name, event, stdout string
		code                int
		status              hooks.Status
		err                 string
		stop                bool
		stopReason          string
		contexts            []string
	}{
		{name: "plain stdout becomes context", event: "SessionStart", stdout: "hello from hook\n",
			status: hooks.StatusSucceeded, contexts: []string{"hello from hook"}},
		{name: "continue false keeps the context and stops", event: "SessionStart",
			stdout: `{"continue":false,"stopReason":"pause","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"do not inject"}}`,
			status: hooks.StatusSucceeded, stop: true, stopReason: "pause", contexts: []string{"do not inject"}},
		{name: "invalid JSON prefix fails", event: "SessionStart", stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart"`,
			status: hooks.StatusFailed, err: "hook returned invalid session start JSON output"},
		{name: "additionalContext", event: "SessionStart",
			stdout: `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Load the workspace conventions before editing."}}`,
			status: hooks.StatusSucceeded, contexts: []string{"Load the workspace conventions before editing."}},
		{name: "exit 2 is an ordinary failure", event: "SessionStart", code: 2, status: hooks.StatusFailed, err: "hook exited with code 2"},
		{name: "SubagentStart plain text becomes context", event: "SubagentStart", stdout: "subagent notes\n",
			status: hooks.StatusSucceeded, contexts: []string{"subagent notes"}},
		{name: "SubagentStart ignores continue false", event: "SubagentStart",
			stdout: `{"continue":false,"stopReason":"nope","hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"Review the repository test conventions first."}}`,
			status: hooks.StatusSucceeded, contexts: []string{"Review the repository test conventions first."}},
		{name: "SubagentStart invalid JSON fails", event: "SubagentStart", stdout: `[1]`,
			status: hooks.StatusFailed, err: "hook returned invalid subagent start JSON output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, tt.event, exitRaw(tt.code, tt.stdout, ""), false)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Stop != tt.stop || got.StopReason != tt.stopReason {
				t.Errorf("stop, stopReason = %v, %q; want %v, %q", got.Stop, got.StopReason, tt.stop, tt.stopReason)
			}
			if !reflect.DeepEqual(got.Contexts, tt.contexts) {
				t.Errorf("contexts = %q; want %q", got.Contexts, tt.contexts)
			}
			if got.Block || got.Feedback != "" {
				t.Errorf("unexpected block or feedback: %+v", got)
			}
		})
	}
}

func TestSessionStart_ContinueFalseKeepsContextForNextTurn(t *testing.T) {
	res := combineAs(t, "SessionStart",
		parseAs(t, "SessionStart", exitRaw(0, "first context", ""), false),
		parseAs(t, "SessionStart", exitRaw(0, `{"continue":false,"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"second context"}}`, ""), false),
		parseAs(t, "SessionStart", exitRaw(0, `{"continue":false,"stopReason":"pause","systemMessage":"stopped"}`, ""), false),
	)
	if res.Continue || res.StopReason != "pause" || res.Decision != hooks.DecisionNone {
		t.Errorf("continue, stopReason, decision = %v, %q, %q; want false, pause, none", res.Continue, res.StopReason, res.Decision)
	}
	if want := []string{"h0: first context", "h1: second context"}; !reflect.DeepEqual(contexts(res), want) {
		t.Errorf("contexts = %q; want %q", contexts(res), want)
	}
	if want := []hooks.Message{{Hook: "h2", Text: "stopped"}}; !reflect.DeepEqual(res.SystemMessages, want) {
		t.Errorf("messages = %+v; want %+v", res.SystemMessages, want)
	}
}

func TestSubagentStart_ContextAndMessagesOnly(t *testing.T) {
	res := combineAs(t, "SubagentStart",
		parseAs(t, "SubagentStart", exitRaw(0, `{"continue":false,"systemMessage":"hi","hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"ctx"}}`, ""), false),
		parseAs(t, "SubagentStart", exitRaw(0, "plain", ""), false),
	)
	if !res.Continue || res.StopReason != "" || res.Decision != hooks.DecisionNone {
		t.Errorf("continue, stopReason, decision = %v, %q, %q; continue:false must be ignored", res.Continue, res.StopReason, res.Decision)
	}
	if want := []string{"h0: ctx", "h1: plain"}; !reflect.DeepEqual(contexts(res), want) {
		t.Errorf("contexts = %q; want %q", contexts(res), want)
	}
	if want := []hooks.Message{{Hook: "h0", Text: "hi"}}; !reflect.DeepEqual(res.SystemMessages, want) {
		t.Errorf("messages = %+v; want %+v", res.SystemMessages, want)
	}
}
