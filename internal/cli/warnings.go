package cli

// What the commands that load hooks print about discovery: its warnings,
// strict mode, and the folders searched.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/rpc"
)

// envStrict is the default of --strict: HOOKD_STRICT=1 (hookd test sets it
// for the scripts it runs, so a broken hooks file fails a test).
func envStrict() bool {
	v, err := strconv.ParseBool(os.Getenv("HOOKD_STRICT"))
	return err == nil && v
}

func discoveryFailed(n int) error {
	return fmt.Errorf("--strict: %s in the hooks files lost hooks (above); fix them, or see every problem with 'hookd check'", plural(n, "error"))
}

// printWarnings prints discovery warnings, one a line, and returns how many
// lost hooks (Warning.Severity error); under --strict those say "error:".
func printWarnings(w io.Writer, warnings []hooks.Warning, strict bool) int {
	n := 0
	for _, wr := range warnings {
		severity := hooks.SeverityWarning
		if wr.Severity() == hooks.SeverityError {
			n++
			if strict {
				severity = hooks.SeverityError
			}
		}
		fmt.Fprintln(w, formatWarning(wr, severity))
	}
	return n
}

// countErrors counts the warnings that lost hooks.
func countErrors(warnings []hooks.Warning) int {
	n := 0
	for _, w := range warnings {
		if w.Severity() == hooks.SeverityError {
			n++
		}
	}
	return n
}

// formatWarning is "SEVERITY: SOURCE [where]: MESSAGE", the path said once:
// the readers' "failed to parse hooks config PATH: ..." already follows it.
func formatWarning(w hooks.Warning, severity string) string {
	if w.Source != "" {
		w.Message = strings.Replace(w.Message, "config "+w.Source+": ", "config: ", 1)
	}
	return severity + ": " + rpc.FormatWarning(w)
}

// searchedFolders names the folders discovery looked in, for "no hooks
// found" (files and plugins named on the command line are the user's own).
func searchedFolders(opts hooks.Options, project *hooks.ProjectStatus) []string {
	p := opts.Profile
	var out []string
	if home := hooks.ResolveHome(p, opts.Discover.Home); home != "" {
		out = append(out, "user folder "+home)
	}
	if p.ProjectDir != "" && opts.Discover.ProjectRoot != "" {
		dir := filepath.Join(opts.Discover.ProjectRoot, p.ProjectDir)
		switch {
		case project != nil && project.Trusted, project == nil && opts.Discover.ProjectTrusted:
			out = append(out, "project folder "+dir)
		default:
			out = append(out, "not "+dir+": the project is not trusted (--trust-project, or hookd trust --project)")
		}
	}
	return out
}

// printLeftOut says which hooks sources exist but do not run, and the
// command that changes each.
func printLeftOut(w io.Writer, prefix string, leftOut []hooks.LeftOut) {
	for _, lo := range leftOut {
		fmt.Fprintf(w, "%s%s\n%s  to change it: %s\n", prefix, lo.Message, prefix, lo.Fix)
	}
}
