package codex

import (
	"strings"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// PreToolUse runs before a tool call. A handler may block the call (deny with
// a reason, the legacy decision:block, or exit 2), rewrite its input (allow
// with updatedInput) and add context. Everything Codex parses but does not
// support fails the handler, so that a hook written for Claude Code's richer
// PreToolUse does not silently do nothing.

type preToolUseWire struct {
	universalWire
	Decision           *string                 `json:"decision"`
	Reason             *string                 `json:"reason"`
	HookSpecificOutput *preToolUseSpecificWire `json:"hookSpecificOutput"`
}

type preToolUseSpecificWire struct {
	HookEventName            *string         `json:"hookEventName"`
	PermissionDecision       *string         `json:"permissionDecision"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage `json:"updatedInput"`
	AdditionalContext        *string         `json:"additionalContext"`
}

func (w *preToolUseWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	if w.Decision != nil && *w.Decision != "approve" && *w.Decision != "block" {
		return false
	}
	if h := w.HookSpecificOutput; h != nil {
		if !validEventName(h.HookEventName) {
			return false
		}
		if d := h.PermissionDecision; d != nil && *d != "allow" && *d != "deny" && *d != "ask" {
			return false
		}
	}
	return true
}

var preToolUseRules = outputRules{
	invalidJSON:  "hook returned invalid pre-tool-use JSON output",
	exit2:        hooks.BlockWith,
	exit2Missing: "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr",
	json:         readPreToolUse,
}

// parsePreToolUse is the PreToolUse Parse rule.
func parsePreToolUse(raw hooks.RawResult, async bool) hooks.Outcome {
	return preToolUseRules.readOutput(raw, async)
}

func readPreToolUse(o *hooks.Outcome, data []byte, async bool) bool {
	w, ok := decodeOutput[preToolUseWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	h := w.HookSpecificOutput

	invalid := preToolUseInvalid(w, u)
	if h != nil && (invalid == "" || async) {
		o.AddContext(h.AdditionalContext)
	}
	if invalid != "" {
		// An async handler's output is never control: one that would be
		// invalid as control completes without an error, keeping its
		// context, as in Codex.
		if !async {
			o.Fail(invalid)
		}
		return true
	}
	if preToolUseSpecificPath(h) {
		switch *h.PermissionDecision {
		case "deny":
			hooks.BlockWith(o, strings.TrimSpace(*h.PermissionDecisionReason))
		case "allow":
			// Any JSON object is accepted here: the tool name is not part of
			// the raw result, so the engine checks the tool-specific shape
			// (Bash and apply_patch need a string "command").
			o.UpdatedInput = append(json.RawMessage(nil), h.UpdatedInput...)
		}
		return true
	}
	if w.Decision != nil && *w.Decision == "block" {
		hooks.BlockWith(o, strings.TrimSpace(*w.Reason))
	}
	return true
}

// preToolUseSpecificPath reports whether the hook-specific decision fields
// decide; otherwise the legacy top-level decision/reason do.
func preToolUseSpecificPath(h *preToolUseSpecificWire) bool {
	return h != nil && (h.PermissionDecision != nil || h.PermissionDecisionReason != nil || present(h.UpdatedInput))
}

// preToolUseInvalid returns why a well-formed output still fails the
// handler, in Codex's order and words, or "" when it is usable.
func preToolUseInvalid(w *preToolUseWire, u universal) string {
	switch {
	case !u.cont:
		return "PreToolUse hook returned unsupported continue:false"
	case u.stopReason != nil:
		return "PreToolUse hook returned unsupported stopReason"
	case u.suppressOutput:
		return "PreToolUse hook returned unsupported suppressOutput"
	}
	if h := w.HookSpecificOutput; preToolUseSpecificPath(h) {
		decision := ""
		if h.PermissionDecision != nil {
			decision = *h.PermissionDecision
		}
		switch {
		case present(h.UpdatedInput) && decision != "allow":
			return "PreToolUse hook returned updatedInput without permissionDecision:allow"
		case decision == "allow" && !present(h.UpdatedInput):
			return "PreToolUse hook returned unsupported permissionDecision:allow"
		case decision == "allow" && !isJSONObject(h.UpdatedInput):
			return "PreToolUse hook returned updatedInput that is not a JSON object"
		case decision == "ask":
			return "PreToolUse hook returned unsupported permissionDecision:ask"
		case decision == "deny" && hooks.NonBlank(h.PermissionDecisionReason) == "":
			return "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"
		case decision == "" && h.PermissionDecisionReason != nil:
			return "PreToolUse hook returned permissionDecisionReason without permissionDecision"
		}
		return ""
	}
	switch {
	case w.Decision == nil && w.Reason != nil:
		return "PreToolUse hook returned reason without decision"
	case w.Decision == nil:
		return ""
	case *w.Decision == "approve":
		return "PreToolUse hook returned unsupported decision:approve"
	case hooks.NonBlank(w.Reason) == "":
		return "PreToolUse hook returned decision:block without a non-empty reason"
	}
	return ""
}

// isJSONObject reports whether raw holds a JSON object. The spec allows only
// object-shaped rewrites: they replace a tool's whole argument object.
func isJSONObject(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s[0] == '{'
}

// combinePreToolUse is the PreToolUse Combine rule: the first block in
// configuration order denies the call; otherwise the rewrite of the handler
// that finished last allows it with its whole updatedInput (rewrites are
// never merged field by field, and a block drops every rewrite). Contexts
// stay even when the call is denied: the model is told why.
func combinePreToolUse(res *hooks.Result, outs []hooks.Outcome) {
	var rewrite *hooks.Outcome
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if o.Block && res.Decision != hooks.DecisionDeny {
			res.Decision = hooks.DecisionDeny
			res.Reason = o.Reason
		}
		// >= so that, without completion numbers, configuration order decides.
		if o.UpdatedInput != nil && (rewrite == nil || o.Finished >= rewrite.Finished) {
			rewrite = o
		}
	}
	if res.Decision != hooks.DecisionDeny && rewrite != nil {
		res.Decision = hooks.DecisionAllow
		res.UpdatedInput = rewrite.UpdatedInput
	}
}
