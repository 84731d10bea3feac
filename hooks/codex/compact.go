package codex

import "github.com/hookd/hookd/hooks"

// PreCompact runs before the conversation is compacted, PostCompact after.
// They take the universal fields only; continue:false stops the compaction
// (pre) or the turn after it (post). Codex reports their failures with the
// handler's stderr when there is any, as these hooks are mostly scripts whose
// only useful diagnostic is what they printed.

type compactWire struct {
	universalWire
}

func (w *compactWire) valid() bool {
	_, ok := w.read()
	return ok
}

var (
	preCompactRules = outputRules{
		invalidJSON: "hook returned invalid PreCompact hook JSON output",
		lifecycle:   true,
		json: func(o *hooks.Outcome, data []byte, _ bool) bool {
			return readCompact(o, data, "PreCompact hook stopped execution")
		},
	}
	postCompactRules = outputRules{
		invalidJSON: "hook returned invalid PostCompact hook JSON output",
		lifecycle:   true,
		json: func(o *hooks.Outcome, data []byte, _ bool) bool {
			return readCompact(o, data, "PostCompact hook stopped execution")
		},
	}
)

// parsePreCompact is the PreCompact Parse rule.
func parsePreCompact(raw hooks.RawResult, async bool) hooks.Outcome {
	return preCompactRules.readOutput(raw, async)
}

// parsePostCompact is the PostCompact Parse rule.
func parsePostCompact(raw hooks.RawResult, async bool) hooks.Outcome {
	return postCompactRules.readOutput(raw, async)
}

// readCompact reads both compact events; stopped is the stop reason when a
// continue:false gives none, so the host always has a text to show.
func readCompact(o *hooks.Outcome, data []byte, stopped string) bool {
	w, ok := decodeOutput[compactWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	if !u.cont {
		hooks.StopWith(o, u.stopReason, stopped)
	}
	return true
}

// combineCompact is the PreCompact and PostCompact Combine rule: any
// continue:false stops, with the first stop reason in configuration order.
func combineCompact(res *hooks.Result, outs []hooks.Outcome) {
	hooks.CombineAsync(res, outs)
	if reason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue = false
		res.StopReason = reason
	}
}
