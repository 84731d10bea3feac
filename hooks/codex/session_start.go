package codex

import "github.com/hookd/hookd/hooks"

// SessionStart runs when a session starts, resumes, is cleared or was just
// compacted; SubagentStart when a subagent starts. Both only add context
// (plain stdout or additionalContext) and messages. SessionStart may also stop
// the turn from starting with continue:false; SubagentStart parses it for
// compatibility but never stops a subagent.

type sessionStartWire struct {
	universalWire
	HookSpecificOutput *contextSpecificWire `json:"hookSpecificOutput"`
}

func (w *sessionStartWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	return w.HookSpecificOutput == nil || validEventName(w.HookSpecificOutput.HookEventName)
}

var (
	sessionStartRules = outputRules{
		invalidJSON: "hook returned invalid session start JSON output",
		plain:       plainContext,
		json:        func(o *hooks.Outcome, data []byte, _ bool) bool { return readSessionStart(o, data, true) },
	}
	subagentStartRules = outputRules{
		invalidJSON: "hook returned invalid subagent start JSON output",
		plain:       plainContext,
		json:        func(o *hooks.Outcome, data []byte, _ bool) bool { return readSessionStart(o, data, false) },
	}
)

// parseSessionStart is the SessionStart Parse rule.
func parseSessionStart(raw hooks.RawResult, async bool) hooks.Outcome {
	return sessionStartRules.readOutput(raw, async)
}

// parseSubagentStart is the SubagentStart Parse rule.
func parseSubagentStart(raw hooks.RawResult, async bool) hooks.Outcome {
	return subagentStartRules.readOutput(raw, async)
}

// readSessionStart reads both start events; canStop is false for
// SubagentStart, which ignores continue:false.
func readSessionStart(o *hooks.Outcome, data []byte, canStop bool) bool {
	w, ok := decodeOutput[sessionStartWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	if w.HookSpecificOutput != nil {
		o.AddContext(w.HookSpecificOutput.AdditionalContext)
	}
	if canStop && !u.cont {
		hooks.StopWith(o, u.stopReason, "")
	}
	return true
}

// combineSessionStart is the SessionStart Combine rule: any continue:false
// stops with the first stopReason, and the contexts are still kept for the
// next turn.
func combineSessionStart(res *hooks.Result, outs []hooks.Outcome) {
	hooks.CombineAsync(res, outs)
	if reason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue = false
		res.StopReason = reason
	}
}

// combineSubagentStart is the SubagentStart Combine rule: context and
// messages only.
func combineSubagentStart(res *hooks.Result, outs []hooks.Outcome) { hooks.CombineAsync(res, outs) }
