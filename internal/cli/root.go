// Command hookd runs coding-agent lifecycle hooks for a host: as a JSON-RPC
// sidecar (hookd serve) or once from the command line (hookd run).
//
// main.go builds the command tree (github.com/spf13/cobra: it gives
// suggestions for mistyped commands, help and shell completion) and turns
// every failure into one error line and a hint; each cmd_*.go file is one
// subcommand.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// exitError ends a command with a given exit code and nothing more to say
// (the command already printed its outcome): hookd run's 2, hookd test's 1.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// usageError is a command-line mistake: it is printed with a hint naming the
// command's help.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// cmdIO is what a command reads and writes: the process's, or a test's.
type cmdIO struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cio := &cmdIO{stdin: stdin, stdout: stdout, stderr: stderr}
	root := newRootCmd(cio)
	args = longFlagsWithOneDash(root, args)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if cmd == nil {
		cmd = root
	}
	// "hookd run: ..." names the command that failed; the help command's
	// own errors are about the topic, not about help.
	who := cmd.CommandPath()
	if cmd.Name() == "help" {
		who = "hookd"
	}
	fmt.Fprintf(stderr, "%s: %v\n", who, err)
	if hint := errorHint(cmd, err); hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	return 1
}

// errorHint is the line after an error: where the help is.
func errorHint(cmd *cobra.Command, err error) string {
	var ue usageError
	switch {
	case errors.As(err, &ue), isCobraUsageError(err):
		if cmd.HasParent() && cmd.Name() != "help" {
			return fmt.Sprintf("Run 'hookd help %s' for usage.", strings.TrimPrefix(cmd.CommandPath(), "hookd "))
		}
		return "Run 'hookd help' for usage."
	}
	return ""
}

// isCobraUsageError tells cobra's own argument errors (unknown command,
// wrong count) from a command's failure.
func isCobraUsageError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "accepts ") ||
		strings.HasPrefix(msg, "requires at least") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag")
}

func newRootCmd(cio *cmdIO) *cobra.Command {
	so := &serveOpts{}
	root := &cobra.Command{
		Use:   "hookd",
		Short: "Run coding-agent lifecycle hooks (Codex, Claude Code and others)",
		Long: `hookd runs coding-agent lifecycle hooks (Codex, Claude Code and others).

Without a command it is "hookd serve": a JSON-RPC 2.0 sidecar on stdin/stdout,
what hosts spawn. The other commands are for hook authors and users.

Exit codes of run: 0 nothing blocks, 2 the outcome denies or blocks, 1 error.`,
		Version:       hookdVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return serve(cmd, so, cio)
		},
	}
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usagef("unknown command %q%s", args[0], didYouMean(args[0], commandNames(root)))
		}
		return nil
	}
	root.SetVersionTemplate("hookd {{.Version}}\n")
	root.SetIn(cio.stdin)
	root.SetOut(cio.stdout)
	root.SetErr(cio.stderr)
	root.CompletionOptions.HiddenDefaultCmd = false
	// Serve's flags work without the word serve: hosts spawn "hookd --framing jsonl".
	so.register(root.Flags())
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(
		newServeCmd(cio),
		newRunCmd(cio),
		newListCmd(cio),
		newTrustCmd(cio),
		newSetEnabledCmd(cio, true),
		newSetEnabledCmd(cio, false),
		newTestCmd(cio),
		newCheckCmd(cio),
		newEventCmd(cio),
		newExplainCmd(cio),
		newReplayCmd(cio),
		&cobra.Command{
			Use:   "version",
			Short: "Print the version",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				fmt.Fprintf(cio.stdout, "hookd %s\n", hookdVersion())
				return nil
			},
		},
	)
	root.SetHelpCommand(newHelpCmd(root))
	for _, c := range append(root.Commands(), root) {
		c.SilenceUsage, c.SilenceErrors = true, true
		if c.Flags().Lookup("profile") != nil {
			_ = c.RegisterFlagCompletionFunc("profile", completeProfiles)
		}
	}
	return root
}

// completeProfiles completes --profile with the linked profiles.
func completeProfiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return sortedProfiles(), cobra.ShellCompDirectiveNoFileComp
}

// newHelpCmd is "hookd help [COMMAND]": unlike cobra's own, an unknown topic
// is an error with a suggestion, not the general help and exit 0.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Show help for hookd or one command",
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			for _, c := range root.Commands() {
				if c.IsAvailableCommand() {
					names = append(names, c.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				topic := strings.Join(args, " ")
				return usagef("no help topic %q%s", topic, didYouMean(args[len(args)-1], commandNames(root)))
			}
			return target.Help()
		},
	}
}

func commandNames(root *cobra.Command) []string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	return names
}

// flagError adds a did-you-mean to pflag's "unknown flag: --inptu".
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, "--"+f.Name) })
		return usageError{fmt.Errorf("unknown flag --%s%s", name, didYouMean("--"+name, names))}
	}
	return usageError{err}
}

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

// didYouMean is ` (did you mean "X"?)` for the known name nearest to got, or
// "" when none is near: a different case, or one or two edits away.
func didYouMean(got string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if k == got {
			return ""
		}
		if strings.EqualFold(k, got) {
			return fmt.Sprintf(" (did you mean %q?)", k)
		}
		if d := editDistance(strings.ToLower(got), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD >= len(got) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance counts the single-character insertions, deletions,
// substitutions and adjacent swaps that turn a into b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
