package codex

import (
	"slices"
	"testing"
)

func TestCodexToolNames_AliasGroups(t *testing.T) {
	tests := []struct {
		tool      string
		names     []string
		canonical string
	}{
		{"Bash", []string{"Bash", "shell_command", "exec_command", "write_stdin", "shell"}, "Bash"},
		{"exec_command", []string{"exec_command", "Bash", "shell_command", "write_stdin", "shell"}, "Bash"},
		{"apply_patch", []string{"apply_patch", "Edit", "Write"}, "apply_patch"},
		{"Write", []string{"Write", "apply_patch", "Edit"}, "Write"},
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
