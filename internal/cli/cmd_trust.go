package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/suggest"
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

func (p *projectArg) Type() string { return "DIR" }

func (p *projectArg) Set(s string) error {
	p.set = true
	if s != "true" {
		*p.dir = s
	}
	return nil
}

func newTrustCmd(cio *cmdIO) *cobra.Command {
	ef := &engineFlags{}
	to := &trustOpts{project: projectArg{dir: &ef.project}}
	cmd := &cobra.Command{
		Use:   "trust KEY... | trust --all | trust --project [--untrust] [DIR] [flags]",
		Short: "Record hooks (or a project) as reviewed (trusted)",
		Long: `Records the current content (hash) of each hook as reviewed in the user config.toml
([hooks.state."KEY"] trusted_hash), so the hook runs from now on. Enabled/disabled is kept.
The keys are those "hookd list" prints with the same flags.

With --project, records the project folder as trusted where the host keeps that answer
(codex: [projects."DIR"] trust_level in the user config.toml; claude: projects[DIR].hasTrustDialogAccepted
in .claude.json; gemini: "DIR": "TRUST_FOLDER" in trustedFolders.json), so the project's own hooks load,
in hookd and in the host.`,
		RunE: func(cmd *cobra.Command, keys []string) error {
			if to.project.set {
				if to.all {
					return usagef("--project and --all do not go together")
				}
				if ef.project != "" {
					keys = append(keys, ef.project)
					ef.project = ""
				}
				return trustProject(ef, keys, to.untrust, cio)
			}
			if to.untrust {
				return usagef("--untrust goes with --project (to stop a hook, use hookd disable KEY)")
			}
			if (len(keys) == 0) != to.all {
				if to.all {
					return usagef("give KEYs or --all, not both")
				}
				return usagef("missing KEY: hookd trust KEY... (the keys hookd list prints), or hookd trust --all")
			}
			return trustHooks(ef, to.all, keys, cio)
		},
	}
	cmd.Flags().Var(&to.project, "project", "trust the project folder (`DIR`, or the project of --cwd) in the host's own record, so its hooks load in hookd and in the host")
	cmd.Flags().Lookup("project").NoOptDefVal = "true"
	ef.register(cmd.Flags())
	cmd.Flags().BoolVar(&to.all, "all", false, "trust every hook that awaits review (untrusted, or modified since trusted)")
	cmd.Flags().BoolVar(&to.untrust, "untrust", false, "with --project: record the project as not trusted")
	return cmd
}

// trustProject records the project folder as trusted (or not) in the host's
// own record, so the host and hookd agree.
func trustProject(ef *engineFlags, dirs []string, untrust bool, cio *cmdIO) error {
	if len(dirs) > 1 {
		return usagef("trust --project takes one folder, got %d", len(dirs))
	}
	opts, err := ef.options(cio.stderr)
	if err != nil {
		return usageError{err}
	}
	dir := opts.Discover.ProjectRoot
	if len(dirs) == 1 {
		abs, err := filepath.Abs(dirs[0])
		if err != nil {
			return err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return usagef("trust --project: %s is not a folder", abs)
		}
		dir = hooks.FindProjectRoot(abs)
	}
	rec, err := hooks.SetProjectTrust(opts.Profile, opts.Discover.Home, dir, !untrust)
	if err != nil {
		return err
	}
	word := "trusted"
	if untrust {
		word = "untrusted"
	}
	fmt.Fprintf(cio.stdout, "%s project %s (recorded in %s)\n", word, rec.Dir, rec.File)
	return nil
}

func trustHooks(ef *engineFlags, all bool, keys []string, cio *cmdIO) error {
	stdout := cio.stdout
	e, err := reviewEngine(ef, cio.stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	if all {
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
	trusted, err := e.Trust(context.Background(), keys)
	if err != nil {
		return cliEngineError(err)
	}
	for _, t := range trusted {
		fmt.Fprintf(stdout, "trusted %s %s\n", t.Key, t.Hash)
	}
	return nil
}

func newSetEnabledCmd(cio *cmdIO, enable bool) *cobra.Command {
	name := map[bool]string{true: "enable", false: "disable"}[enable]
	ef := &engineFlags{}
	cmd := &cobra.Command{
		Use:   name + " KEY... [flags]",
		Short: map[bool]string{true: "Allow a hook to run", false: "Stop a hook from running"}[enable],
		Long: fmt.Sprintf(`%s a hook by recording enabled = %v in the user config.toml ([hooks.state."KEY"]).
Trust is kept. Managed hooks cannot be disabled. The keys are those "hookd list" prints.`,
			map[bool]string{true: "Allows", false: "Stops"}[enable], enable),
		RunE: func(cmd *cobra.Command, keys []string) error {
			if len(keys) == 0 {
				return usagef("missing KEY: hookd %s KEY... (the keys hookd list prints)", name)
			}
			return setEnabled(ef, enable, keys, cio)
		},
	}
	ef.register(cmd.Flags())
	return cmd
}

func setEnabled(ef *engineFlags, enable bool, keys []string, cio *cmdIO) error {
	name := map[bool]string{true: "enable", false: "disable"}[enable]
	e, err := reviewEngine(ef, cio.stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	// Check every key before writing any, so a typo changes nothing.
	list, _ := e.List("")
	known := map[string]bool{}
	var all []string
	for _, h := range list {
		known[h.Key] = true
		all = append(all, h.Key)
	}
	for _, k := range keys {
		if !known[k] {
			return cliEngineError(&hooks.ParamError{Field: "key", Msg: fmt.Sprintf("unknown hook key %q%s", k, suggest.DidYouMean(k, all))})
		}
	}
	for _, k := range keys {
		if err := e.SetEnabled(context.Background(), k, enable); err != nil {
			return cliEngineError(err)
		}
		fmt.Fprintf(cio.stdout, "%sd %s\n", name, k)
	}
	return nil
}
