package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

type listOpts struct {
	json   bool
	event  string
	strict bool
}

func newListCmd(cio *cmdIO) *cobra.Command {
	ef, lo := &engineFlags{}, &listOpts{}
	cmd := &cobra.Command{
		Use:   "list [--json] [--event EVENT] [flags]",
		Short: "List discovered hooks (table, or --json)",
		Long: `Lists every discovered hook with its key, event, matcher, source, trust and
enabled state. When it finds none it names the folders it searched.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return printList(cmd, ef, lo, cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().BoolVar(&lo.json, "json", false, "print hooks/list's JSON instead of a table")
	cmd.Flags().StringVar(&lo.event, "event", "", "only this `EVENT`'s hooks")
	cmd.Flags().BoolVar(&lo.strict, "strict", envStrict(), "fail when a hooks file has an error that loses hooks (default: $HOOKD_STRICT)")
	_ = cmd.RegisterFlagCompletionFunc("event", completeEvents(ef))
	return cmd
}

func printList(cmd *cobra.Command, ef *engineFlags, lo *listOpts, cio *cmdIO) error {
	stdout := cio.stdout
	ef.profileFromPlugins(cmd.Flags(), cio.stderr)
	opts, err := ef.options(cio.stderr)
	if err != nil {
		return usageError{err}
	}
	if lo.event != "" {
		if err := checkEvent(opts.Profile, lo.event); err != nil {
			return usageError{err}
		}
	}
	e, err := loadEngine(opts)
	if err != nil {
		return err
	}
	defer e.Close()
	list, warnings := e.List(lo.event)
	project, leftOut := e.Sources()
	if lo.json {
		if leftOut == nil {
			leftOut = []hooks.LeftOut{}
		}
		out, err := json.MarshalIndent(map[string]any{"hooks": list, "warnings": warnings, "project": project, "leftOut": leftOut}, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", out)
		if n := countErrors(warnings); lo.strict && n > 0 {
			return discoveryFailed(n)
		}
		return nil
	}
	_ = printWarnings(cio.stderr, warnings, lo.strict)
	if len(list) == 0 {
		printLeftOut(stdout, "# ", leftOut)
		what := "no hooks found"
		if lo.event != "" {
			what = "no " + lo.event + " hooks found"
		}
		fmt.Fprintf(stdout, "%s; searched:\n", what)
		for _, f := range searchedFolders(opts, project) {
			fmt.Fprintf(stdout, "  %s\n", f)
		}
		if n := countErrors(warnings); lo.strict && n > 0 {
			return discoveryFailed(n)
		}
		return nil
	}
	if opts.BypassTrust {
		fmt.Fprintln(stdout, "# --bypass-trust: enabled hooks run without review for this invocation; nothing is recorded")
	}
	listNotes(stdout, list, ef.sameFlags(cmd.Flags()))
	printLeftOut(stdout, "# ", leftOut)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	coverage := len(opts.ToolLocations) > 0 && opts.Profile.Coverage != nil
	if coverage {
		fmt.Fprintln(tw, "KEY\tEVENT\tMATCHER\tSOURCE\tTRUST\tENABLED\tCOVERAGE")
	} else {
		fmt.Fprintln(tw, "KEY\tEVENT\tMATCHER\tSOURCE\tTRUST\tENABLED")
	}
	for _, h := range list {
		matcher := "*"
		if h.Matcher != nil && *h.Matcher != "" {
			matcher = *h.Matcher
		}
		trust := trustCell(h)
		if coverage {
			cov := h.Coverage
			if cov == "" {
				cov = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\t%s\n", h.Key, h.Event, matcher, sourceCell(h), trust, h.Enabled, cov)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\n", h.Key, h.Event, matcher, sourceCell(h), trust, h.Enabled)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := countErrors(warnings); lo.strict && n > 0 {
		return discoveryFailed(n)
	}
	return nil
}

// trustCell is the TRUST column of hookd list.
func trustCell(h hooks.HookInfo) string {
	cell := h.Trust
	if h.Trust == hooks.TrustModified {
		cell = "modified (changed since trusted)"
	}
	if h.Bypassed {
		cell += " (bypassed)"
	}
	return cell
}

// listNotes prints, above the table, what keeps listed hooks from running
// beyond their own trust and enablement. same repeats the discovery flags
// given, so the trust command it suggests names the same hooks.
func listNotes(stdout io.Writer, list []hooks.HookInfo, same string) {
	count := map[string]int{}
	for _, h := range list {
		count[h.SkipReason]++
	}
	if count[hooks.PolicyHooksDisabled] > 0 {
		fmt.Fprintln(stdout, "# hooks are turned off by [features] hooks = false: no hook runs")
	}
	if count[hooks.PolicyManagedOnly] > 0 {
		fmt.Fprintln(stdout, "# allow_managed_hooks_only: only managed hooks run; the others are listed but do not run")
	}
	if n := count[hooks.TrustUntrusted] + count[hooks.TrustModified]; n > 0 {
		fmt.Fprintf(stdout, "# %d awaiting review (untrusted or modified) do not run until trusted: hookd trust%s KEY... (or --all)\n", n, same)
	}
	if len(list) > count[""] {
		fmt.Fprintf(stdout, "# which of them would run for an input, and why not: hookd explain EVENT --input FILE%s\n", same)
	}
}
