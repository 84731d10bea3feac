package hooks

// What hookd check and hookd explain need to know about a compiled matcher,
// whatever the profile's dialect.

// CompileMatcherFor compiles pattern in the dialect ev uses under p (the event's
// own when it has one, else the profile's), as discovery does.
func (p *Profile) CompileMatcherFor(ev *EventRules, pattern string) (Matcher, error) {
	if ev != nil && ev.CompileMatcher != nil {
		return ev.CompileMatcher(pattern)
	}
	if p.CompileMatcher == nil {
		return CodexMatcher(pattern)
	}
	return p.CompileMatcher(pattern)
}

// ExactNames returns the names of a matcher that is an exact, case-sensitive
// list ("Edit|Write"), and false for one that matches all or is a regular
// expression.
func ExactNames(m Matcher) ([]string, bool) {
	if s, ok := m.(ExactSet); ok {
		return []string(s), true
	}
	return nil, false
}

// IsMatchAll reports whether m is the explicit match-everything matcher
// ("", "*").
func IsMatchAll(m Matcher) bool { return m == MatchAll }
