package codex

import (
	"slices"
	"testing"
)

// Codex matches the name it reports, then one-way aliases: a shell call is
// "Bash" and nothing else; apply_patch is also Edit and Write (measured on
// Codex 0.169).
func TestCodexToolNames_ReportedNameThenOneWayAliases(t *testing.T) {
	tests := []struct {
		tool      string
		names     []string
		canonical string
	}{
		{"Bash", []string{"Bash"}, "Bash"},
		{"exec_command", []string{"Bash"}, "Bash"},
		{"shell_command", []string{"Bash"}, "Bash"},
		{"write_stdin", []string{"Bash"}, "Bash"},
		{"shell", []string{"Bash"}, "Bash"},
		{"apply_patch", []string{"apply_patch", "Edit", "Write"}, "apply_patch"},
		{"Write", []string{"Write"}, "Write"},
		{"Agent", []string{"Agent"}, "Agent"},
		{"spawn_agent", []string{"spawn_agent", "Agent"}, "spawn_agent"},
		{"mcp__fs__read", []string{"mcp__fs__read"}, "mcp__fs__read"},
	}
	for _, tt := range tests {
		if got := codexToolNames(tt.tool); !slices.Equal(got, tt.names) {
			t.Errorf("codexToolNames(%q) = %q, want %q", tt.tool, got, tt.names)
		}
		if got := codexCanonicalTool(tt.tool); got != tt.canonical {
			t.Errorf("codexCanonicalTool(%q) = %q, want %q", tt.tool, got, tt.canonical)
		}
	}
}
