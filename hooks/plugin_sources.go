package hooks

import (
	"fmt"
	"os"
	"strings"

	"github.com/hookd/hookd/plugins"
)

// PluginConfig is one plugin the host names: its root folder and, optionally,
// its name, marketplace, enablement and data folder (initialize
// config.plugins, hookd --plugin).
type PluginConfig = plugins.Config

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
	found, warns := plugins.Load(plugins.Options{Plugins: opts.Plugins, Dirs: opts.PluginDirs, DataHome: opts.DataHome, Rule: p.PluginRule})
	for _, w := range warns {
		d.Warns = append(d.Warns, Warning{Source: w.Source, Message: w.Message})
	}
	for _, pl := range found {
		d.AddPlugin(p, pl)
	}
}

// AddPlugin parses every hooks source of one plugin and adds its hooks, each
// carrying the plugin's variables in Env.
func (d *DiscoveryRun) AddPlugin(p *Profile, pl *plugins.Plugin) {
	env := pl.Env()
	for _, s := range pl.Sources {
		src := Source{Layer: LayerPlugin, Path: s.Path, Plugin: pl.Name}
		var hooks []*Hook
		var warns []Warning
		if s.Inline != nil {
			hooks, warns = ParseHooksValue(p, s.Inline, src, s.Key)
		} else {
			hooks, warns = ParseHooksJSON(p, s.File, src, s.Key)
		}
		for _, h := range hooks {
			h.Env = env
		}
		for i := range warns {
			// Codex's words for a plugin's file, so a search for its
			// message finds this one too.
			if rest, ok := strings.CutPrefix(warns[i].Message, "failed to parse hooks config "); ok {
				warns[i].Message = "failed to parse plugin hooks config " + rest
			}
		}
		d.Add(hooks, warns)
	}
}

// pluginScript makes a plugin hook's command ready to run: the brace forms of
// the plugin variables are replaced by their values, and the plugin's data
// folder is created if it is not there yet (a hook may write to it at once).
// Hooks without plugin variables are returned unchanged.
func (e *Engine) pluginScript(h *Hook, script string) string {
	if len(h.Env) == 0 {
		return script
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

// hookEnv is the environment of h's process: hookd's snapshot, the hook's own
// variables (a plugin's), and CLAUDE_PROJECT_DIR, which Claude Code gives every
// hook and which plugins written for it read.
func (e *Engine) hookEnv(base []string, h *Hook) []string {
	env := make([]string, 0, len(base)+len(h.Env)+1)
	env = append(env, base...)
	env = append(env, envList(h.Env)...)
	return append(env, "CLAUDE_PROJECT_DIR="+e.projectDir())
}

// projectDir is the session's project root, else its working directory.
func (e *Engine) projectDir() string {
	if root := e.opts.Discover.ProjectRoot; root != "" {
		return AbsClean(root)
	}
	return e.opts.Session.Cwd
}
