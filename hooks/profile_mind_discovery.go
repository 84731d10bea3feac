package hooks

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"
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
func discoverMind(p *Profile, opts DiscoverOptions) *Discovery {
	var d discoveryRun
	if opts.Managed != "" {
		d.warns = append(d.warns, Warning{Source: opts.Managed, Message: fmt.Sprintf(
			"ignoring managed requirements %s: managed hooks are a reserved source in the %s profile and are not discovered", opts.Managed, p.Name)})
	}
	opts.SessionHooks = d.splitSessionState(opts.SessionHooks)
	home := ResolveHome(p, opts.Home)
	switch {
	case home != "":
		d.layer(p, home, LayerUser)
	default:
		d.warns = append(d.warns, Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
	}
	if opts.ConfigProfile != "" {
		d.configProfile(p, home, opts.ConfigProfile)
	}
	if dir := projectFolder(p, opts, home); dir != "" {
		d.layer(p, dir, LayerProject)
	}
	if len(opts.SessionHooks) > 0 {
		hooks, warns := ParseHooksValue(p, opts.SessionHooks, Source{Layer: LayerCLI, Path: "cli"}, "cli")
		d.add(hooks, warns)
	}
	if len(opts.Plugins) > 0 || len(opts.PluginDirs) > 0 {
		d.warns = append(d.warns, Warning{Message: fmt.Sprintf(
			"ignoring plugins: plugin hooks are a reserved source in the %s profile and are not discovered", p.Name)})
	}
	for i, h := range d.hooks {
		h.Order = i
	}
	return d.finish(p, opts)
}

// configProfile loads [profiles.<name>.hooks] from the user config.toml. Its
// hooks are keyed "<config.toml>#profiles.<name>:<event>:<g>:<h>" so that
// they never share a key (and so trust) with the user layer's [hooks]. A
// config.toml that cannot be read or parsed was already reported by the user
// layer; a profile that is not there is reported here.
func (d *discoveryRun) configProfile(p *Profile, home, name string) {
	if home == "" {
		d.warns = append(d.warns, Warning{Message: fmt.Sprintf(
			"skipping hooks of config profile %q: cannot find the user folder (set $%s or $HOME)", name, p.HomeEnv)})
		return
	}
	path := filepath.Join(home, configTOMLName)
	data, err := readConfigFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf(
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
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf(
			"config profile %q is selected but %s has no [profiles.%s] table: no profile hooks loaded", name, path, tomlKey(name))})
		return
	}
	raw, ok := prof["hooks"]
	if !ok {
		return
	}
	at := "profiles." + tomlKey(name) + ".hooks"
	src := Source{Layer: LayerProfile, Path: path}
	w := newHooksWalker(p, src, path+"#profiles."+name, nil)
	table, ok := raw.(map[string]any)
	if !ok {
		w.warn(cfgSite{group: -1, handler: -1}, -1, at,
			"ignoring field %q in %s: expected a table of hook events", at, path)
		d.add(w.hooks, w.warns)
		return
	}
	events := make(map[string]any, len(table))
	for k, v := range table {
		// State here is reported by trust (a profile cannot authorize itself).
		if k != "state" {
			events[k] = v
		}
	}
	text, err := tomlToJSON(events)
	if err != nil {
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("failed to parse hooks config %s: %s: %v", path, at, err)})
		return
	}
	w.walkHooks(gjson.ParseBytes(text), at)
	d.add(w.hooks, w.warns)
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
