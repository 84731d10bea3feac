package codex

import "github.com/hookd/hookd/hooks"

// SessionEnd runs when the session ends. Its output is informational and
// ignored entirely, even control JSON: nothing is left to control. A failure
// carries the handler's stderr, else its exit code.

var sessionEndRules = outputRules{
	lifecycle:    true,
	ignoreStdout: true,
}

// parseSessionEnd is the SessionEnd Parse rule.
func parseSessionEnd(raw hooks.RawResult, async bool) hooks.Outcome {
	return sessionEndRules.readOutput(raw, async)
}

// combineSessionEnd is the SessionEnd Combine rule: there is nothing to
// combine.
func combineSessionEnd(*hooks.Result, []hooks.Outcome) {}
