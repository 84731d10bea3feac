package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/lint"
	"github.com/hookd/hookd/plugins"
)

type checkOpts struct {
	json, strict bool
}

func newCheckCmd(cio *cmdIO) *cobra.Command {
	ef, co := &engineFlags{}, &checkOpts{}
	cmd := &cobra.Command{
		Use:   "check [PATH...] [flags]",
		Short: "Validate hooks files and lint what authors get wrong",
		Long: `Validates every hooks source the profile would load and prints each problem as
FILE:LINE:COL: SEVERITY: MESSAGE [RULE], the form editors and CI annotate.
Exit 0 when there is no error, 1 when there is one (--strict: or a warning).

Without PATH it checks what "hookd list" with the same flags discovers. A PATH
is a plugin folder (with .codex-plugin/ or .claude-plugin/), a config folder
(hooks.json, config.toml, settings.json), or one of those files. A plugin with
only .claude-plugin/, or a settings*.json, is checked as the claude profile
unless --profile says otherwise.

Rules beyond the schema: matcher-ignored, tool-case, unknown-tool, matches-all,
if-non-tool, unquoted-var, script-missing, script-not-exec, stop-loop,
timeout-above-cap, no-hooks-root (docs/authoring.md explains each).`,
		Example: `  hookd check                      # what hookd list would load
  hookd check ./my-plugin --strict
  hookd check ~/.claude/settings.json --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(cmd, ef, co, args, cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().BoolVar(&co.json, "json", false, `print {"diagnostics": [...], "errors": N, "warnings": N} instead of lines`)
	cmd.Flags().BoolVar(&co.strict, "strict", false, "warnings are errors too (exit 1)")
	return cmd
}

func runCheck(cmd *cobra.Command, ef *engineFlags, co *checkOpts, args []string, cio *cmdIO) error {
	var diags []lint.Diagnostic
	if len(args) == 0 {
		opts, err := ef.options(cio.stderr)
		if err != nil {
			return usageError{err}
		}
		ds, err := checkWith(opts)
		if err != nil {
			return err
		}
		diags = ds
	}
	for _, arg := range args {
		ds, err := checkPath(cmd, ef, arg, cio)
		if err != nil {
			return err
		}
		diags = append(diags, ds...)
	}
	errs, warns := 0, 0
	for i, d := range diags {
		if co.strict && d.Severity == hooks.SeverityWarning {
			diags[i].Severity = hooks.SeverityError
		}
		if diags[i].Severity == hooks.SeverityError {
			errs++
		} else {
			warns++
		}
		diags[i].File = relPath(d.File)
	}
	if co.json {
		if diags == nil {
			diags = []lint.Diagnostic{}
		}
		enc := json.NewEncoder(cio.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"diagnostics": diags, "errors": errs, "warnings": warns}); err != nil {
			return err
		}
	} else {
		for _, d := range diags {
			fmt.Fprintln(cio.stdout, d.String())
		}
		fmt.Fprintf(cio.stderr, "%s, %s\n", plural(errs, "error"), plural(warns, "warning"))
	}
	if errs > 0 {
		return exitError{1}
	}
	return nil
}

// checkWith discovers hooks as opts say and lints them.
func checkWith(opts hooks.Options) ([]lint.Diagnostic, error) {
	e := hooks.New(opts)
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		return lint.FromLoadError(err), nil
	}
	list, warnings := e.List("")
	return lint.Check(opts.Profile, list, warnings, candidateFiles(opts)), nil
}

// candidateFiles are the JSON hooks files discovery may read, so check reads
// them even when they gave nothing: the user folder's hooks.json and
// settings files, and each plugin's default hooks file.
func candidateFiles(opts hooks.Options) []string {
	var files []string
	if home := hooks.ResolveHome(opts.Profile, opts.Discover.Home); home != "" {
		files = append(files, filepath.Join(home, "hooks.json"))
		if m, _ := filepath.Glob(filepath.Join(home, "settings*.json")); m != nil {
			files = append(files, m...)
		}
	}
	for _, pl := range opts.Discover.Plugins {
		// Under Codex's rule a manifest that names its hooks replaces the
		// default file: that file is then not the plugin's.
		if opts.Profile.PluginRule == plugins.CodexRule {
			if m := plugins.ManifestPath(pl.Root); m != "" {
				if data, err := hooks.ReadConfigFile(m); err == nil && gjson.GetBytes(data, "hooks").Exists() {
					continue
				}
			}
		}
		files = append(files, filepath.Join(pl.Root, "hooks", "hooks.json"))
	}
	return files
}

// checkPath checks one plugin, config folder or file, and nothing else: the
// user's own folder is replaced by the PATH (or by an empty one).
func checkPath(cmd *cobra.Command, ef *engineFlags, arg string, cio *cmdIO) ([]lint.Diagnostic, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, usagef("%s: no such file or folder", arg)
	}
	empty, err := os.MkdirTemp("", "hookd-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(empty)
	scoped := *ef
	scoped.plugins = nil
	scoped.home = empty
	profileGiven := cmd.Flags().Changed("profile")
	switch root := manifestRoot(abs, fi.IsDir()); {
	case root != "":
		scoped.plugins = pluginFlag{{Root: root}}
		if p := pluginHostProfile(root); !profileGiven && p != "" {
			scoped.profile = p
		}
	case fi.IsDir():
		scoped.home = abs
		if !profileGiven && exists(filepath.Join(abs, "settings.json")) && !exists(filepath.Join(abs, "hooks.json")) {
			scoped.profile = "claude"
		}
	default:
		base := filepath.Base(abs)
		switch {
		case base == "hooks.json" || base == "config.toml":
		case strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"):
			if !profileGiven {
				scoped.profile = "claude"
			}
		default:
			return nil, usagef("%s: give a plugin folder, a config folder, or a hooks.json, config.toml or settings*.json", arg)
		}
		scoped.home = filepath.Dir(abs)
	}
	opts, err := scoped.options(cio.stderr)
	if err != nil {
		return nil, usageError{err}
	}
	ds, err := checkWith(opts)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return ds, nil
	}
	// A file: only its own problems, not its neighbours'.
	var own []lint.Diagnostic
	for _, d := range ds {
		if d.File == abs || manifestRoot(abs, false) != "" {
			own = append(own, d)
		}
	}
	return own, nil
}
