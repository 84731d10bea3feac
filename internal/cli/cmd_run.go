package cli

import (
	"fmt"
	"io"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
)

type runOpts struct {
	input, turnID, evaluate string
	strict                  bool
	skills                  []string // --activate-skill (scoped.go)
}

func newRunCmd(cio *cmdIO) *cobra.Command {
	ef, ro := &engineFlags{}, &runOpts{}
	cmd := &cobra.Command{
		Use:   "run EVENT [--input FILE|-] [flags]",
		Short: "Run one event's hooks once and print the result JSON",
		Long: `Runs the hooks that match EVENT once and prints the combined result as JSON.
Exit 0 when nothing blocks, 2 when the outcome denies or blocks, 1 on error.

With --strict (or HOOKD_STRICT=1 in the environment, as hookd test sets it) a
problem in any hooks file (one that discovery skips with a warning) is an
error: nothing runs and hookd exits 1.`,
		Example: `  hookd run PreToolUse --input event.json
  hookd event PreToolUse --tool Bash --command 'rm -rf /' | hookd run PreToolUse --input -`,
		Args:              eventArg,
		ValidArgsFunction: completeEvents(ef),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEvent(cmd, ef, ro, args[0], cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().StringVar(&ro.input, "input", "", "event input JSON: a `file`, or - for stdin (default: {})")
	cmd.Flags().StringVar(&ro.turnID, "turn-id", "", "turn_id given to turn-scoped events")
	cmd.Flags().StringVar(&ro.evaluate, "evaluate", "", `claude: the model's answer to every prompt and agent hook, as JSON: {"ok": false, "reason": "..."} (without it they fail: hookd run has no model)`)
	cmd.Flags().BoolVar(&ro.strict, "strict", envStrict(), "fail when a hooks file has an error that loses hooks (default: $HOOKD_STRICT)")
	cmd.Flags().StringArrayVar(&ro.skills, "activate-skill", nil, "run as after the agent invoked this skill `NAME`: its frontmatter hooks join (claude; repeatable)")
	return cmd
}

func runEvent(cmd *cobra.Command, ef *engineFlags, ro *runOpts, event string, cio *cmdIO) error {
	ef.profileFromPlugins(cmd.Flags(), cio.stderr)
	opts, err := ef.options(cio.stderr)
	if err != nil {
		return usageError{err}
	}
	if err := checkEvent(opts.Profile, event); err != nil {
		return usageError{err}
	}
	input, err := readInput(ro.input, cio.stdin)
	if err != nil {
		return err
	}
	if ro.evaluate != "" {
		if _, err := evaluate.ParseAnswer([]byte(ro.evaluate)); err != nil {
			return usageError{fmt.Errorf("--evaluate: %v", err)}
		}
		opts.Evaluator = evaluate.Fixed(ro.evaluate)
	}
	e, err := loadEngine(opts)
	if err != nil {
		return err
	}
	defer e.Close()
	if n := printWarnings(cio.stderr, e.Warnings(), ro.strict); ro.strict && n > 0 {
		return discoveryFailed(n)
	}
	_, leftOut := e.Sources()
	printLeftOut(cio.stderr, "warning: ", leftOut)
	if err := activateSkills(e, ro.skills, input, cio.stderr); err != nil {
		return usageError{err}
	}
	res, err := e.Run(signalContext(opts.Logger), event, input, ro.turnID)
	if err != nil {
		return err
	}
	res.LeftOut = leftOut
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(cio.stdout, "%s\n", out)
	warnSkippedForReview(cio.stderr, res, ef.sameFlags(cmd.Flags()))
	if len(res.Hooks) == 0 {
		in := ""
		if ro.input != "" {
			in = " --input " + shellQuote(ro.input)
		}
		fmt.Fprintf(cio.stderr, "note: no hook ran; for why, see hookd explain %s%s%s\n", event, in, ef.sameFlags(cmd.Flags()))
	}
	if e.EndsSession(event) {
		if err := e.EndSession(); err != nil {
			fmt.Fprintf(cio.stderr, "warning: %v\n", err)
		}
	}
	if res.Decision == hooks.DecisionDeny || res.Decision == hooks.DecisionBlock {
		return exitError{2}
	}
	return nil
}

// warnSkippedForReview counts the hooks this run matched but skipped because
// they await review: those are the ones the user expected to run.
func warnSkippedForReview(stderr io.Writer, res *hooks.Result, same string) {
	n := 0
	for _, s := range res.Skipped {
		if s.Reason == hooks.TrustUntrusted || s.Reason == hooks.TrustModified {
			n++
		}
	}
	switch n {
	case 0:
		return
	case 1:
		fmt.Fprintf(stderr, "warning: 1 matching hook awaits review (new, or changed since trusted) and did not run: see it with `hookd list%s`, trust it with `hookd trust%s KEY` (or --all)\n", same, same)
	default:
		fmt.Fprintf(stderr, "warning: %d matching hooks await review (new, or changed since trusted) and did not run: see them with `hookd list%s`, trust them with `hookd trust%s KEY...` (or --all)\n", n, same, same)
	}
}
