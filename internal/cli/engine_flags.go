package cli

// The discovery flags run, list, trust, enable, disable, check and explain
// share, and the flag value types behind them.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/pflag"

	"github.com/hookd/hookd/hooks"
)

// engineFlags are the discovery flags shared by the commands that load hooks.
type engineFlags struct {
	profile, home, cwd, project string
	trustProject                optBool
	bypassTrust                 bool
	sessionID                   string
	model, transcriptPath       string
	permissionMode              string
	printMode                   bool
	logLevel                    string
	plugins                     pluginFlag
	settings                    settingsFlag
	managed, hookState          string
	configProfile               string
	toolLocations               toolLocationFlag
	envAllow                    envAllowFlag
	features                    featureFlag
}

// settingsFlag collects --settings files as absolute paths.
type settingsFlag []string

func (f *settingsFlag) String() string {
	if f == nil {
		return ""
	}
	return strings.Join(*f, ",")
}

func (f *settingsFlag) Type() string { return "file" }

func (f *settingsFlag) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("want a settings file path")
	}
	abs, err := filepath.Abs(v)
	if err != nil {
		return err
	}
	*f = append(*f, abs)
	return nil
}

// permissionModes are the values hosts give permission_mode.
var permissionModes = []string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"}

func (f *engineFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.profile, "profile", "codex", "host rule set: "+strings.Join(sortedProfiles(), ", "))
	fs.StringVar(&f.home, "home", "", "the profile's user `folder` (default: the profile's own, e.g. codex: $CODEX_HOME or ~/.codex; docs/cli.md lists each profile's)")
	fs.StringVar(&f.cwd, "cwd", "", "session working `folder` (default: the current directory)")
	if fs.Lookup("project") == nil { // trust has its own --project
		fs.StringVar(&f.project, "project", "", "project root `folder` (default: the git root above --cwd, else --cwd)")
	}
	fs.Var(&f.trustProject, "trust-project", "the project is trusted (=false: it is not): load its hooks (codex: <project>/.codex/, mind: .mind/, claude: .claude/settings*.json); without it the host's own record decides (codex: [projects] in config.toml, claude: ~/.claude.json, gemini: trustedFolders.json)")
	fs.Lookup("trust-project").NoOptDefVal = "true"
	fs.BoolVar(&f.bypassTrust, "bypass-trust", false, "run enabled hooks that have not been reviewed, for this invocation only")
	fs.StringVar(&f.sessionID, "session-id", "", "session_id given to hooks (default: a new random id)")
	fs.StringVar(&f.model, "model", "", "model given to hooks, as a host passes it (initialize's session.model)")
	fs.StringVar(&f.transcriptPath, "transcript-path", "", "transcript_path given to hooks (initialize's session.transcriptPath)")
	fs.BoolVar(&f.printMode, "print-mode", false, "the host runs non-interactively (claude: Claude Code's -p, where the project's settings and skills' hooks run without a trust record, its agents' hooks do not; initialize's session.printMode)")
	fs.StringVar(&f.permissionMode, "permission-mode", "", "permission_mode given to hooks: "+strings.Join(permissionModes, ", ")+" (default: default)")
	fs.StringVar(&f.logLevel, "log-level", "warn", "stderr log level: debug, info, warn, error")
	fs.Var(&f.plugins, "plugin", "load the plugin in this `folder` as if it were installed (repeatable)")
	fs.Var(&f.settings, "settings", "claude: one more settings `file`, a layer after the project's, as Claude Code's --settings (repeatable)")
	fs.StringVar(&f.managed, "managed", "", "managed policy `file` (codex: requirements.toml with managed hooks, allow_managed_hooks_only, [features]; claude: managed-settings.json; copilot: a policy folder or one hooks file)")
	fs.Var(&f.envAllow, "env-allow", "give hooks only these `NAMES` of hookd's environment (comma-separated, repeatable; any profile, over its own rule)")
	fs.StringVar(&f.hookState, "hook-state", "", `hook state for this invocation only, over the user config's: {"KEY": {"enabled": false, "trusted_hash": "sha256:..."}}`)
	fs.StringVar(&f.configProfile, "config-profile", "", "the host's configuration profile whose hooks load as a layer (mind: [profiles.NAME.hooks] in the user config.toml)")
	fs.Var(&f.toolLocations, "tool-location", "where a tool runs, `TOOL=client|server|server-approval` (repeatable; mind labels hooks with their coverage)")
	fs.Var(&f.features, "feature", "host feature setting `NAME=VALUE`, as initialize's config.features (repeatable; mirri: hookCommandRewrite, hookEngine)")
}

func (f *engineFlags) options(stderr io.Writer) (hooks.Options, error) {
	prof, err := lookupProfile(f.profile)
	if err != nil {
		return hooks.Options{}, err
	}
	cwd := f.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd, err = filepath.Abs(cwd)
	if err != nil {
		return hooks.Options{}, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return hooks.Options{}, fmt.Errorf("--cwd %s is not a directory", cwd)
	}
	root := f.project
	if root == "" {
		root = hooks.FindProjectRoot(cwd)
	} else if root, err = filepath.Abs(root); err != nil {
		return hooks.Options{}, err
	}
	home := f.home
	if home != "" {
		if home, err = filepath.Abs(home); err != nil {
			return hooks.Options{}, err
		}
		// A mistyped --home would otherwise be a user folder with no hooks:
		// "no hooks found", exit 0, and the author never learns why.
		if fi, err := os.Stat(home); err != nil {
			return hooks.Options{}, fmt.Errorf("--home %s: no such folder", home)
		} else if !fi.IsDir() {
			return hooks.Options{}, fmt.Errorf("--home %s is not a folder: give the %s user folder (the one holding its config)", home, prof.Name)
		}
	}
	id := f.sessionID
	if id == "" {
		id = prof.MakeSessionID()
	}
	logger, err := newLogger(f.logLevel, stderr)
	if err != nil {
		return hooks.Options{}, err
	}
	if err := hooks.CheckEnvNames(f.envAllow.names); err != nil {
		return hooks.Options{}, fmt.Errorf("--env-allow: %s", strings.TrimPrefix(err.Error(), "envAllowlist: "))
	}
	if f.hookState != "" && !json.Valid([]byte(f.hookState)) {
		return hooks.Options{}, fmt.Errorf("--hook-state is not valid JSON%s: want {\"KEY\": {\"enabled\": false, \"trusted_hash\": \"sha256:...\"}}", jsonErrorPosition([]byte(f.hookState)))
	}
	if f.permissionMode != "" && !slices.Contains(permissionModes, f.permissionMode) {
		return hooks.Options{}, fmt.Errorf("--permission-mode %q: want one of %s", f.permissionMode, strings.Join(permissionModes, ", "))
	}
	transcript := f.transcriptPath
	if transcript != "" {
		if transcript, err = filepath.Abs(transcript); err != nil {
			return hooks.Options{}, err
		}
	}
	return hooks.Options{
		Profile: prof,
		Session: hooks.Session{ID: id, Cwd: cwd, Model: f.model, TranscriptPath: transcript, PermissionMode: f.permissionMode},
		Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: root, ProjectTrusted: f.trustProject.val,
			ProjectTrustKnown: f.trustProject.set, PrintMode: f.printMode, Cwd: cwd, Plugins: f.plugins,
			Managed: f.managed, Settings: f.settings, StateOverrides: []byte(f.hookState), ConfigProfile: f.configProfile,
			Features: f.features, PluginCache: hooks.DefaultPluginCache()},
		BypassTrust: f.bypassTrust,
		Logger:      logger,
		// Where tools run, for the profile's coverage labels.
		ToolLocations: f.toolLocations,
		EnvAllowlist:  f.envAllow.names,
	}, nil
}

// sameFlags repeats the discovery flags the user gave, so a hint such as
// "hookd trust --all" names the same hooks.
func (f *engineFlags) sameFlags(fs *pflag.FlagSet) string {
	var b strings.Builder
	for _, name := range []string{"profile", "home", "cwd", "project", "trust-project", "plugin", "config-profile"} {
		fl := fs.Lookup(name)
		if fl == nil || !fl.Changed {
			continue
		}
		switch name {
		case "trust-project":
			if f.trustProject.val {
				b.WriteString(" --trust-project")
			} else {
				b.WriteString(" --trust-project=false")
			}
		case "plugin":
			for _, p := range f.plugins {
				b.WriteString(" --plugin " + shellQuote(p.Root))
			}
		default:
			b.WriteString(" --" + name + " " + shellQuote(fl.Value.String()))
		}
	}
	return b.String()
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// pluginFlag is --plugin DIR, repeatable: plugin folders loaded as they are,
// so an author can try a plugin without installing it. Each is a plugin of
// marketplace "local" named by its manifest, in the order given.
type pluginFlag []hooks.PluginConfig

func (f *pluginFlag) String() string {
	if f == nil {
		return ""
	}
	roots := make([]string, len(*f))
	for i, c := range *f {
		roots[i] = c.Root
	}
	return strings.Join(roots, ",")
}

func (f *pluginFlag) Type() string { return "folder" }

// Set takes one folder. A mistyped path is an error now rather than a plugin
// that silently has no hooks.
func (f *pluginFlag) Set(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("no plugin folder %s", abs)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder: give the plugin's root folder (the one holding .codex-plugin/ or .claude-plugin/)", abs)
	}
	*f = append(*f, hooks.PluginConfig{Root: abs})
	return nil
}

// featureFlag is --feature NAME=VALUE, repeatable: the host feature settings
// that initialize takes as config.features (the mirri profile reads
// hookCommandRewrite=true|false and hookEngine=v1|v2).
type featureFlag map[string]string

func (f featureFlag) String() string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = n + "=" + f[n]
	}
	return strings.Join(names, ",")
}

func (f featureFlag) Type() string { return "NAME=VALUE" }

// Set takes one NAME=VALUE; a later value for a name replaces an earlier one.
func (f *featureFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if name = strings.TrimSpace(name); !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE (for example hookEngine=v2), got %q", s)
	}
	if *f == nil {
		*f = featureFlag{}
	}
	(*f)[name] = value
	return nil
}

// toolLocationFlag is --tool-location TOOL=WHERE, repeatable: where the host
// runs a tool (client, server, server-approval), as initialize's
// config.toolLocations. Profiles with coverage labels use it in list.
type toolLocationFlag map[string]string

func (f *toolLocationFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	pairs := make([]string, 0, len(*f))
	for tool, where := range *f {
		pairs = append(pairs, tool+"="+where)
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

func (f *toolLocationFlag) Type() string { return "TOOL=WHERE" }

// Set takes one TOOL=WHERE; a bad location is an error now, naming the three
// that exist.
func (f *toolLocationFlag) Set(v string) error {
	tool, where, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want TOOL=%s|%s|%s, got %q", hooks.LocationClient, hooks.LocationServer, hooks.LocationServerApproval, v)
	}
	m := map[string]string{tool: where}
	if err := hooks.CheckToolLocations(m); err != nil {
		return err
	}
	if *f == nil {
		*f = toolLocationFlag{}
	}
	(*f)[tool] = where
	return nil
}

// envAllowFlag collects --env-allow NAME[,NAME...]; given once with an empty
// value it is an empty allowlist (hooks get no variables).
type envAllowFlag struct{ names []string }

func (f *envAllowFlag) String() string { return strings.Join(f.names, ",") }

func (f *envAllowFlag) Type() string { return "NAMES" }

func (f *envAllowFlag) Set(v string) error {
	if f.names == nil {
		f.names = []string{}
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			f.names = append(f.names, n)
		}
	}
	return nil
}

// optBool is a boolean flag that remembers whether it was given, so
// --trust-project=false (the host's "no") differs from no flag at all (the
// profile's own trust record decides).
type optBool struct{ set, val bool }

func (b *optBool) String() string   { return strconv.FormatBool(b.val) }
func (b *optBool) IsBoolFlag() bool { return true }
func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, not %q", s)
	}
	b.set, b.val = true, v
	return nil
}

// Type names optBool's value in help, for pflag.
func (b *optBool) Type() string { return "bool" }
