package codex

import (
	"strings"

	"github.com/hookd/hookd/hooks"
)

// Stop runs when the agent is about to end its turn; SubagentStop when a
// subagent is. A block does not refuse anything: its reason becomes the next
// user prompt, so the agent keeps working. A continue:false from any handler
// beats every block, or two hooks could keep an agent looping against a hook
// that wants it to stop.

type stopWire struct {
	universalWire
	Decision *string `json:"decision"`
	Reason   *string `json:"reason"`
}

func (w *stopWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	return w.Decision == nil || *w.Decision == "block"
}

var (
	stopRules = outputRules{
		invalidJSON:  "hook returned invalid stop hook JSON output",
		plain:        plainInvalid,
		exit2:        hooks.BlockWith,
		exit2Missing: "Stop hook exited with code 2 but did not write a continuation prompt to stderr",
		json: func(o *hooks.Outcome, data []byte, async bool) bool {
			return readStop(o, data, async, "Stop hook returned decision:block without a non-empty reason")
		},
	}
	subagentStopRules = outputRules{
		invalidJSON:  "hook returned invalid subagent stop hook JSON output",
		plain:        plainInvalid,
		exit2:        hooks.BlockWith,
		exit2Missing: "SubagentStop hook exited with code 2 but did not write a continuation prompt to stderr",
		json: func(o *hooks.Outcome, data []byte, async bool) bool {
			return readStop(o, data, async, "SubagentStop hook returned decision:block without a non-empty reason")
		},
	}
)

// parseStop is the Stop Parse rule.
func parseStop(raw hooks.RawResult, async bool) hooks.Outcome {
	return stopRules.readOutput(raw, async)
}

// parseSubagentStop is the SubagentStop Parse rule.
func parseSubagentStop(raw hooks.RawResult, async bool) hooks.Outcome {
	return subagentStopRules.readOutput(raw, async)
}

// readStop reads both stop events; noReason is the event's failure for a
// block without a usable reason.
func readStop(o *hooks.Outcome, data []byte, async bool, noReason string) bool {
	w, ok := decodeOutput[stopWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	switch {
	case !u.cont:
		hooks.StopWith(o, u.stopReason, "")
	case w.Decision == nil:
	case hooks.NonBlank(w.Reason) == "":
		// A blank reason would be an empty continuation prompt; an async
		// handler, never control, completes without an error.
		if !async {
			o.Fail(noReason)
		}
	default:
		hooks.BlockWith(o, strings.TrimSpace(*w.Reason))
	}
	return true
}

// combineStop is the Stop and SubagentStop Combine rule: any continue:false
// stops with the first stopReason and nothing blocks; otherwise every block
// reason, in configuration order, joins into the continuation prompt.
func combineStop(res *hooks.Result, outs []hooks.Outcome) {
	hooks.CombineAsync(res, outs)
	if reason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue = false
		res.StopReason = reason
		return
	}
	var reasons []string
	for i := range outs {
		if outs[i].Block {
			reasons = append(reasons, outs[i].Reason)
		}
	}
	if len(reasons) > 0 {
		res.Decision = hooks.DecisionBlock
		res.Reason = strings.Join(reasons, "\n\n")
		res.Continuation = res.Reason
	}
}
