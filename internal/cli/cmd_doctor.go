package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/doctor"
)

type doctorOpts struct {
	cwd   string
	hosts []string
	json  bool
}

func newDoctorCmd(cio *cmdIO) *cobra.Command {
	do := &doctorOpts{}
	cmd := &cobra.Command{
		Use:   "doctor [--cwd DIR] [--host NAME...] [--json]",
		Short: "Say, for every agent host on this machine, which hooks will run in a folder and why the others will not",
		Long: `Finds the hosts configured on this machine (each profile's user folder:
$CODEX_HOME or ~/.codex, ~/.claude, ~/.gemini, ...), loads for the folder what
each host would load, with its own rules (user, project, managed layers,
installed plugins), and prints per host each source read or left out, and per
hook "will run" or "will not run" with the reason and the fix: not reviewed or
changed since review (with both hashes), disabled, held back by managed policy,
a project the host does not trust, a matcher that names no tool of the host, a
program not on PATH, a script that is missing or not executable, a missing
shell; and what goes wrong although it runs (a Stop hook that can loop, a
timeout in the wrong unit). Ends with one line per host.

Reads only: no host's configuration, review record or trust list changes, and
no hook runs. Exit 1 when a hook someone configured will not run, or a hooks
file is not read (a plugin the user disabled in their own settings is listed,
and is not a failure).`,
		Example: `  hookd doctor
  hookd doctor --cwd ~/src/app --host codex --host claude
  hookd doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDoctor(do, cio)
		},
	}
	cmd.Flags().StringVar(&do.cwd, "cwd", "", "the `folder` the hosts would start in (default: the current directory)")
	cmd.Flags().StringArrayVar(&do.hosts, "host", nil, "check only this host `NAME` (a profile; repeatable; default: every host whose user folder exists)")
	cmd.Flags().BoolVar(&do.json, "json", false, "print the report as JSON")
	_ = cmd.RegisterFlagCompletionFunc("host", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return sortedProfiles(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runDoctor(do *doctorOpts, cio *cmdIO) error {
	cwd, repeat := do.cwd, ""
	if cwd == "" {
		cwd, _ = os.Getwd()
	} else {
		abs, err := filepath.Abs(cwd)
		if err != nil {
			return usageError{err}
		}
		cwd, repeat = abs, " --cwd "+shellQuote(abs)
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return usagef("--cwd %s is not a folder", cwd)
	}
	for _, h := range do.hosts {
		if _, err := lookupProfile(h); err != nil {
			return usageError{fmt.Errorf("--host: %w", err)}
		}
	}
	r, err := doctor.Run(doctor.Options{Cwd: cwd, Hosts: do.hosts, Repeat: repeat})
	if err != nil {
		return err
	}
	failing := false
	for _, h := range r.Hosts {
		failing = failing || h.Failing()
	}
	if do.json {
		enc := json.NewEncoder(cio.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		printDoctor(cio.stdout, r)
	}
	if failing {
		return exitError{1}
	}
	return nil
}

// visibleWriter writes text with its control characters (but the line
// ends) shown as \xNN: commands, paths and messages come from files a
// project or plugin controls, and must not drive the terminal.
type visibleWriter struct{ w io.Writer }

func (v visibleWriter) Write(p []byte) (int, error) {
	var b strings.Builder
	for _, r := range string(p) {
		if r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	if _, err := io.WriteString(v.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

func printDoctor(out io.Writer, r *doctor.Report) {
	w := visibleWriter{out}
	if len(r.Hosts) == 0 {
		fmt.Fprintln(w, "no agent host is configured on this machine (no user folder of: "+userFolders()+")")
		return
	}
	for _, h := range r.Hosts {
		fmt.Fprintf(w, "== %s (%s)\n", h.Name, h.Home)
		if !h.Configured {
			fmt.Fprintln(w, "   not configured: its user folder does not exist")
			continue
		}
		if p := h.Project; p != nil {
			state := "trusted"
			if !p.Trusted {
				state = "not trusted"
			}
			fmt.Fprintf(w, "   project %s: %s (decided by %s)\n", p.Root, state, p.DecidedBy)
		}
		for _, p := range h.Problems {
			fmt.Fprintf(w, "   problem: %s\n", problemText(p))
		}
		if len(h.Sources) == 0 {
			fmt.Fprintln(w, "   no hooks configured")
		}
		for _, s := range h.Sources {
			what := s.Layer
			if s.Plugin != "" {
				what = "plugin " + s.Plugin
			}
			if !s.Read {
				if s.Plugin != "" {
					fmt.Fprintf(w, "   not read  %s (plugin %s): %s\n", relPath(s.Path), s.Plugin, s.Message)
				} else {
					fmt.Fprintf(w, "   not read  %s: %s\n", relPath(s.Path), s.Message)
				}
				if s.Fix != "" {
					fmt.Fprintf(w, "             fix: %s\n", s.Fix)
				}
			} else {
				fmt.Fprintf(w, "   read      %s (%s)\n", relPath(s.Path), what)
				if s.Reason != "" {
					fmt.Fprintf(w, "             held back: %s\n             fix: %s\n", s.Message, s.Fix)
				}
			}
			for _, p := range s.Problems {
				fmt.Fprintf(w, "             %s\n", problemText(p))
			}
			for _, k := range s.Hooks {
				printDoctorHook(w, k)
			}
		}
	}
	fmt.Fprintln(w)
	for _, h := range r.Hosts {
		fmt.Fprintln(w, h.Summary)
	}
}

func printDoctorHook(w io.Writer, k doctor.Hook) {
	matcher := "*"
	if k.Matcher != nil && *k.Matcher != "" {
		matcher = *k.Matcher
	}
	at := ""
	if k.Line > 0 {
		at = fmt.Sprintf(" (line %d)", k.Line)
	}
	what := k.Command
	if what == "" {
		what = k.Type + " handler"
	}
	if r := []rune(what); len(r) > 100 { // --json has it whole
		what = string(r[:99]) + "…"
	}
	if k.Runs {
		fmt.Fprintf(w, "     will run      %s %s%s: %s\n", k.Event, matcher, at, what)
	} else {
		fmt.Fprintf(w, "     will not run  %s %s%s: %s: %s\n", k.Event, matcher, at, k.Reason, k.Detail)
		fmt.Fprintf(w, "                   fix: %s\n", k.Fix)
	}
	for _, n := range k.Notes {
		fmt.Fprintf(w, "                   note: %s [%s]\n", n.Message, n.Rule)
	}
}

func problemText(p doctor.Problem) string {
	where := relPath(p.File)
	if p.Line > 0 {
		where += fmt.Sprintf(":%d:%d", p.Line, p.Column)
	}
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s%s: %s [%s]", where, p.Severity, p.Message, p.Rule)
}

func userFolders() string {
	out := ""
	for i, n := range sortedProfiles() {
		p, _ := hooks.LookupProfile(n)
		if i > 0 {
			out += ", "
		}
		out += doctor.UserFolder(p)
	}
	return out
}
