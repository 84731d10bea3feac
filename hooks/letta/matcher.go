package letta

import (
	"regexp"

	"github.com/hookd/hookd/hooks"
)

// Letta's matcher (matchesTool): only tool events have one. "" and "*"
// match every tool; anything else is a regex anchored at both ends,
// ^(?:pattern)$, case-sensitive, on Letta's tool name; a pattern that does
// not compile matches the tool of exactly that name. On the other events
// every group runs, whatever its matcher.

type anchored struct {
	text string
	re   *regexp.Regexp
}

func (m anchored) Match(names []string) bool {
	if len(names) == 0 {
		return true
	}
	if m.re == nil {
		return names[0] == m.text
	}
	return m.re.MatchString(names[0])
}

func compileMatcher(pattern string) (hooks.Matcher, error) {
	if pattern == "" || pattern == "*" {
		return hooks.MatchAll, nil
	}
	re, err := regexp.Compile("^(?:" + pattern + ")$")
	if err != nil {
		re = nil
	}
	return anchored{text: pattern, re: re}, nil
}
