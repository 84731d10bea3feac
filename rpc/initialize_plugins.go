package rpc

import (
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// pluginParam is one entry of initialize's config.plugins.
type pluginParam struct {
	Root        string  `json:"root"`
	Name        string  `json:"name"`
	Marketplace string  `json:"marketplace"`
	Enabled     *bool   `json:"enabled"`
	DataDir     *string `json:"dataDir"`
}

// pluginOptions checks config.plugins and config.pluginDirs. Relative paths
// are taken from the session's cwd, the only folder host and hookd agree on.
func pluginOptions(p *initializeParams, cwd string) ([]hooks.PluginConfig, []string, error) {
	abs := func(path string) string {
		if filepath.IsAbs(path) {
			return filepath.Clean(path)
		}
		return filepath.Join(cwd, path)
	}
	var configs []hooks.PluginConfig
	for i, pp := range p.Config.Plugins {
		if strings.TrimSpace(pp.Root) == "" {
			return nil, nil, invalidParams("config.plugins[%d].root: required: the plugin's folder", i)
		}
		c := hooks.PluginConfig{Root: abs(pp.Root), Name: pp.Name, Marketplace: pp.Marketplace, Enabled: pp.Enabled}
		if pp.DataDir != nil && *pp.DataDir != "" {
			c.DataDir = abs(*pp.DataDir)
		}
		configs = append(configs, c)
	}
	var dirs []string
	for i, d := range p.Config.PluginDirs {
		if strings.TrimSpace(d) == "" {
			return nil, nil, invalidParams("config.pluginDirs[%d]: must be a folder path, not empty", i)
		}
		dirs = append(dirs, abs(d))
	}
	return configs, dirs, nil
}
