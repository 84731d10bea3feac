package hooks

// SessionEnd runs when the session ends. Its output is informational and
// ignored entirely, even control JSON: nothing is left to control. A failure
// carries the handler's stderr, else its exit code.

var sessionEndRules = outputRules{
	lifecycle:    true,
	ignoreStdout: true,
}

// parseSessionEnd is the SessionEnd Parse rule.
func parseSessionEnd(raw RawResult, async bool) Outcome {
	return sessionEndRules.readOutput(raw, async)
}

// combineSessionEnd is the SessionEnd Combine rule: there is nothing to
// combine.
func combineSessionEnd(*Result, []Outcome) {}
