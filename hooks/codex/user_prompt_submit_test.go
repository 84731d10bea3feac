package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestUserPromptSubmit_ParseRules(t *testing.T) {
	const ctx = `"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"do not inject"}`
	tests := []struct {
		name       string
		raw        hooks.RawResult
		async      bool
		status     hooks.Status
		err        string
		reason     string
		stop       bool
		stopReason string
		contexts   []string
	}{
		{name: "continue false keeps the context",
			raw:    exitRaw(0, `{"continue":false,"stopReason":"pause",`+ctx+`}`, ""),
			status: hooks.StatusSucceeded, stop: true, stopReason: "pause", contexts: []string{"do not inject"}},
		{name: "block keeps the context",
			raw:    exitRaw(0, `{"decision":"block","reason":"slow down",`+ctx+`}`, ""),
			status: hooks.StatusBlocked, reason: "slow down", contexts: []string{"do not inject"}},
		{name: "block without reason fails and drops the context",
			raw:    exitRaw(0, `{"decision":"block",`+ctx+`}`, ""),
			status: hooks.StatusFailed, err: "UserPromptSubmit hook returned decision:block without a non-empty reason"},
		{name: "async block without reason keeps the context",
			raw: exitRaw(0, `{"decision":"block",`+ctx+`}`, ""), async: true,
			status: hooks.StatusSucceeded, contexts: []string{"do not inject"}}, // Codex: no error for async output
		{name: "block with blank reason fails",
			raw:    exitRaw(0, `{"decision":"block","reason":"\n"}`, ""),
			status: hooks.StatusFailed, err: "UserPromptSubmit hook returned decision:block without a non-empty reason"},
		{name: "continue false beats an invalid block",
			raw:    exitRaw(0, `{"continue":false,"decision":"block"}`, ""),
			status: hooks.StatusSucceeded, stop: true},
		{name: "context from JSON",
			raw:    exitRaw(0, `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Ask for a clearer reproduction before editing files."}}`, ""),
			status: hooks.StatusSucceeded, contexts: []string{"Ask for a clearer reproduction before editing files."}},
		{name: "plain stdout is context",
			raw:    exitRaw(0, "\n  remember the style guide  \n", ""),
			status: hooks.StatusSucceeded, contexts: []string{"remember the style guide"}},
		{name: "exit 2 blocks",
			raw:    exitRaw(2, "", "blocked by policy\n"),
			status: hooks.StatusBlocked, reason: "blocked by policy"},
		{name: "async exit 2 fails without stopping",
			raw: exitRaw(2, "", "blocked by policy\n"), async: true,
			status: hooks.StatusFailed, err: "hook exited with code 2"},
		{name: "async invalid JSON fails",
			raw: exitRaw(0, `{"bogus":1}`, ""), async: true,
			status: hooks.StatusFailed, err: "hook returned invalid user prompt submit JSON output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, "UserPromptSubmit", tt.raw, tt.async)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Block != (tt.status == hooks.StatusBlocked) || got.Reason != tt.reason {
				t.Errorf("block, reason = %v, %q; want %v, %q", got.Block, got.Reason, tt.status == hooks.StatusBlocked, tt.reason)
			}
			if got.Stop != tt.stop || got.StopReason != tt.stopReason {
				t.Errorf("stop, stopReason = %v, %q; want %v, %q", got.Stop, got.StopReason, tt.stop, tt.stopReason)
			}
			if !reflect.DeepEqual(got.Contexts, tt.contexts) {
				t.Errorf("contexts = %q; want %q", got.Contexts, tt.contexts)
			}
		})
	}
}

func TestUserPromptSubmit_BlockAndStopKeepContexts(t *testing.T) {
	res := combineAs(t, "UserPromptSubmit",
		parseAs(t, "UserPromptSubmit", exitRaw(0, "plain context", ""), false),
		parseAs(t, "UserPromptSubmit", exitRaw(0, `{"decision":"block","reason":"slow down","hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"block context"}}`, ""), false),
		parseAs(t, "UserPromptSubmit", exitRaw(2, "", "second block"), false),
		parseAs(t, "UserPromptSubmit", exitRaw(0, `{"continue":false,"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"stop context"}}`, ""), false),
		parseAs(t, "UserPromptSubmit", exitRaw(0, `{"continue":false,"stopReason":"pause"}`, ""), false),
		parseAs(t, "UserPromptSubmit", exitRaw(0, `{"continue":false,"stopReason":"later pause"}`, ""), false),
	)
	if res.Decision != hooks.DecisionBlock || res.Reason != "slow down" {
		t.Errorf("decision, reason = %q, %q; want block by the first blocker", res.Decision, res.Reason)
	}
	if res.Continue || res.StopReason != "pause" {
		t.Errorf("continue, stopReason = %v, %q; want false, the first stopReason", res.Continue, res.StopReason)
	}
	want := []string{"h0: plain context", "h1: block context", "h3: stop context"}
	if !reflect.DeepEqual(contexts(res), want) {
		t.Errorf("contexts = %q; want %q", contexts(res), want)
	}
}

func TestUserPromptSubmit_ContextOnlyGoesOn(t *testing.T) {
	res := combineAs(t, "UserPromptSubmit",
		parseAs(t, "UserPromptSubmit", exitRaw(0, "ctx", ""), false))
	if res.Decision != hooks.DecisionNone || !res.Continue || !reflect.DeepEqual(contexts(res), []string{"h0: ctx"}) {
		t.Errorf("result = %+v; want context only", res)
	}
}
