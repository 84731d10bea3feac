package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// longFlagsWithOneDash rewrites -name to --name for the long flags of the
// command being run: hookd used Go's flag package, where -input and --input
// are the same flag, and scripts written for it keep working.
func longFlagsWithOneDash(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		cmd = root
	}
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 && !shorthands(cmd, name) {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

// shorthands reports whether every letter of s is a one-letter flag of cmd
// (-vh), which pflag reads as a cluster.
func shorthands(cmd *cobra.Command, s string) bool {
	for _, r := range s {
		if cmd.Flags().ShorthandLookup(string(r)) == nil && cmd.InheritedFlags().ShorthandLookup(string(r)) == nil {
			return false
		}
	}
	return true
}
