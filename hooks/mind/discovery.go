package mind

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Mind's hook sources (spec 000), in configuration order:
//
//  1. user: <home>/hooks.json, then [hooks] in <home>/config.toml
//     (home: config.home, --home, $MIND_HOME, else ~/.mind);
//  2. profile: [profiles.<name>.hooks] in the user config.toml, for the
//     configuration profile the host selects (config.configProfile,
//     --config-profile);
//  3. project: <project>/.mind/hooks.json and .mind/config.toml, only when
//     the project is trusted;
//  4. CLI: the hooks the host was given on its own command line, passed as
//     initialize config.hooks (layer "cli", keys "cli:<event>:<g>:<h>").
//
// Managed and plugin hooks are reserved sources in Mind: they are not
// discovered, and a host that names them gets a warning. Every ordinary
// source is untrusted until reviewed; trust and enablement live in the user
// config.toml as in the codex profile (trust.go), and state written in a
// profile or project table cannot authorize anything.

// discoverMind is the Mind profile's Discover.
func discoverMind(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	if opts.Managed != "" {
		d.Warns = append(d.Warns, hooks.Warning{Source: opts.Managed, Message: fmt.Sprintf(
			"ignoring managed requirements %s: managed hooks are a reserved source in the %s profile and are not discovered", opts.Managed, p.Name)})
	}
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	home := hooks.ResolveHome(p, opts.Home)
	switch {
	case home != "":
		d.Layer(p, home, hooks.LayerUser)
	default:
		d.Warns = append(d.Warns, hooks.Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
	}
	if opts.ConfigProfile != "" {
		d.configProfile(p, home, opts.ConfigProfile)
	}
	if dir := hooks.ProjectFolder(p, opts, home); dir != "" {
		d.Layer(p, dir, hooks.LayerProject)
	}
	if len(opts.SessionHooks) > 0 {
		hooks, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerCLI, Path: "cli"}, "cli")
		d.Add(hooks, warns)
	}
	if len(opts.Plugins) > 0 || len(opts.PluginDirs) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Message: fmt.Sprintf(
			"ignoring plugins: plugin hooks are a reserved source in the %s profile and are not discovered", p.Name)})
	}
	for i, h := range d.Hooks {
		h.Order = i
	}
	return d.Finish(p, opts)
}

// discovery is the engine's discovery run with this host's own steps.
type discovery struct{ hooks.DiscoveryRun }

// configProfile loads [profiles.<name>.hooks] from the user config.toml. Its
// hooks are keyed "<config.toml>#profiles.<name>:<event>:<g>:<h>" so that
// they never share a key (and so trust) with the user layer's [hooks]. A
// config.toml that cannot be read or parsed was already reported by the user
// layer; a profile that is not there is reported here.
func (d *discovery) configProfile(p *hooks.Profile, home, name string) {
	if home == "" {
		d.Warns = append(d.Warns, hooks.Warning{Message: fmt.Sprintf(
			"skipping hooks of config profile %q: cannot find the user folder (set $%s or $HOME)", name, p.HomeEnv)})
		return
	}
	path := filepath.Join(home, hooks.ConfigTOMLName)
	data, err := hooks.ReadConfigFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
				"config profile %q is selected but %s does not exist: no profile hooks loaded", name, path)})
		}
		return
	}
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return
	}
	profiles, _ := doc["profiles"].(map[string]any)
	prof, ok := profiles[name].(map[string]any)
	if !ok {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
			"config profile %q is selected but %s has no [profiles.%s] table: no profile hooks loaded", name, path, tomlKey(name))})
		return
	}
	raw, ok := prof["hooks"]
	if !ok {
		return
	}
	at := "profiles." + tomlKey(name) + ".hooks"
	src := hooks.Source{Layer: hooks.LayerProfile, Path: path}
	w := hooks.NewWalker(p, src, path+"#profiles."+name, nil)
	table, ok := raw.(map[string]any)
	if !ok {
		w.Warn(hooks.Site{Group: -1, Handler: -1}, -1, at,
			"ignoring field %q in %s: expected a table of hook events", at, path)
		d.Add(w.Hooks, w.Warns)
		return
	}
	events := make(map[string]any, len(table))
	for k, v := range table {
		// State here is reported by trust (a profile cannot authorize itself).
		if k != "state" {
			events[k] = v
		}
	}
	text, err := hooks.TOMLToJSON(events)
	if err != nil {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("failed to parse hooks config %s: %s: %v", path, at, err)})
		return
	}
	w.WalkHooks(gjson.ParseBytes(text), at)
	d.Add(w.Hooks, w.Warns)
}

// tomlKey writes a table name as a TOML key: bare when it may be, quoted
// otherwise, so messages show what the user would type.
func tomlKey(name string) string {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Sprintf("%q", name)
		}
	}
	if name == "" {
		return `""`
	}
	return name
}
