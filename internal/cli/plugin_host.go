package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/pflag"
)

// pluginHostProfile is the profile a plugin folder's manifest says it is
// for: "claude" for a folder with .claude-plugin/plugin.json and no
// .codex-plugin/ (a Claude Code plugin), else "" (a Codex plugin, or both:
// the default profile applies).
func pluginHostProfile(root string) string {
	if exists(filepath.Join(root, ".claude-plugin", "plugin.json")) && !isDir(filepath.Join(root, ".codex-plugin")) {
		return "claude"
	}
	return ""
}

// profileFromPlugins chooses the profile from the --plugin folders when the
// user gave no --profile and every plugin names the same host, and says so
// on stderr: a Claude Code plugin tested under Codex's rules would pass or
// fail for the wrong reasons. hookd run, hookd test (through the scripts'
// hookd run) and hookd check choose alike.
func (f *engineFlags) profileFromPlugins(fs *pflag.FlagSet, stderr io.Writer) {
	if fs.Changed("profile") || len(f.plugins) == 0 {
		return
	}
	want := pluginHostProfile(f.plugins[0].Root)
	for _, p := range f.plugins[1:] {
		if pluginHostProfile(p.Root) != want {
			return
		}
	}
	if want == "" || want == f.profile {
		return
	}
	f.profile = want
	fmt.Fprintf(stderr, "hookd: plugin %s is a Claude Code plugin (.claude-plugin/plugin.json): using the %s profile (give --profile to choose another)\n", filepath.Base(f.plugins[0].Root), want)
}

// manifestRoot is the plugin root at or above path (a folder with
// .codex-plugin/plugin.json or .claude-plugin/plugin.json), or "".
func manifestRoot(path string, isFolder bool) string {
	d := path
	if !isFolder {
		d = filepath.Dir(path)
	}
	for {
		for _, m := range []string{".codex-plugin", ".claude-plugin"} {
			if exists(filepath.Join(d, m, "plugin.json")) {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}
