package hooks

import (
	"fmt"
	"regexp"
	"strings"
)

// A Matcher decides whether a matcher group applies to an event's match target.
type Matcher interface {
	// Match reports whether any of the names matches. names is empty when the
	// event input has no match target.
	Match(names []string) bool
}

type matchAll struct{}

func (matchAll) Match([]string) bool { return true }

// ExactSet matches names equal to one of its members.
type ExactSet []string

func (s ExactSet) Match(names []string) bool {
	for _, n := range names {
		for _, m := range s {
			if n == m {
				return true
			}
		}
	}
	return false
}

// RegexMatcher is an unanchored search.
type RegexMatcher struct{ Re *regexp.Regexp }

func (r RegexMatcher) Match(names []string) bool {
	for _, n := range names {
		if r.Re.MatchString(n) {
			return true
		}
	}
	return false
}

// MatchAll matches every target, and events with no target.
var MatchAll Matcher = matchAll{}

// CodexMatcher compiles a matcher the way Codex does: "", "*" match all; text of
// only ASCII letters, digits, '_' and '|' is an exact, case-sensitive set split
// on '|'; anything else is an unanchored RE2 search.
func CodexMatcher(pattern string) (Matcher, error) {
	if pattern == "" || pattern == "*" {
		return MatchAll, nil
	}
	if IsExactSet(pattern) {
		return ExactSet(strings.Split(pattern, "|")), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid matcher %q: %w", pattern, err)
	}
	return RegexMatcher{re}, nil
}

// IsExactSet reports whether a matcher is a plain name list ("Bash|Write"),
// matched by equality rather than as a regex.
func IsExactSet(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '|':
		default:
			return false
		}
	}
	return true
}
