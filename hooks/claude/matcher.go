package claude

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// Claude Code's matcher dialect (reference/claude-hooks.md A.3, takeaway 2):
//
//   - "", "*" (and a matcher of only spaces and separators): every target;
//   - only ASCII letters, digits, '_', '-', ' ', ',' and '|': a list of exact,
//     case-sensitive names split on '|' or ',', each trimmed of spaces
//     ("Edit, Write" is Edit or Write; "code-reviewer" is that name only);
//   - anything else: a JavaScript regular expression, tested unanchored.
//
// hookd runs the regular expression with Go's RE2, which is JavaScript's
// syntax for everything a matcher needs but lookaround and backreferences.
// Those have no RE2 equivalent, so a matcher using them is refused with a
// warning that says so and its group is skipped; it never silently matches
// something else. JavaScript's \uXXXX and \u{X} escapes and [^] are
// translated.

// Matcher compiles a matcher the way Claude Code does.
func Matcher(pattern string) (hooks.Matcher, error) {
	if pattern == "*" || strings.TrimSpace(pattern) == "" {
		return hooks.MatchAll, nil
	}
	if onlyBytes(pattern, "_- ,|") {
		return claudeNameList(pattern, "|,"), nil
	}
	return claudeRegexp(pattern)
}

// claudeStrictMatcher is the dialect of StopFailure: only letters, digits,
// '_' and '|' make an exact list; anything else is a JavaScript regex.
func claudeStrictMatcher(pattern string) (hooks.Matcher, error) {
	if pattern == "*" || pattern == "" {
		return hooks.MatchAll, nil
	}
	if hooks.IsExactSet(pattern) {
		return claudeNameList(pattern, "|"), nil
	}
	return claudeRegexp(pattern)
}

// claudeFileMatcher is the dialect of FileChanged: literal file names split
// on '|' (they also form the host's watch list). A name matches the changed
// file's path or its base name.
func claudeFileMatcher(pattern string) (hooks.Matcher, error) {
	if pattern == "*" || strings.TrimSpace(pattern) == "" {
		return hooks.MatchAll, nil
	}
	names, ok := claudeNameList(pattern, "|").(hooks.ExactSet)
	if !ok {
		return hooks.MatchAll, nil
	}
	return fileNames(names), nil
}

// onlyBytes reports whether p holds only ASCII letters, digits and the bytes
// of extra.
func onlyBytes(p, extra string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

// claudeNameList splits a list on any of seps, trims each item and drops
// empty ones. A list with no names left matches everything, like "".
func claudeNameList(pattern, seps string) hooks.Matcher {
	var names hooks.ExactSet
	for _, n := range strings.FieldsFunc(pattern, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return hooks.MatchAll
	}
	return names
}

// fileNames matches a path by its whole text or its base name.
type fileNames hooks.ExactSet

func (f fileNames) Match(names []string) bool {
	for _, n := range names {
		if hooks.ExactSet(f).Match([]string{n, filepath.Base(n)}) {
			return true
		}
	}
	return false
}

// errJSRegexp marks a JavaScript regex feature RE2 cannot run.
var errJSRegexp = errors.New("hookd runs matchers with Go's RE2 engine, which has no lookaround or backreferences; this group is skipped (rewrite the matcher without them, or list the names exactly)")

// claudeRegexp compiles a JavaScript regex as an unanchored RE2 search.
func claudeRegexp(pattern string) (hooks.Matcher, error) {
	src, err := jsToRE2(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid matcher %q: %w", pattern, err)
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("invalid matcher %q: %w", pattern, err)
	}
	return hooks.RegexMatcher{Re: re}, nil
}

// jsToRE2 rewrites the JavaScript-only spellings RE2 can express and refuses
// the features it cannot (lookahead, lookbehind, backreferences).
func jsToRE2(p string) (string, error) {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			next := p[i+1]
			switch {
			case !inClass && next >= '1' && next <= '9':
				return "", fmt.Errorf("backreference \\%c: %w", next, errJSRegexp)
			case inClass && next >= '0' && next <= '7':
				// A legacy octal escape inside a class: [\1] is U+0001.
				n, v := 0, 0
				for n < 3 && i+1+n < len(p) && p[i+1+n] >= '0' && p[i+1+n] <= '7' {
					v = v*8 + int(p[i+1+n]-'0')
					n++
				}
				fmt.Fprintf(&b, `\x{%x}`, v)
				i += n
			case !inClass && next == 'k' && i+2 < len(p) && p[i+2] == '<':
				return "", fmt.Errorf("named backreference \\k<...>: %w", errJSRegexp)
			case next == 'u' && i+2 < len(p) && p[i+2] == '{':
				// \u{1F600}
				end := strings.IndexByte(p[i+3:], '}')
				if end < 0 || !isHex(p[i+3:i+3+end]) {
					return "", fmt.Errorf("malformed \\u{...} escape")
				}
				b.WriteString(`\x{` + p[i+3:i+3+end] + `}`)
				i += 3 + end
			case next == 'u' && i+6 <= len(p) && isHex(p[i+2:i+6]):
				b.WriteString(`\x{` + p[i+2:i+6] + `}`)
				i += 5
			default:
				b.WriteByte(c)
				b.WriteByte(next)
				i++
			}
		case inClass:
			if c == ']' {
				inClass = false
			}
			b.WriteByte(c)
		case c == '[':
			if strings.HasPrefix(p[i:], "[^]") {
				// JavaScript's "any character, newlines too".
				b.WriteString(`[\s\S]`)
				i += 2
				continue
			}
			inClass = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal in RE2; JavaScript
			// reads "[]" as an empty class, which RE2 cannot express.
			if strings.HasPrefix(p[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
		case c == '(' && strings.HasPrefix(p[i:], "(?="):
			return "", fmt.Errorf("lookahead (?=...): %w", errJSRegexp)
		case c == '(' && strings.HasPrefix(p[i:], "(?!"):
			return "", fmt.Errorf("negative lookahead (?!...): %w", errJSRegexp)
		case c == '(' && strings.HasPrefix(p[i:], "(?<="):
			return "", fmt.Errorf("lookbehind (?<=...): %w", errJSRegexp)
		case c == '(' && strings.HasPrefix(p[i:], "(?<!"):
			return "", fmt.Errorf("negative lookbehind (?<!...): %w", errJSRegexp)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
