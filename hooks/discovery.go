package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File names inside a layer folder (user or project).
const (
	HooksJSONName  = "hooks.json"
	ConfigTOMLName = "config.toml"
)

// DiscoverOptions says where to look for hooks.
type DiscoverOptions struct {
	Home           string // profile user folder; "" = $<p.HomeEnv> or ~/<p.HomeDir>
	ProjectRoot    string // "" = no project layer
	ProjectTrusted bool
	// ProjectTrustKnown is true when the host answered whether the project
	// is trusted (false included). When it did not, the profile's own trust
	// record decides (ProjectTrustStore); a true ProjectTrusted is always
	// the host's answer.
	ProjectTrustKnown bool
	// ProjectDecidedBy is who settled ProjectTrusted (TrustByHost,
	// TrustByRecord, TrustByDefault), set when discovery starts; a profile
	// whose host treats a folder its record marks untrusted like one the
	// host refused reads it.
	ProjectDecidedBy string
	// PrintMode: the host runs non-interactively (Claude Code's -p), where
	// it treats the folder as trusted for the project's settings files and
	// skills, but not for its agents' hooks. A host's explicit "not
	// trusted" (ProjectTrustKnown, ProjectTrusted false) still loads
	// nothing from the project. Profiles without the distinction ignore it.
	PrintMode bool
	// Cwd is the session's working directory, whose trust record is looked
	// up before the project root's ("" = the project root).
	Cwd          string
	SessionHooks []byte // inline {Event: [group...]} from the host, may be nil

	// Plugins are the plugins the host names (config.plugins, --plugin) and
	// PluginDirs the folders scanned for more (config.pluginDirs). DataHome
	// is where plugin data folders go ("" = <home>/plugins/data, see
	// PluginDataHome).
	Plugins    []PluginConfig
	PluginDirs []string
	DataHome   string
	// PluginCache is the folder of the plugin load cache (package
	// plugins, cache.go): what a load read of each plugin, checked and used
	// by the next load. "" keeps none; plugins.DefaultCacheDir is the
	// usual value.
	PluginCache string
	// Managed is the path of the managed requirements.toml ("" = none).
	Managed string
	// Settings are extra settings files, a layer after the project's
	// (Claude Code's --settings FILE); profiles without such a layer
	// ignore them.
	Settings []string
	// StateOverrides is {"<key>": {"enabled"?, "trusted_hash"?}} given on the
	// command line for this process; it overrides the user config's state.
	StateOverrides []byte
	// ConfigProfile names the host's configuration profile whose hooks form
	// a layer of their own (Mind: [profiles.<name>.hooks] in the user
	// config.toml). "" = none; profiles without such a layer ignore it.
	ConfigProfile string
	// Features are the host's feature settings (initialize config.features,
	// --feature NAME=VALUE), as text; each profile reads the names it knows
	// (Mirri: hookCommandRewrite, hookEngine) and codex reads none.
	Features map[string]string
}

// DiscoverAll loads every source in order (managed requirements, user hooks.json, user config.toml
// [hooks], trusted project .codex/hooks.json, project config.toml [hooks], session hooks, then
// plugin hooks), numbers hooks in display order and applies trust, enablement and policy. All
// sources load together: a later layer adds to the hooks of an earlier one, never replaces them. A
// problem in one source is a warning and never stops the others from loading; only required
// managed hooks that fail to load are Fatal.
func DiscoverAll(p *Profile, opts DiscoverOptions) *Discovery {
	var d DiscoveryRun
	d.managed(p, opts.Managed)
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	home := ResolveHome(p, opts.Home)
	switch {
	case home != "":
		d.Layer(p, home, LayerUser)
	case p.HomeEnv != "" || p.HomeDir != "":
		d.Warns = append(d.Warns, Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
	}
	// An untrusted project must not get to run code, so its folder is not even
	// read: its hooks would only be listed, and listing needs trust too.
	// Running inside the home folder makes the project folder the user
	// folder; the gate says "" then, as reading it twice would double every
	// hook.
	if dir := ProjectFolder(p, opts, home); dir != "" {
		d.Layer(p, dir, LayerProject)
	}
	if len(opts.SessionHooks) > 0 {
		hooks, warns := ParseHooksValue(p, opts.SessionHooks, Source{Layer: LayerSession, Path: "session"}, "session")
		d.Add(hooks, warns)
	}
	d.plugins(p, opts)
	for i, h := range d.Hooks {
		h.Order = i
	}
	return d.Finish(p, opts)
}

// ResolveHome returns the profile's user folder for opts.Home: home itself when
// set, else $<p.HomeEnv>, else <user home>/<p.HomeDir>. It returns "" when none
// can be found. The result is absolute so that hook keys built from it are
// stable whatever the working directory.
func ResolveHome(p *Profile, home string) string {
	if home != "" {
		return AbsClean(home)
	}
	if p.HomeEnv != "" {
		if v := os.Getenv(p.HomeEnv); v != "" {
			return AbsClean(v)
		}
	}
	if p.HomeDir == "" {
		return ""
	}
	uh, err := os.UserHomeDir()
	if err != nil || uh == "" {
		return ""
	}
	return filepath.Join(AbsClean(uh), p.HomeDir)
}

// FindProjectRoot returns the nearest ancestor of cwd containing .git (a dir or a file), else cwd.
// A .git file marks a linked worktree or a submodule, which is a project root too.
func FindProjectRoot(cwd string) string {
	start := AbsClean(cwd)
	for dir := start; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start
		}
		dir = parent
	}
}

// DiscoveryRun collects one discovery: the hooks found, the warnings and
// the problems that must stop a session. A profile's own Discover builds on
// its steps (Layer, Add, AddPlugin) and ends with Finish.
type DiscoveryRun struct {
	Hooks []*Hook
	Warns []Warning
	Fatal []error
	// LeftOut are the sources the profile's own discovery leaves out
	// (disabled plugins); Discovery.LeftOut starts with them.
	LeftOut []LeftOut
	// req is what the managed requirements say; sessionState is the
	// "state" member of the session hooks.
	req          requirements
	SessionState []byte
}

// Add appends hooks and warnings found by one step.
func (d *DiscoveryRun) Add(hooks []*Hook, warns []Warning) {
	d.Hooks = append(d.Hooks, hooks...)
	d.Warns = append(d.Warns, warns...)
}

// Layer loads one config folder: hooks.json first, then [hooks] in config.toml.
func (d *DiscoveryRun) Layer(p *Profile, dir, layer string) {
	jsonPath := filepath.Join(dir, HooksJSONName)
	tomlPath := filepath.Join(dir, ConfigTOMLName)
	var jsonUsed, tomlUsed bool
	if data, ok := d.Read(jsonPath); ok {
		w := parseHooksJSON(p, data, Source{Layer: layer, Path: jsonPath}, jsonPath)
		d.Add(w.Hooks, w.Warns)
		jsonUsed = w.nonEmpty
	}
	if data, ok := d.Read(tomlPath); ok {
		w := parseHooksTOML(p, data, Source{Layer: layer, Path: tomlPath}, tomlPath)
		d.Add(w.Hooks, w.Warns)
		tomlUsed = w.nonEmpty
	}
	if jsonUsed && tomlUsed {
		d.Warns = append(d.Warns, Warning{Source: dir, Message: fmt.Sprintf(
			"loading hooks from both %s and %s; prefer a single representation for this layer", jsonPath, tomlPath)})
	}
}

// Read returns a file's content. A missing file is the normal case and says
// nothing; any other failure is a warning so a broken setup is not silent.
func (d *DiscoveryRun) Read(path string) ([]byte, bool) {
	data, err := ReadConfigFile(path)
	switch {
	case err == nil:
		return data, true
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	default:
		d.Warns = append(d.Warns, Warning{Source: path,
			Message: fmt.Sprintf("failed to read hooks config %s: %v", path, err)})
		return nil, false
	}
}

// AbsClean returns path absolute and clean; cleaned only when it cannot be
// made absolute.
func AbsClean(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// SameDir reports whether a and b name one folder, through symlinks too.
func SameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	if err != nil {
		return false
	}
	return os.SameFile(ai, bi)
}
