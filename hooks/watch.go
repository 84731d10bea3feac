package hooks

import (
	"os"
	"path/filepath"
	"sort"
)

// WatchFolders lists the folders whose changes can change the engine's hook
// set: the user folder, the trusted project's folder, the folder of every
// file hooks or warnings came from, and every plugin root with its hooks
// folder. Only folders that exist are listed; a hooks file created in one of
// them is seen.
func (e *Engine) WatchFolders() []string {
	set := map[string]bool{}
	add := func(dir string) {
		if dir == "" || !filepath.IsAbs(dir) {
			return
		}
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			set[filepath.Clean(dir)] = true
		}
	}
	d := e.opts.Discover
	add(ResolveHome(e.profile, d.Home))
	if st, _ := e.Sources(); st != nil && st.Trusted && e.profile.ProjectDir != "" {
		add(filepath.Join(st.Root, e.profile.ProjectDir))
	}
	for _, p := range d.Plugins {
		add(p.Root)
		add(filepath.Join(p.Root, "hooks"))
		add(filepath.Join(p.Root, ".codex-plugin"))
		add(filepath.Join(p.Root, ".claude-plugin"))
	}
	for _, dir := range d.PluginDirs {
		add(dir)
	}
	if d.Managed != "" {
		add(filepath.Dir(d.Managed))
	}
	hooks, warnings := e.snapshot()
	for _, h := range hooks {
		add(filepath.Dir(h.Source.Path))
	}
	for _, w := range warnings {
		add(filepath.Dir(w.Source))
	}
	out := make([]string, 0, len(set))
	for dir := range set {
		out = append(out, dir)
	}
	sort.Strings(out)
	return out
}
