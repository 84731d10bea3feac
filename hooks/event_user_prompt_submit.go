package hooks

import "strings"

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
	exit2:        blockWith,
	exit2Missing: "UserPromptSubmit hook exited with code 2 but did not write a blocking reason to stderr",
	json:         readUserPromptSubmit,
}

// parseUserPromptSubmit is the UserPromptSubmit Parse rule.
func parseUserPromptSubmit(raw RawResult, async bool) Outcome {
	return userPromptSubmitRules.readOutput(raw, async)
}

func readUserPromptSubmit(o *Outcome, data []byte, async bool) bool {
	w, ok := decodeOutput[userPromptSubmitWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	block := w.Decision != nil
	invalid := ""
	if block && nonBlank(w.Reason) == "" {
		invalid = "UserPromptSubmit hook returned decision:block without a non-empty reason"
	}
	// A sync handler whose block is unusable loses its context too: the
	// prompt goes on, and the context was written for a blocked prompt.
	if w.HookSpecificOutput != nil && (invalid == "" || async) {
		o.addContext(w.HookSpecificOutput.AdditionalContext)
	}
	switch {
	case !u.cont:
		stopWith(o, u.stopReason, "")
	case invalid != "":
		o.fail(invalid)
	case block:
		blockWith(o, strings.TrimSpace(*w.Reason))
	}
	return true
}

// stopWith records continue:false. def is the stop reason when the hook gave
// none (the compact events have a fixed text).
func stopWith(o *Outcome, stopReason *string, def string) {
	o.Stop = true
	o.StopReason = def
	if s := nonBlank(stopReason); s != "" {
		o.StopReason = *stopReason
	}
}

// combineUserPromptSubmit is the UserPromptSubmit Combine rule: any
// continue:false stops with the first stopReason; the first block in
// configuration order blocks the prompt with its reason; contexts are kept
// in either case.
func combineUserPromptSubmit(res *Result, outs []Outcome) {
	for i := range outs {
		o := &outs[i]
		addMessages(res, o)
		if o.Block && res.Decision != DecisionBlock {
			res.Decision = DecisionBlock
			res.Reason = o.Reason
		}
	}
	if reason, stopped := firstStopReason(outs); stopped {
		res.Continue = false
		res.StopReason = reason
	}
}
