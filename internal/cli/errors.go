package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookd/hookd/internal/suggest"
)

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

// flagError adds a did-you-mean to pflag's "unknown flag: --inptu".
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, "--"+f.Name) })
		return usageError{fmt.Errorf("unknown flag --%s%s", name, suggest.DidYouMean("--"+name, names))}
	}
	return usageError{err}
}
