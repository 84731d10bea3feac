package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestPostToolUse_ParseRules(t *testing.T) {
	tests := []struct {
		name       string
		raw        hooks.RawResult
		async      bool
		status     hooks.Status
		err        string
		block      bool
		feedback   string
		stop       bool
		stopReason string
		contexts   []string
	}{
		{name: "block with reason",
			raw:    exitRaw(0, `{"decision":"block","reason":"bash output looked sketchy"}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "bash output looked sketchy"},
		{name: "block with context",
			raw:    exitRaw(0, `{"decision":"block","reason":"The Bash output needs review before continuing.","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"The command updated generated files."}}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "The Bash output needs review before continuing.",
			contexts: []string{"The command updated generated files."}},
		{name: "context is recorded",
			raw:    exitRaw(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Remember the bash cleanup note."}}`, ""),
			status: hooks.StatusSucceeded, contexts: []string{"Remember the bash cleanup note."}},
		{name: "updatedMCPToolOutput fails",
			raw:    exitRaw(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"ok":true},"additionalContext":"ctx"}}`, ""),
			status: hooks.StatusFailed, err: "PostToolUse hook returned unsupported updatedMCPToolOutput"},
		// Async output is never control: what would be invalid as control
		// completes without an error (Codex's hooks tests).
		{name: "async updatedMCPToolOutput keeps context",
			raw: exitRaw(0, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"ok":true},"additionalContext":"ctx"}}`, ""), async: true,
			status: hooks.StatusSucceeded, contexts: []string{"ctx"}},
		{name: "suppressOutput fails",
			raw:    exitRaw(0, `{"suppressOutput":true}`, ""),
			status: hooks.StatusFailed, err: "PostToolUse hook returned unsupported suppressOutput"},
		{name: "block without reason fails",
			raw:    exitRaw(0, `{"decision":"block"}`, ""),
			status: hooks.StatusFailed, err: "PostToolUse hook returned decision:block without a non-empty reason"},
		{name: "block with blank reason fails",
			raw:    exitRaw(0, `{"decision":"block","reason":" "}`, ""),
			status: hooks.StatusFailed, err: "PostToolUse hook returned decision:block without a non-empty reason"},
		{name: "reason without decision fails",
			raw:    exitRaw(0, `{"reason":"hmm"}`, ""),
			status: hooks.StatusFailed, err: "PostToolUse hook returned reason without decision"},
		{name: "exit 2 gives feedback",
			raw:    exitRaw(2, "", "post hook says pause\n"),
			status: hooks.StatusBlocked, block: true, feedback: "post hook says pause"},
		{name: "exit 2 without stderr fails",
			raw:    exitRaw(2, "", ""),
			status: hooks.StatusFailed, err: "PostToolUse hook exited with code 2 but did not write feedback to stderr"},
		{name: "continue false feedback is the reason",
			raw:    exitRaw(0, `{"continue":false,"stopReason":"halt after bash output","reason":"post-tool hook says stop"}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "post-tool hook says stop"},
		{name: "continue false feedback falls back to stopReason",
			raw:    exitRaw(0, `{"continue":false,"stopReason":"halt after bash output"}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "halt after bash output"},
		{name: "continue false feedback falls back to a fixed text",
			raw:    exitRaw(0, `{"continue":false}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "PostToolUse hook stopped execution"},
		{name: "continue false with decision block is one block with the reason",
			raw:    exitRaw(0, `{"continue":false,"decision":"block","reason":"r"}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "r"},
		{name: "continue false wins over an output that breaks a rule",
			raw:    exitRaw(0, `{"continue":false,"stopReason":"halt","suppressOutput":true}`, ""),
			status: hooks.StatusBlocked, block: true, feedback: "halt"},
		{name: "plain text is ignored",
			raw:    exitRaw(0, "looks fine\n", ""),
			status: hooks.StatusSucceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, "PostToolUse", tt.raw, tt.async)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Block != tt.block || got.Feedback != tt.feedback {
				t.Errorf("block, feedback = %v, %q; want %v, %q", got.Block, got.Feedback, tt.block, tt.feedback)
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

func TestPostToolUse_FeedbackJoinsInConfigOrder(t *testing.T) {
	block := parseAs(t, "PostToolUse", exitRaw(0, `{"decision":"block","reason":"first","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ctx"}}`, ""), false)
	exit2 := parseAs(t, "PostToolUse", exitRaw(2, "", "second"), false)
	stop := parseAs(t, "PostToolUse", exitRaw(0, `{"continue":false,"stopReason":"halt"}`, ""), false)
	block.Finished, exit2.Finished, stop.Finished = 3, 2, 1
	res := combineAs(t, "PostToolUse", block, exit2, stop)
	if res.Decision != hooks.DecisionBlock || res.Feedback != "first\n\nsecond\n\nhalt" {
		t.Errorf("decision, feedback = %q, %q; want block, first..second..halt", res.Decision, res.Feedback)
	}
	if !res.Continue || res.StopReason != "" {
		t.Errorf("continue, stopReason = %v, %q; want the turn to go on", res.Continue, res.StopReason)
	}
	if want := []string{"h0: ctx"}; !reflect.DeepEqual(contexts(res), want) {
		t.Errorf("contexts = %q; want %q", contexts(res), want)
	}
}

// Codex 0.169 replaces the tool output with the feedback and asks the model
// again: continue:false on PostToolUse never ends the turn.
func TestPostToolUse_ContinueFalseReplacesTheOutputAndTheTurnGoesOn(t *testing.T) {
	res := combineAs(t, "PostToolUse",
		parseAs(t, "PostToolUse", exitRaw(0, `{"continue":false,"stopReason":"halt after bash output","reason":"post-tool hook says stop"}`, ""), false))
	if res.Decision != hooks.DecisionBlock || !res.Continue || res.StopReason != "" || res.Feedback != "post-tool hook says stop" {
		t.Errorf("result = %+v; want a block with the reason as feedback, and the turn going on", res)
	}
}

func TestPostToolUse_NothingToCombine(t *testing.T) {
	res := combineAs(t, "PostToolUse",
		parseAs(t, "PostToolUse", exitRaw(0, "", ""), false),
		parseAs(t, "PostToolUse", exitRaw(0, `{"suppressOutput":true}`, ""), false))
	if res.Decision != hooks.DecisionNone || !res.Continue || res.Feedback != "" || res.StopReason != "" {
		t.Errorf("result = %+v; want nothing decided", res)
	}
}
