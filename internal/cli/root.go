// Package cli is hookd's command line: the root's main hands it the
// process's arguments and IO (Run).
//
// root.go builds the command tree (github.com/spf13/cobra: it gives
// suggestions for mistyped commands, help and shell completion) and turns
// every failure into one error line and a hint (errors.go). Each command
// has its cmd_*.go file (hookd test: cmd_hooktest*.go) and uses no other
// command's; what several commands share sits in a file named for it
// (engine_flags.go, load.go, events.go, warnings.go, profiles.go, ...).
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks/proc"
	"github.com/hookd/hookd/internal/suggest"
	"github.com/hookd/hookd/plugins"
)

// Run runs hookd with args (without the program name) and returns the
// process's exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// What the command's loads read of the plugins is kept for the next
	// command before this one ends (the plugin load cache).
	defer plugins.WaitCacheWrites()
	// Hooks that have exited are reaped before hookd does: the watchdog
	// kills every group still in its table when hookd exits, and a finished
	// hook's helpers that redirected their output are meant to live on.
	defer proc.Settle()
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
			return usagef("unknown command %q%s", args[0], suggest.DidYouMean(args[0], commandNames(root)))
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
		newPortCmd(cio),
		newPortOutputCmd(cio),
		newEventCmd(cio),
		newExplainCmd(cio),
		newReplayCmd(cio),
		newDoctorCmd(cio),
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
				return usagef("no help topic %q%s", topic, suggest.DidYouMean(args[len(args)-1], commandNames(root)))
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
