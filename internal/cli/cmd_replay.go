package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/rpc"
)

type replayOpts struct{ verbose bool }

func newReplayCmd(cio *cmdIO) *cobra.Command {
	ef, ro := &engineFlags{}, &replayOpts{}
	cmd := &cobra.Command{
		Use:   "replay FILE [flags]",
		Short: "Run recorded hooks/run inputs against the current hooks and show what changed",
		Long: `Reads a recording (hookd serve --record FILE, or initialize's config.record),
runs each recorded input against the hooks the flags discover now (the same
flags as hookd run, --profile included: the recording never picks the rule
set) and prints every run whose outcome changed: decision, reason, context,
system messages, and which hooks ran with what status. A run recorded under
another profile than the one replaying it counts as changed and says so.
Exit 0 when nothing changed, 1 when something did: a regression test of a
hook set against real sessions.
The hooks really run, as hookd run runs them.`,
		Example: `  hookd serve --record session.jsonl    # what the host spawns, once
  hookd replay session.jsonl --home ~/.codex`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("want one FILE (a recording from hookd serve --record), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return replay(cmd, ef, ro, args[0], cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().BoolVarP(&ro.verbose, "verbose", "v", false, "print the runs that did not change too")
	return cmd
}

func replay(cmd *cobra.Command, ef *engineFlags, ro *replayOpts, path string, cio *cmdIO) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open recording: %w", err)
	}
	defer f.Close()
	engines := map[string]*hooks.Engine{}
	defer func() {
		for _, e := range engines {
			e.Close()
		}
	}()
	// The user's --profile (or the default) is the rule set: a recording
	// is input, and one from elsewhere must not move a user onto another
	// profile's rules.
	engine := func() (*hooks.Engine, error) {
		if e := engines[ef.profile]; e != nil {
			return e, nil
		}
		e, err := reviewEngine(ef, cio.stderr)
		if err != nil {
			return nil, err
		}
		engines[ef.profile] = e
		return e, nil
	}
	logger, _ := newLogger("warn", cio.stderr)
	ctx := signalContext(logger)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	runs, changed, line := 0, 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var rec rpc.Record
		if err := json.Unmarshal([]byte(text), &rec); err != nil || rec.Event == "" || rec.Result == nil {
			why := "no event or result"
			if err != nil {
				why = err.Error()
			}
			return fmt.Errorf("%s:%d: not a hookd recording line (%s)", path, line, why)
		}
		e, err := engine()
		if err != nil {
			return err
		}
		res, err := e.Run(ctx, rec.Event, rec.Input, rec.TurnID)
		if err != nil {
			var pe *hooks.ParamError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s:%d: %s: %s", path, line, pe.Field, pe.Msg)
			}
			return err
		}
		runs++
		diffs := resultDiff(rec.Result, res)
		if rec.Profile != "" && rec.Profile != ef.profile {
			diffs = append([]string{fmt.Sprintf("profile: recorded with %q, replayed with %q (pass --profile to choose the rules)",
				rec.Profile, ef.profile)}, diffs...)
		}
		if len(diffs) > 0 {
			changed++
		}
		if len(diffs) > 0 || ro.verbose {
			printReplay(cio.stdout, path, line, rec, diffs)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read recording: %w", err)
	}
	if runs == 0 {
		// Passing on nothing would let an empty or truncated recording stand
		// in for a check.
		return fmt.Errorf("%s holds no recorded runs: record a session with hookd serve --record %s", path, path)
	}
	if changed > 0 {
		fmt.Fprintf(cio.stdout, "FAIL: %d of %s changed\n", changed, plural(runs, "run"))
		return exitError{1}
	}
	fmt.Fprintf(cio.stdout, "PASS: %s, none changed\n", plural(runs, "run"))
	return nil
}

func printReplay(w io.Writer, path string, line int, rec rpc.Record, diffs []string) {
	state := "same"
	if len(diffs) > 0 {
		state = "changed"
	}
	fmt.Fprintf(w, "%s:%d: %s (recorded %s): %s\n", path, line, rec.Event, rec.Time.Format("2006-01-02 15:04:05"), state)
	for _, d := range diffs {
		fmt.Fprintf(w, "    %s\n", d)
	}
}

// resultDiff names what differs between a recorded and a new result, each
// as "what: before → after"; what a run cannot repeat (ids, durations,
// spill paths) is not compared.
func resultDiff(was, now *hooks.Result) []string {
	var out []string
	cmp := func(what, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s: %q → %q", what, a, b))
		}
	}
	cmp("decision", was.Decision, now.Decision)
	cmp("reason", was.Reason, now.Reason)
	if was.Continue != now.Continue {
		out = append(out, fmt.Sprintf("continue: %v → %v", was.Continue, now.Continue))
	}
	cmp("stopReason", was.StopReason, now.StopReason)
	cmpList := func(what string, a, b []string) {
		if !slices.Equal(a, b) {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, quoteList(a), quoteList(b)))
		}
	}
	cmpList("context", contextTexts(was.AdditionalContext), contextTexts(now.AdditionalContext))
	cmpList("systemMessages", messageTexts(was.SystemMessages), messageTexts(now.SystemMessages))
	ran := func(r *hooks.Result) []string {
		var s []string
		for _, h := range r.Hooks {
			s = append(s, h.Key+" "+string(h.Status))
		}
		return s
	}
	a, b := ran(was), ran(now)
	for _, h := range a {
		if !slices.Contains(b, h) {
			out = append(out, "hook - "+h)
		}
	}
	for _, h := range b {
		if !slices.Contains(a, h) {
			out = append(out, "hook + "+h)
		}
	}
	return out
}

func contextTexts(entries []hooks.ContextEntry) []string {
	var out []string
	for _, c := range entries {
		out = append(out, c.Text)
	}
	return out
}

func messageTexts(msgs []hooks.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Text)
	}
	return out
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
