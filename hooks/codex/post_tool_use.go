package codex

import (
	"strings"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// PostToolUse runs after a tool succeeded. Nothing can undo the call, so a
// handler can only replace what the model sees of the result (a block reason,
// exit-2 stderr, or the text of a continue:false) and add context.

type postToolUseWire struct {
	universalWire
	Decision           *string                  `json:"decision"`
	Reason             *string                  `json:"reason"`
	HookSpecificOutput *postToolUseSpecificWire `json:"hookSpecificOutput"`
}

type postToolUseSpecificWire struct {
	HookEventName        *string         `json:"hookEventName"`
	AdditionalContext    *string         `json:"additionalContext"`
	UpdatedMCPToolOutput json.RawMessage `json:"updatedMCPToolOutput"`
}

func (w *postToolUseWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	if w.Decision != nil && *w.Decision != "block" {
		return false
	}
	return w.HookSpecificOutput == nil || validEventName(w.HookSpecificOutput.HookEventName)
}

// postToolUseStopped is the feedback of a continue:false with neither reason
// nor stopReason.
const postToolUseStopped = "PostToolUse hook stopped execution"

var postToolUseRules = outputRules{
	invalidJSON:  "hook returned invalid post-tool-use JSON output",
	exit2:        feedbackBlock,
	exit2Missing: "PostToolUse hook exited with code 2 but did not write feedback to stderr",
	json: func(o *hooks.Outcome, data []byte, async bool) bool {
		return readPostToolUse(o, data, async, false)
	},
}

// parsePostToolUse is the PostToolUse Parse rule.
func parsePostToolUse(raw hooks.RawResult, async bool) hooks.Outcome {
	return postToolUseRules.readOutput(raw, async)
}

// StoppingPostToolUse returns PostToolUse Parse and Combine rules in which
// continue:false also stops the turn: spec 000's reading ("marks the hook
// stopped"), which Mind follows. Codex's own rules let the turn go on.
func StoppingPostToolUse() (parse func(hooks.RawResult, bool) hooks.Outcome, combine func(*hooks.Result, []hooks.Outcome)) {
	rules := postToolUseRules
	rules.json = func(o *hooks.Outcome, data []byte, async bool) bool {
		return readPostToolUse(o, data, async, true)
	}
	parse = func(raw hooks.RawResult, async bool) hooks.Outcome { return rules.readOutput(raw, async) }
	combine = func(res *hooks.Result, outs []hooks.Outcome) {
		combinePostToolUse(res, outs)
		if reason, stopped := hooks.FirstStopReason(outs); stopped {
			res.Continue = false
			res.StopReason = reason
		}
	}
	return parse, combine
}

// feedbackBlock records a block whose reason replaces the tool result.
func feedbackBlock(o *hooks.Outcome, reason string) {
	hooks.BlockWith(o, reason)
	o.Feedback = reason
}

func readPostToolUse(o *hooks.Outcome, data []byte, async, stops bool) bool {
	w, ok := decodeOutput[postToolUseWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	invalid := postToolUseInvalid(w, u)
	if w.HookSpecificOutput != nil && (invalid == "" || async) {
		o.AddContext(w.HookSpecificOutput.AdditionalContext)
	}
	switch {
	case !u.cont:
		// continue:false replaces the tool result like a block, and the turn
		// goes on from that feedback: Codex asks the model again (measured
		// on Codex 0.169; spec 003 says the same). It is honoured even when
		// the rest of the output breaks a rule: the hook clearly asked that
		// the model not see the result.
		text := hooks.NonBlank(u.stopReason)
		if text == "" {
			text = postToolUseStopped
		}
		if reason := hooks.NonBlank(w.Reason); reason != "" {
			text = reason
		}
		if !stops {
			feedbackBlock(o, text)
			break
		}
		o.Stop, o.Feedback = true, text
		if u.stopReason != nil && hooks.NonBlank(u.stopReason) != "" {
			o.StopReason = *u.stopReason
		}
	case invalid != "":
		if !async { // an async handler completes without an error
			o.Fail(invalid)
		}
	case w.Decision != nil:
		feedbackBlock(o, strings.TrimSpace(*w.Reason))
	}
	return true
}

// postToolUseInvalid returns why a well-formed output still fails the
// handler, in Codex's order and words, or "".
func postToolUseInvalid(w *postToolUseWire, u universal) string {
	switch {
	case u.suppressOutput:
		return "PostToolUse hook returned unsupported suppressOutput"
	case w.HookSpecificOutput != nil && present(w.HookSpecificOutput.UpdatedMCPToolOutput):
		return "PostToolUse hook returned unsupported updatedMCPToolOutput"
	case w.Decision != nil && hooks.NonBlank(w.Reason) == "":
		return "PostToolUse hook returned decision:block without a non-empty reason"
	case w.Decision == nil && u.cont && w.Reason != nil:
		return "PostToolUse hook returned reason without decision"
	}
	return ""
}

// combinePostToolUse is the PostToolUse Combine rule: any block blocks the
// result; every feedback text (block reasons, exit-2 stderr, stop texts) is
// kept, in configuration order, joined by a blank line. continue:false is a
// block too: the turn goes on from the feedback, so the result never stops.
func combinePostToolUse(res *hooks.Result, outs []hooks.Outcome) {
	var feedback []string
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if o.Block {
			res.Decision = hooks.DecisionBlock
		}
		if o.Feedback != "" {
			feedback = append(feedback, o.Feedback)
		}
	}
	res.Feedback = strings.Join(feedback, "\n\n")
}
