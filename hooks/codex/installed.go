package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/plugins"
)

// Codex's installed plugins (measured on Codex 0.169): a plugin installed
// from a marketplace lives in $CODEX_HOME/plugins/cache/<marketplace>/
// <plugin>/<version>/ and runs when the user config.toml enables it:
//
//	[plugins."<plugin>@<marketplace>"]
//	enabled = true
//
// discover adds each enabled, installed plugin to the ones the host names,
// so `hookd run --home $CODEX_HOME` runs the same hooks Codex does. Plugins
// the host gives with --plugin or config.plugins are loaded as they are
// (marketplace "local" unless it says otherwise).

// discover is the codex profile's Discover.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	home := hooks.ResolveHome(p, opts.Home)
	var warns []hooks.Warning
	var off []hooks.LeftOut
	if home != "" {
		var extra []hooks.PluginConfig
		extra, off, warns = installedPlugins(home, opts.Plugins)
		opts.Plugins = append(append([]hooks.PluginConfig(nil), opts.Plugins...), extra...)
	}
	d := hooks.DiscoverAll(p, opts)
	d.Warnings = append(d.Warnings, warns...)
	d.LeftOut = append(d.LeftOut, off...)
	return d
}

// installedPlugins lists the plugins config.toml enables that are installed
// in the cache and not already named by the host, and the installed ones it
// disables (enabled = false) or does not name, which are left out.
func installedPlugins(home string, named []hooks.PluginConfig) ([]hooks.PluginConfig, []hooks.LeftOut, []hooks.Warning) {
	cfgPath := filepath.Join(home, "config.toml")
	table, _ := hooks.ReadConfigQuiet(cfgPath)["plugins"].(map[string]any)
	ids := make([]string, 0, len(table))
	for id := range table {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	cache := filepath.Join(home, "plugins", "cache")
	var out []hooks.PluginConfig
	var off []hooks.LeftOut
	var warns []hooks.Warning
	for _, id := range ids {
		entry, _ := table[id].(map[string]any)
		on, said := entry["enabled"].(bool)
		name, market, ok := strings.Cut(id, "@")
		if said && !on && ok && name != "" && market != "" && !namedAlready(named, name, market) {
			// Switched off by the user: say so, with the edit that
			// turns it on (Codex has no command for it).
			if root := plugins.InstalledRoot(cache, market, name); root != "" {
				off = append(off, hooks.LeftOut{Path: root, Plugin: id, Reason: hooks.ReasonPluginDisabled, UserChoice: true,
					Message: fmt.Sprintf("plugin %s is disabled in %s ([plugins.%q] enabled = false): none of its hooks load", id, cfgPath, id),
					Fix:     fmt.Sprintf("set enabled = true under [plugins.%q] in %s", id, cfgPath)})
			}
		}
		if !on {
			continue
		}
		if !ok || name == "" || market == "" {
			warns = append(warns, hooks.Warning{Source: cfgPath, Message: fmt.Sprintf("ignoring [plugins.%q]: expected <plugin>@<marketplace>", id)})
			continue
		}
		if namedAlready(named, name, market) {
			continue
		}
		root := plugins.InstalledRoot(cache, market, name)
		if root == "" {
			warns = append(warns, hooks.Warning{Source: cfgPath, Message: fmt.Sprintf("plugin %s is enabled but not installed under %s", id, filepath.Join(cache, market, name))})
			continue
		}
		out = append(out, hooks.PluginConfig{Root: root, Name: name, Marketplace: market})
	}
	// Installed, and named nowhere in config.toml: Codex runs none of its
	// hooks either.
	markets, _ := os.ReadDir(cache)
	for _, m := range markets {
		if !m.IsDir() {
			continue
		}
		names, _ := os.ReadDir(filepath.Join(cache, m.Name()))
		for _, n := range names {
			id := n.Name() + "@" + m.Name()
			if _, listed := table[id]; listed || !n.IsDir() || namedAlready(named, n.Name(), m.Name()) {
				continue
			}
			if root := plugins.InstalledRoot(cache, m.Name(), n.Name()); root != "" {
				off = append(off, hooks.LeftOut{Path: root, Plugin: id, Reason: hooks.ReasonPluginDisabled,
					Message: fmt.Sprintf("plugin %s is installed but %s does not enable it (no [plugins.%q] table): none of its hooks load", id, cfgPath, id),
					Fix:     fmt.Sprintf("add [plugins.%q] with enabled = true to %s", id, cfgPath)})
			}
		}
	}
	return out, off, warns
}

func namedAlready(named []hooks.PluginConfig, name, market string) bool {
	for _, c := range named {
		if c.Name == name && c.Marketplace == market {
			return true
		}
	}
	return false
}
