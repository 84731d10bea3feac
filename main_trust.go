package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/rpc"
)

// The review commands: what Codex's /hooks screen does, from the command line.
// They discover hooks with the same flags as list, so the keys they take are
// the keys list prints.

type trustOpts struct {
	all, untrust bool
	project      projectArg
}

// projectArg is trust's --project: alone it names the project of --cwd,
// --project=DIR (or a DIR argument) another folder. In the key form it is
// the project root, as for the other commands.
type projectArg struct {
	set bool
	dir *string
}

func (p *projectArg) String() string {
	if p.dir == nil {
		return ""
	}
	return *p.dir
}
func (p *projectArg) IsBoolFlag() bool { return true }
func (p *projectArg) Set(s string) error {
	p.set = true
	if s != "true" {
		*p.dir = s
	}
	return nil
}

func trustFlags(out io.Writer) (*flag.FlagSet, *engineFlags, *trustOpts) {
	fs := flag.NewFlagSet("trust", flag.ContinueOnError)
	fs.SetOutput(out)
	ef := &engineFlags{}
	to := &trustOpts{project: projectArg{dir: &ef.project}}
	fs.Var(&to.project, "project", "trust the project folder (`DIR`, or the project of --cwd) in the host's own record, so its hooks load in hookd and in the host")
	ef.register(fs)
	fs.BoolVar(&to.all, "all", false, "trust every hook that awaits review (untrusted, or modified since trusted)")
	fs.BoolVar(&to.untrust, "untrust", false, "with --project: record the project as not trusted")
	fs.Usage = func() {
		fmt.Fprint(out, "Usage: hookd trust KEY... | hookd trust --all | hookd trust --project [--untrust] [DIR] [flags]\n\nRecords the current content (hash) of each hook as reviewed in the user config.toml\n([hooks.state.\"KEY\"] trusted_hash), so the hook runs from now on. Enabled/disabled is kept.\nThe keys are those \"hookd list\" prints with the same flags.\n\nWith --project, records the project folder as trusted where the host keeps that answer\n(codex: [projects.\"DIR\"] trust_level in the user config.toml; claude: projects[DIR].hasTrustDialogAccepted\nin .claude.json), so the project's own hooks load, in hookd and in the host.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, ef, to
}

func cmdTrust(args []string, stdout, stderr io.Writer) error {
	fs, ef, to := trustFlags(stderr)
	keys, err := parseInterspersed(fs, args)
	if err != nil {
		return errUsage
	}
	all := &to.all
	if to.project.set {
		if to.all {
			return fmt.Errorf("hookd trust: --project and --all do not go together")
		}
		if ef.project != "" {
			keys = append(keys, ef.project)
			ef.project = ""
		}
		return cmdTrustProject(ef, keys, to.untrust, stdout, stderr)
	}
	if to.untrust {
		return fmt.Errorf("hookd trust: --untrust goes with --project (to stop a hook, use hookd disable KEY)")
	}
	if (len(keys) == 0) != *all {
		fs.Usage()
		return errUsage
	}
	e, err := reviewEngine(ef, stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	if *all {
		list, _ := e.List("")
		for _, h := range list {
			if h.Trust == hooks.TrustUntrusted || h.Trust == hooks.TrustModified {
				keys = append(keys, h.Key)
			}
		}
		if len(keys) == 0 {
			fmt.Fprintln(stdout, "no hooks await review")
			return nil
		}
	}
	trusted, err := e.Trust(keys)
	if err != nil {
		return cliEngineError(err)
	}
	for _, t := range trusted {
		fmt.Fprintf(stdout, "trusted %s %s\n", t.Key, t.Hash)
	}
	return nil
}

func setEnabledFlags(name string, out io.Writer) (*flag.FlagSet, *engineFlags) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	ef := &engineFlags{}
	ef.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(out, "Usage: hookd %s KEY... [flags]\n\n%s a hook by recording enabled = %v in the user config.toml ([hooks.state.\"KEY\"]).\nTrust is kept. Managed hooks cannot be disabled. The keys are those \"hookd list\" prints.\n\nFlags:\n",
			name, map[bool]string{true: "Allows", false: "Stops"}[name == "enable"], name == "enable")
		fs.PrintDefaults()
	}
	return fs, ef
}

func cmdSetEnabled(enable bool, args []string, stdout, stderr io.Writer) error {
	name := map[bool]string{true: "enable", false: "disable"}[enable]
	fs, ef := setEnabledFlags(name, stderr)
	keys, err := parseInterspersed(fs, args)
	if err != nil {
		return errUsage
	}
	if len(keys) == 0 {
		fs.Usage()
		return errUsage
	}
	e, err := reviewEngine(ef, stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	// Check every key before writing any, so a typo changes nothing.
	list, _ := e.List("")
	known := map[string]bool{}
	for _, h := range list {
		known[h.Key] = true
	}
	for _, k := range keys {
		if !known[k] {
			return cliEngineError(&hooks.ParamError{Field: "key", Msg: fmt.Sprintf("unknown hook key %q", k)})
		}
	}
	for _, k := range keys {
		if err := e.SetEnabled(k, enable); err != nil {
			return cliEngineError(err)
		}
		fmt.Fprintf(stdout, "%sd %s\n", name, k)
	}
	return nil
}

// reviewEngine discovers hooks for the review commands. Warnings go to stderr
// as list prints them.
func reviewEngine(ef *engineFlags, stderr io.Writer) (*hooks.Engine, error) {
	opts, err := ef.options(stderr)
	if err != nil {
		return nil, err
	}
	e := hooks.New(opts)
	if _, err := e.LoadChecked(); err != nil {
		e.Close()
		return nil, err
	}
	_, warnings := e.List("")
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", rpc.FormatWarning(w))
	}
	return e, nil
}

// cliEngineError says what to do next about an engine error.
func cliEngineError(err error) error {
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s; run \"hookd list\" with the same flags to see the keys (project hooks need --trust-project)", pe.Msg)
	}
	return err
}

// warnReview prints the review warning hookd also sends hosts at initialize.
func warnReview(e *hooks.Engine, stderr io.Writer) {
	if n := e.AwaitingReview(); n > 0 {
		fmt.Fprintf(stderr, "warning: %s\n", rpc.ReviewMessage(n))
	}
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
// beyond their own trust and enablement.
func listNotes(stdout io.Writer, list []hooks.HookInfo) {
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
		fmt.Fprintf(stdout, "# %d awaiting review (untrusted or modified) do not run until trusted: hookd trust KEY... or hookd trust --all\n", n)
	}
}
