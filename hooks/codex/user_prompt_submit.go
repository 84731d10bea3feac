package codex

import (
	"strings"

	"github.com/hookd/hookd/hooks"
)

// UserPromptSubmit runs before a prompt is processed. A handler may block the
// prompt, stop the turn and add context; plain stdout is context too. Context
// from the same batch is kept even when the prompt is blocked or stopped, so
// later turns still see it.

// contextSpecificWire is the hookSpecificOutput of events that only add
// context (UserPromptSubmit, SessionStart, SubagentStart).
type contextSpecificWire struct {
	HookEventName     *string `json:"hookEventName"`
	AdditionalContext *string `json:"additionalContext"`
}

type userPromptSubmitWire struct {
	universalWire
	Decision           *string              `json:"decision"`
	Reason             *string              `json:"reason"`
	HookSpecificOutput *contextSpecificWire `json:"hookSpecificOutput"`
}

func (w *userPromptSubmitWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	if w.Decision != nil && *w.Decision != "block" {
		return false
	}
	return w.HookSpecificOutput == nil || validEventName(w.HookSpecificOutput.HookEventName)
}

var userPromptSubmitRules = outputRules{
	invalidJSON:  "hook returned invalid user prompt submit JSON output",
	plain:        plainContext,
	exit2:        hooks.BlockWith,
	exit2Missing: "UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr",
	json:         readUserPromptSubmit,
}

// parseUserPromptSubmit is the UserPromptSubmit Parse rule.
func parseUserPromptSubmit(raw hooks.RawResult, async bool) hooks.Outcome {
	return userPromptSubmitRules.readOutput(raw, async)
}

func readUserPromptSubmit(o *hooks.Outcome, data []byte, async bool) bool {
	w, ok := decodeOutput[userPromptSubmitWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	block := w.Decision != nil
	invalid := ""
	if block && hooks.NonBlank(w.Reason) == "" {
		invalid = "UserPromptSubmit hook returned decision:block without a non-empty reason"
	}
	// A sync handler whose block is unusable loses its context too: the
	// prompt goes on, and the context was written for a blocked prompt.
	if w.HookSpecificOutput != nil && (invalid == "" || async) {
		o.AddContext(w.HookSpecificOutput.AdditionalContext)
	}
	switch {
	case !u.cont:
		hooks.StopWith(o, u.stopReason, "")
	case invalid != "":
		if !async { // an async handler completes without an error
			o.Fail(invalid)
		}
	case block:
		hooks.BlockWith(o, strings.TrimSpace(*w.Reason))
	}
	return true
}

// combineUserPromptSubmit is the UserPromptSubmit Combine rule: any
// continue:false stops with the first stopReason; the first block in
// configuration order blocks the prompt with its reason; contexts are kept
// in either case.
func combineUserPromptSubmit(res *hooks.Result, outs []hooks.Outcome) {
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if o.Block && res.Decision != hooks.DecisionBlock {
			res.Decision = hooks.DecisionBlock
			res.Reason = o.Reason
		}
	}
	if reason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue = false
		res.StopReason = reason
	}
}
