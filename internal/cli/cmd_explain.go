package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

type explainOpts struct {
	input  string
	json   bool
	skills []string // --activate-skill (scoped.go)
}

func newExplainCmd(cio *cmdIO) *cobra.Command {
	ef, xo := &engineFlags{}, &explainOpts{}
	cmd := &cobra.Command{
		Use:   "explain EVENT [--input FILE|-] [flags]",
		Short: "Say which hooks would run for an input, and why each other one would not",
		Long: `For EVENT and an input, lists every discovered hook: whether it would run and,
if not, why (another event; the matcher and what it was matched against; the
handler's "if"; trust; enablement; managed policy; a duplicate; the profile's
own rules), with its source file and line and the exact command after the
plugin variables are substituted. Runs nothing. The same flags as hookd run.`,
		Example: `  hookd explain PreToolUse --input event.json
  hookd event PreToolUse --command 'git push' | hookd explain PreToolUse --input -`,
		Args:              eventArg,
		ValidArgsFunction: completeEvents(ef),
		RunE: func(cmd *cobra.Command, args []string) error {
			ef.profileFromPlugins(cmd.Flags(), cio.stderr)
			return explain(ef, xo, args[0], cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().StringVar(&xo.input, "input", "", "event input JSON: a `file`, or - for stdin (default: {})")
	cmd.Flags().BoolVar(&xo.json, "json", false, "print hooks/explain's JSON instead of a table")
	cmd.Flags().StringArrayVar(&xo.skills, "activate-skill", nil, "explain as after the agent invoked this skill `NAME` (claude; repeatable)")
	return cmd
}

func explain(ef *engineFlags, xo *explainOpts, event string, cio *cmdIO) error {
	opts, err := ef.options(cio.stderr)
	if err != nil {
		return usageError{err}
	}
	if err := checkEvent(opts.Profile, event); err != nil {
		return usageError{err}
	}
	input, err := readInput(xo.input, cio.stdin)
	if err != nil {
		return err
	}
	e, err := loadEngine(opts)
	if err != nil {
		return err
	}
	defer e.Close()
	_ = printWarnings(cio.stderr, e.Warnings(), false)
	if err := activateSkills(e, xo.skills, input, cio.stderr); err != nil {
		return usageError{err}
	}
	list, err := e.Explain(event, input)
	if err != nil {
		return err
	}
	_, leftOut := e.Sources()
	if xo.json {
		if leftOut == nil {
			leftOut = []hooks.LeftOut{}
		}
		enc := json.NewEncoder(cio.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"hooks": list, "leftOut": leftOut})
	}
	printExplanations(cio.stdout, event, list)
	// Files that were never read have no hooks to explain: name them.
	printLeftOut(cio.stdout, "# ", leftOut)
	return nil
}

func printExplanations(w io.Writer, event string, list []hooks.Explanation) {
	runs, forEvent := 0, 0
	for _, x := range list {
		if x.Runs {
			runs++
		}
		if x.Event == event {
			forEvent++
		}
	}
	fmt.Fprintf(w, "%s: %d of %d %s hooks would run (%d hooks discovered)\n", event, runs, forEvent, event, len(list))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RUNS\tWHERE\tMATCHER\tWHY NOT / COMMAND")
	for _, x := range list {
		where := relPath(x.Source.Path)
		if x.Line > 0 {
			where += fmt.Sprintf(":%d:%d", x.Line, x.Column)
		}
		if where == "" {
			where = x.Key
		}
		matcher := "*"
		if x.Matcher != nil && *x.Matcher != "" {
			matcher = *x.Matcher
		}
		what := x.Command
		if what == "" {
			what = x.Type + " handler"
		}
		if x.Runs {
			fmt.Fprintf(tw, "yes\t%s\t%s\t%s\n", where, matcher, what)
			continue
		}
		fmt.Fprintf(tw, "no\t%s\t%s\t%s: %s\n", where, matcher, x.Reason, x.Detail)
	}
	_ = tw.Flush()
}
