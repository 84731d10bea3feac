package hooks

import "testing"

func TestCodexMatcher_Table(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		targets []string
		want    bool
	}{
		{"empty matches all", "", []string{"Bash"}, true},
		{"star matches all", "*", []string{"anything"}, true},
		{"star matches events without a target", "*", nil, true},
		{"empty matches events without a target", "", nil, true},
		{"exact name", "Bash", []string{"Bash"}, true},
		{"exact set does not match a longer name", "Bash", []string{"BashOutput"}, false},
		{"exact set is case-sensitive", "bash", []string{"Bash"}, false},
		{"exact set with pipe", "Edit|Write", []string{"Write"}, true},
		{"exact set with pipe, other member", "Edit|Write", []string{"Edit"}, true},
		{"exact set misses", "Edit|Write", []string{"Read"}, false},
		{"mcp prefix is not exact", "mcp__memory", []string{"mcp__memory__create_entities"}, false},
		{"anchored regex is unanchored at the end", "^Bash", []string{"BashOutput"}, true},
		{"regex search", "mcp__.*__write.*", []string{"mcp__filesystem__write_file"}, true},
		{"dash makes a regex, unanchored", "code-reviewer", []string{"my-code-reviewer-2"}, true},
		{"exact matcher needs a target", "Bash", nil, false},
		{"regex needs a target", "^B", nil, false},
		{"any of several names", "Edit", []string{"apply_patch", "Edit", "Write"}, true},
		{"compact trigger manual", "manual", []string{"auto"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := CodexMatcher(tt.pattern)
			if err != nil {
				t.Fatalf("CodexMatcher(%q): %v", tt.pattern, err)
			}
			if got := m.Match(tt.targets); got != tt.want {
				t.Errorf("CodexMatcher(%q).Match(%q) = %v, want %v", tt.pattern, tt.targets, got, tt.want)
			}
		})
	}
}

func TestCodexMatcher_InvalidRegexIsAnError(t *testing.T) {
	for _, p := range []string{"[", "(Bash", "a{2,1}"} {
		if _, err := CodexMatcher(p); err == nil {
			t.Errorf("CodexMatcher(%q) = nil error, want invalid matcher", p)
		}
	}
}
