package hooks

import (
	"os"
	"path/filepath"
)

// ExtensionRoots lists the extension (plugin) folders of hosts whose
// extensions are plain folders (Gemini CLI, Qwen Code): first those the host
// names (config.plugins, --plugin) and has not disabled, then each child of
// <home>/extensions and of opts.PluginDirs for which found returns a folder
// ("" skips the child). found lets a host follow its own install records, a
// linked extension say.
func ExtensionRoots(opts DiscoverOptions, home string, found func(child string) string) []string {
	var roots []string
	for _, pl := range opts.Plugins {
		if pl.Enabled == nil || *pl.Enabled {
			roots = append(roots, pl.Root)
		}
	}
	dirs := opts.PluginDirs
	if home != "" {
		dirs = append([]string{filepath.Join(home, "extensions")}, dirs...)
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if root := found(filepath.Join(dir, e.Name())); root != "" {
				roots = append(roots, root)
			}
		}
	}
	return roots
}
