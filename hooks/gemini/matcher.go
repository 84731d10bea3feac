package gemini

import (
	"regexp"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// Gemini CLI's matchers (reference/other-hosts.md 1.2 and 1.6): the text is
// trimmed; empty or "*" matches everything. On tool events the rest is an
// unanchored, case-sensitive regex (JavaScript's; hookd runs it with Go's
// RE2, so lookaround and backreferences fall back as an invalid regex does):
// a regex that does not compile matches by equality. On SessionStart,
// SessionEnd and PreCompress the text must equal the target.

// toolMatcher compiles a tool event's matcher. It never fails: what is not a
// regex is a literal name.
func toolMatcher(pattern string) (hooks.Matcher, error) {
	p := strings.TrimSpace(pattern)
	if p == "" || p == "*" {
		return hooks.MatchAll, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return hooks.ExactSet{p}, nil
	}
	return hooks.RegexMatcher{Re: re}, nil
}

// exactMatcher compiles a lifecycle event's matcher: the whole target.
func exactMatcher(pattern string) (hooks.Matcher, error) {
	p := strings.TrimSpace(pattern)
	if p == "" || p == "*" {
		return hooks.MatchAll, nil
	}
	return hooks.ExactSet{p}, nil
}
