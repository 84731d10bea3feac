package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/par"
	"github.com/hookd/hookd/plugins"
)

// PluginConfig is one plugin the host names: its root folder and, optionally,
// its name, marketplace, enablement and data folder (initialize
// config.plugins, hookd --plugin).
type PluginConfig = plugins.Config

// PluginDataHome is where plugin data folders go: the host's DataHome when
// it gives one, else <home>/plugins/data as the hosts keep them
// ($CODEX_HOME/plugins/data, ~/.claude/plugins/data), else hookd's own.
func PluginDataHome(p *Profile, opts DiscoverOptions) string {
	if opts.DataHome != "" {
		return opts.DataHome
	}
	if home := ResolveHome(p, opts.Home); home != "" {
		return filepath.Join(home, "plugins", "data")
	}
	return ""
}

// plugins appends the hooks of every enabled plugin, after all config layers,
// as Codex orders them. Each hook carries its plugin's variables in Env. Its
// command stays as written, so its hash (and so its trust) does not depend on
// where the plugin is installed: ${PLUGIN_ROOT} and the like are replaced
// only when the hook runs (pluginScript).
func (d *DiscoveryRun) plugins(p *Profile, opts DiscoverOptions) {
	if len(opts.Plugins) == 0 && len(opts.PluginDirs) == 0 {
		return
	}
	if p.PluginRule == plugins.NoPlugins {
		d.Warns = append(d.Warns, Warning{Message: fmt.Sprintf("ignoring plugins: the %s profile does not load plugin hooks", p.Name)})
		return
	}
	d.LoadPlugins(p, plugins.Options{Plugins: opts.Plugins, Dirs: opts.PluginDirs, DataHome: PluginDataHome(p, opts), Rule: p.PluginRule,
		InstallCache: installCache(p, opts), CacheDir: opts.PluginCache}, nil)
}

// LoadPlugins loads the plugins o describes, adds their warnings and
// (AddPlugins, with skip) their hooks, and returns them. The load cache's
// write waits until their hooks are parsed, so that what the parse offers
// the cache (parsePlugin) is written with them.
func (d *DiscoveryRun) LoadPlugins(p *Profile, o plugins.Options, skip func(*plugins.Plugin) Warning) []*plugins.Plugin {
	defer plugins.HoldCacheWrites()()
	found, warns := plugins.Load(o)
	for _, w := range warns {
		d.Warns = append(d.Warns, Warning{Source: w.Source, Message: w.Message})
	}
	d.AddPlugins(p, found, skip)
	return found
}

// DefaultPluginCache is the plugin load cache's folder for a session:
// <XDG cache home>/hookd/plugins, or "" when $HOOKD_NO_CACHE turns the cache
// off (see plugins.DefaultCacheDir).
func DefaultPluginCache() string { return plugins.DefaultCacheDir() }

// PutOffLoadWork holds back what a load leaves to do after it (the
// collection of its garbage, PauseGC, and the plugin load cache's write,
// plugins.HoldCacheWrites) until the function it returns is called: a
// server calls it once the load's reply is written, however the request
// ends.
func PutOffLoadWork() (resume func()) {
	gc, writes := PauseGC(), plugins.HoldCacheWrites()
	return func() {
		gc()
		writes()
	}
}

// installCache is the folder Codex installs plugins into,
// <user folder>/plugins/cache, or "" without a user folder.
func installCache(p *Profile, opts DiscoverOptions) string {
	home := ResolveHome(p, opts.Home)
	if home == "" {
		return ""
	}
	return filepath.Join(home, "plugins", "cache")
}

// AddPlugin parses every hooks source of one plugin and adds its hooks, each
// carrying the plugin's variables in Env. A plugin outside the install cache
// has its resolved folder in its hooks' hash (Source.pluginRoot).
func (d *DiscoveryRun) AddPlugin(p *Profile, pl *plugins.Plugin) {
	d.AddPlugins(p, []*plugins.Plugin{pl}, nil)
}

// AddPlugins is AddPlugin for each plugin in order, parsing them at once
// (with hundreds of plugins, parsing is the part of a load that is not
// system calls). skip, when not nil, says why a plugin's hooks are not
// loaded at all (a zero Warning loads them); that warning takes the plugin's
// place, at the file it names (else at the plugin's root).
func (d *DiscoveryRun) AddPlugins(p *Profile, pls []*plugins.Plugin, skip func(*plugins.Plugin) Warning) {
	type parsed struct {
		skipped Warning
		hooks   []*Hook
		warns   []Warning
	}
	out := make([]parsed, len(pls))
	par.Each(len(pls), func(i int) {
		if skip != nil {
			if out[i].skipped = skip(pls[i]); out[i].skipped.Message != "" {
				return
			}
		}
		out[i].hooks, out[i].warns = parsePlugin(p, pls[i])
	})
	for i, r := range out {
		if r.skipped.Message != "" {
			if r.skipped.Source == "" {
				r.skipped.Source = pls[i].Root
			}
			d.Warns = append(d.Warns, r.skipped)
			continue
		}
		d.Add(r.hooks, r.warns)
	}
}

// parsePlugin parses one plugin's hooks sources, in order, or takes what
// an earlier parse of the same files gave from the plugin load cache
// (parse_cache.go).
func parsePlugin(p *Profile, pl *plugins.Plugin) ([]*Hook, []Warning) {
	if data, ok := pl.CachedParse(); ok {
		if hooks, warns, ok := decodeParse(p, pl, data); ok {
			parsesTaken.Add(1)
			return hooks, warns
		}
		return parsePluginFiles(p, pl)
	}
	hooks, warns := parsePluginFiles(p, pl)
	pl.OfferParse(func() []byte { return keepParse(p, pl) })
	return hooks, warns
}

// parsePluginFiles parses one plugin's hooks sources, in order.
func parsePluginFiles(p *Profile, pl *plugins.Plugin) (all []*Hook, allWarns []Warning) {
	env := pl.Env()
	ph := plugins.Placeholders(env)
	for _, s := range pl.Sources {
		src := pluginSource(pl, s)
		var hooks []*Hook
		var warns []Warning
		if s.Inline != nil {
			hooks, warns = ParseHooksValue(p, s.Inline, src, s.Key)
		} else {
			hooks, warns = ParseHooksJSON(p, s.File, src, s.Key)
		}
		kept := hooks[:0]
		for _, h := range hooks {
			h.Env = env
			if err := pasteProblem(h, ph); err != nil {
				warns = append(warns, Warning{Source: s.Path, Message: fmt.Sprintf("skipping hook %s of plugin %s: %v", h.Key, pl.ID(), err)})
				continue
			}
			kept = append(kept, h)
		}
		for i := range warns {
			// Codex's words for a plugin's file, so a search for its
			// message finds this one too.
			if rest, ok := strings.CutPrefix(warns[i].Message, "failed to parse hooks config "); ok {
				warns[i].Message = "failed to parse plugin hooks config " + rest
			}
		}
		all = append(all, kept...)
		allWarns = append(allWarns, warns...)
	}
	return all, allWarns
}

// pluginSource is where the hooks of one of pl's sources come from.
func pluginSource(pl *plugins.Plugin, s plugins.Source) Source {
	src := Source{Layer: LayerPlugin, Path: s.Path, Plugin: pl.Name}
	if !pl.InstallCache {
		src.pluginRoot = pl.RealRoot
	}
	return src
}

// pasteProblem says why a plugin hook's command cannot have its plugin
// variables pasted in: a value holds a character its shell treats specially
// (plugins.CheckExpand). The hook is then not loaded at all, rather than run
// with the value quoted in a way its author did not write.
func pasteProblem(h *Hook, ph []plugins.Placeholder) error {
	if h.Handler.Type != TypeCommand {
		return nil
	}
	if err := plugins.CheckExpandWith(h.Handler.Command, ph); err != nil {
		return err
	}
	return plugins.CheckExpandWith(h.Handler.CommandWindows, ph)
}

// pluginScript makes a plugin hook's command ready to run: the brace forms of
// the plugin variables are replaced by their values, and the plugin's data
// folder is created if it is not there yet (a hook may write to it at once).
// Hooks without plugin variables are returned unchanged. A value that
// plugins.Paste refuses is an error: the hook fails without running, for
// every profile whose hooks carry plugin variables (the engine's plugins
// are refused at load already, pasteProblem).
func (e *Engine) pluginScript(h *Hook, script string) (string, error) {
	if len(h.Env) == 0 {
		return script, nil
	}
	if dir := h.Env[plugins.EnvData]; dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			// The hook still runs: it may not need the folder, and if it
			// does, its own error says so.
			e.log.Warn("cannot create plugin data folder", "hook", h.Key, "dir", dir, "error", err)
		}
	}
	return plugins.Expand(script, h.Env)
}

// hookEnv is the environment of h's process: base (hookd's snapshot, or the
// login environment when the cache has one) and the hook's own variables (a
// plugin's), then whatever the profile's HookEnv adds or drops (Claude
// Code's CLAUDE_PROJECT_DIR; Codex adds nothing).
//
// base is built once (New, or the login environment's resolution) and never
// written: a hook with nothing to add, under a profile without HookEnv
// (Codex's hooks outside plugins), runs with base itself, and any other gets
// one copy with its variables added.
func (e *Engine) hookEnv(base []string, h *Hook) []string {
	var scope map[string]string
	if h.Scope != nil {
		scope = h.Scope.Env
	}
	if len(h.Env) == 0 && len(scope) == 0 && e.profile.HookEnv == nil {
		// Capped: whatever appends to it makes a copy.
		return base[:len(base):len(base)]
	}
	env := make([]string, 0, len(base)+len(h.Env)+len(scope)+2)
	env = append(env, base...)
	for k, v := range h.Env {
		env = append(env, k+"="+v)
	}
	for k, v := range scope {
		env = append(env, k+"="+v)
	}
	if e.profile.HookEnv != nil {
		env = e.profile.HookEnv(e, h, env)
	}
	return env
}

// ProjectDir is the session's project root, else its working directory.
func (e *Engine) ProjectDir() string { return e.projectDir() }

// projectDir is the session's project root, else its working directory.
func (e *Engine) projectDir() string {
	if root := e.opts.Discover.ProjectRoot; root != "" {
		return AbsClean(root)
	}
	return e.opts.Session.Cwd
}
