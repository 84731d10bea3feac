package claude

import (
	"errors"
	"testing"
)

func TestClaudeMatcher_Dialect(t *testing.T) {
	for _, tc := range []struct {
		rule, pattern string
		match, miss   []string
	}{
		{"empty matches all", "", []string{"Bash", "mcp__x__y"}, nil},
		{"star matches all", "*", []string{"Bash"}, nil},
		{"blank matches all", "  ", []string{"Bash"}, nil},
		{"exact name, case-sensitive", "Bash", []string{"Bash"}, []string{"BashOutput", "bash", "MyBash"}},
		{"pipe list", "Edit|Write", []string{"Edit", "Write"}, []string{"MultiEdit", "Read"}},
		{"comma list, items trimmed", "Edit, Write ,Read", []string{"Edit", "Write", "Read"}, []string{"Edit, Write"}},
		{"hyphenated name is exact", "code-reviewer", []string{"code-reviewer"}, []string{"my-code-reviewer", "code-reviewer-2"}},
		{"name with a space is exact", "Web Fetch", []string{"Web Fetch"}, []string{"WebFetch"}},
		{"empty items are dropped", "Bash||", []string{"Bash"}, []string{""}},
		{"only separators match all", " , | ", []string{"Bash"}, nil},
		{"regex is an unanchored search", "^Bash", []string{"Bash", "BashOutput"}, []string{"MyBash"}},
		{"server-wide MCP regex", "mcp__memory__.*", []string{"mcp__memory__create_entities"}, []string{"mcp__github__x"}},
		{"bare server name is exact and matches no tool", "mcp__memory", []string{"mcp__memory"}, []string{"mcp__memory__create_entities"}},
		{"plugin agent types take the regex path", "^plugin:reviewer$", []string{"plugin:reviewer"}, []string{"plugin:reviewer2"}},
		{"JavaScript \\u escape", `\u0042ash`, []string{"Bash"}, []string{"bash"}},
		{"JavaScript \\u{} escape", `\u{42}ash`, []string{"Bash"}, nil},
		{"JavaScript [^] matches anything", `Bash[^]*`, []string{"Bash", "Bash\nx"}, nil},
		{"named groups", `(?<tool>Edit|Write)$`, []string{"MultiEdit"}, []string{"Read"}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			m, err := Matcher(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range tc.match {
				if !m.Match([]string{n}) {
					t.Errorf("%q does not match %q", tc.pattern, n)
				}
			}
			for _, n := range tc.miss {
				if m.Match([]string{n}) {
					t.Errorf("%q matches %q", tc.pattern, n)
				}
			}
		})
	}
}

func TestClaudeMatcher_LookaroundAndBackreferencesAreRefused(t *testing.T) {
	for _, p := range []string{`(?=Bash)`, `^(?!Read).*`, `(?<=mcp__)x`, `(?<!Web)Fetch`, `(a)\1`, `(?<n>a)\k<n>`} {
		_, err := Matcher(p)
		if !errors.Is(err, errJSRegexp) {
			t.Errorf("%q: got %v, want the RE2 limitation error", p, err)
		}
	}
	// Inside a class, \1 is not a backreference; an escaped paren is no group.
	for _, p := range []string{`[\1]`, `\(?=x`} {
		if _, err := Matcher(p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

func TestClaudeMatcher_InvalidRegexIsAnError(t *testing.T) {
	if _, err := Matcher(`Bash(`); err == nil || errors.Is(err, errJSRegexp) {
		t.Fatalf("got %v, want a plain compile error", err)
	}
}

func TestClaudeMatcher_StopFailureTreatsOnlyCodexCharactersAsExact(t *testing.T) {
	m, err := claudeStrictMatcher("rate_limit|overloaded")
	if err != nil || !m.Match([]string{"overloaded"}) || m.Match([]string{"rate_limit_x"}) {
		t.Fatalf("exact list: %v", err)
	}
	// A hyphen makes it a regex there: a search, so it matches inside.
	m, err = claudeStrictMatcher("server-error")
	if err != nil || !m.Match([]string{"internal-server-error"}) {
		t.Fatalf("regex: %v", err)
	}
}

func TestClaudeMatcher_FileChangedTakesLiteralFileNames(t *testing.T) {
	m, err := claudeFileMatcher(".envrc|package.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"/home/u/repo/.envrc": true, "package.json": true, "/x/package-lock.json": false, "/x/.envrc.bak": false,
	} {
		if got := m.Match([]string{name}); got != want {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	// The dot is literal, not a regex wildcard.
	if m.Match([]string{"xenvrc"}) {
		t.Error("the dot matched like a regex")
	}
}
