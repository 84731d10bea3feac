package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// Claude Code's installed plugins (measured on 2.1.328):
// ~/.claude/plugins/installed_plugins.json lists what is installed,
//
//	{"version": 2, "plugins": {"<plugin>@<marketplace>": [{"scope": "user", "installPath": "...", "version": "..."}]}}
//
// and a plugin runs when enabledPlugins in the settings says true. A plugin
// from a "directory" marketplace (known_marketplaces.json) runs from the
// marketplace's source folder, not the cache copy: CLAUDE_PLUGIN_ROOT is
// that folder. installedPlugins adds them to the plugins the host names, so
// `hookd run --profile claude --home ~/.claude` runs what Claude Code runs.

type installedFile struct {
	Version int                         `json:"version"`
	Plugins map[string][]installedEntry `json:"plugins"`
}

type installedEntry struct {
	Scope       string `json:"scope"`
	InstallPath string `json:"installPath"`
	ProjectPath string `json:"projectPath"`
}

type knownMarketplace struct {
	Source struct {
		Source string `json:"source"`
		Path   string `json:"path"`
	} `json:"source"`
	InstallLocation string `json:"installLocation"`
}

// installedPlugins returns the enabled, installed plugins the host has not
// named, those the settings do not enable (enabledPlugins false, or no
// entry at all: off; Claude Code runs neither), and a warning per file it
// could not read.
func installedPlugins(home, project string, enabled map[string]bool, named []hooks.PluginConfig) (out, off []hooks.PluginConfig, _ []hooks.Warning) {
	dir := filepath.Join(home, "plugins")
	path := filepath.Join(dir, "installed_plugins.json")
	data, err := hooks.ReadConfigFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil, nil
		}
		return nil, nil, []hooks.Warning{{Source: path, Message: fmt.Sprintf("cannot read installed plugins %s: %v", path, err)}}
	}
	var f installedFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, []hooks.Warning{{Source: path, Message: fmt.Sprintf("ignoring installed plugins %s: %v", path, err)}}
	}
	if f.Version != 2 {
		return nil, nil, []hooks.Warning{{Source: path, Message: fmt.Sprintf("ignoring installed plugins %s: version %d, hookd reads version 2", path, f.Version)}}
	}
	var markets map[string]knownMarketplace
	if b, err := hooks.ReadConfigFile(filepath.Join(dir, "known_marketplaces.json")); err == nil {
		_ = json.Unmarshal(b, &markets)
	}
	ids := make([]string, 0, len(f.Plugins))
	for id := range f.Plugins {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		name, market, ok := strings.Cut(id, "@")
		on := enabled[id]
		if !ok || namedPlugin(named, name, market) {
			continue
		}
		for _, e := range f.Plugins[id] {
			if e.InstallPath == "" || e.ProjectPath != "" && project != "" && !hooks.SameDir(e.ProjectPath, project) {
				continue
			}
			root := e.InstallPath
			if m, ok := markets[market]; ok && m.Source.Source == "directory" && m.Source.Path != "" {
				if src := directoryPluginRoot(m.Source.Path, name); src != "" {
					root = src
				}
			}
			if on {
				out = append(out, hooks.PluginConfig{Root: root, Name: name, Marketplace: market})
			} else {
				off = append(off, hooks.PluginConfig{Root: root, Name: name, Marketplace: market})
			}
			break
		}
	}
	return out, off, nil
}

// directoryPluginRoot finds a plugin's folder in a directory marketplace:
// its entry's "source" in .claude-plugin/marketplace.json, a path inside the
// marketplace folder.
func directoryPluginRoot(market, name string) string {
	data, err := hooks.ReadConfigFile(filepath.Join(market, ".claude-plugin", "marketplace.json"))
	if err != nil {
		return ""
	}
	var m struct {
		Plugins []struct {
			Name   string          `json:"name"`
			Source json.RawMessage `json:"source"`
		} `json:"plugins"`
	}
	if json.Unmarshal(data, &m) != nil {
		return ""
	}
	for _, p := range m.Plugins {
		var src string
		if p.Name != name || json.Unmarshal(p.Source, &src) != nil || src == "" {
			continue
		}
		root := filepath.Clean(filepath.Join(market, src))
		if rel, err := filepath.Rel(market, root); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return ""
		}
		return root
	}
	return ""
}

func namedPlugin(named []hooks.PluginConfig, name, market string) bool {
	for _, c := range named {
		if c.Name == name && c.Marketplace == market {
			return true
		}
	}
	return false
}
