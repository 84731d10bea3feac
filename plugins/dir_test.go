package plugins

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A load through folders held open finds exactly what a load by path finds,
// plugins and warnings alike, on a tree of the cases the open folder must
// hand back to the path checks: symlinks inside and out of a plugin,
// absolute ones, a symlinked root, files that are folders or FIFOs, empty
// and malformed files, missing and dangling hooks files, several versions
// with an orphan, and a plugin folder that is a plugin itself.
func TestLoad_HeldOpenFoldersFindWhatPathsFind(t *testing.T) {
	caseOpts := caseTree(t)
	for _, rule := range []Rule{CodexRule, ClaudeRule} {
		opts := caseOpts(rule)
		heldOpen = false
		byPath, pathWarns := Load(opts)
		heldOpen = true
		held, heldWarns := Load(opts)
		if testing.Verbose() {
			for _, p := range byPath {
				t.Logf("%s %s %v", p.ID(), p.RealRoot, sourceKeys(p))
			}
			t.Log(messages(pathWarns))
		}
		if len(byPath) < 10 {
			t.Fatalf("rule %d: only %d plugins by path: the tree is not what the test means", rule, len(byPath))
		}
		if !reflect.DeepEqual(held, byPath) {
			for i := range max(len(held), len(byPath)) {
				var a, b any
				if i < len(held) {
					a = *held[i]
				}
				if i < len(byPath) {
					b = *byPath[i]
				}
				if !reflect.DeepEqual(a, b) {
					t.Errorf("rule %d, plugin %d:\nheld open %+v\n  by path %+v", rule, i, a, b)
				}
			}
		}
		if !reflect.DeepEqual(heldWarns, pathWarns) {
			t.Errorf("rule %d: warnings differ:\nheld open:\n%s\nby path:\n%s", rule, messages(heldWarns), messages(pathWarns))
		}
	}
}

// The folder held open is the one read: a plugin root swapped for another
// folder after it was opened still gives its own files.
func TestRootDir_ReadsTheFolderItOpened(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a/plugin.json": `{"name": "a"}`, "b/plugin.json": `{"name": "b"}`})
	root := filepath.Join(dir, "root")
	symlink(t, filepath.Join(dir, "a"), root)
	d := openRoot(root)
	defer d.close()
	if d.real != filepath.Join(dir, "a") {
		t.Fatalf("resolved %q, want %q", d.real, filepath.Join(dir, "a"))
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "b"), root)
	data, err := d.read(filepath.Join(root, "plugin.json"))
	if d.h == (handle{}) {
		// Not held open here: the path checks refuse the swapped root.
		if err == nil {
			t.Errorf("swapped root read by path: %q", data)
		}
		return
	}
	if err != nil || string(data) != `{"name": "a"}` {
		t.Errorf("read %q, %v; want the opened folder's file", data, err)
	}
}

// caseTree builds a tree of the cases a load must treat alike however it
// reads (held open or by path, from the cache or the files): symlinks
// inside and out of a plugin, absolute ones, a symlinked root, files that
// are folders or FIFOs, empty and malformed files, missing and dangling
// hooks files, several versions with an orphan, and a plugin folder that is
// a plugin itself. It returns the options that load it under a rule.
func caseTree(t *testing.T) func(Rule) Options {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	writeTree(t, outside, map[string]string{"evil.json": stopHooks, "plugin.json": `{"name": "borrowed"}`})
	cache := filepath.Join(base, "cache")
	v := func(market, plugin, version string) string { return filepath.Join(cache, market, plugin, version) }
	writeTree(t, cache, map[string]string{
		"m/plain/1.0.0/.codex-plugin/plugin.json":            `{"name": "plain"}`,
		"m/plain/1.0.0/hooks/hooks.json":                     stopHooks,
		"m/claude/2.0.0/.claude-plugin/plugin.json":          `{"name": "claude", "hooks": "./extra.json"}`,
		"m/claude/2.0.0/extra.json":                          stopHooks,
		"m/claude/2.0.0/hooks/hooks.json":                    stopHooks,
		"m/multi/1.0.0/.codex-plugin/plugin.json":            `{"name": "multi"}`,
		"m/multi/1.0.0/hooks/hooks.json":                     stopHooks,
		"m/multi/3.0.0/.codex-plugin/plugin.json":            `{"name": "multi"}`,
		"m/multi/3.0.0/.orphaned_at":                         "1",
		"m/multi/2.0.0/.codex-plugin/plugin.json":            `{"name": "multi", "hooks": "./h.json"}`,
		"m/multi/2.0.0/h.json":                               stopHooks,
		"m/escape/1.0.0/.codex-plugin/plugin.json":           `{"name": "escape", "hooks": ["./out/evil.json", "./in/h.json", "./abs/h.json"]}`,
		"m/escape/1.0.0/real/h.json":                         stopHooks,
		"m/default-out/1.0.0/.codex-plugin/plugin.json":      `{"name": "default-out"}`,
		"m/manifest-out/1.0.0/hooks/hooks.json":              stopHooks,
		"m/manifest-abs/1.0.0/m.json":                        `{"name": "manifest-abs"}`,
		"m/manifest-abs/1.0.0/hooks/hooks.json":              stopHooks,
		"m/dangling/1.0.0/.codex-plugin/plugin.json":         `{"name": "dangling"}`,
		"m/dirs/1.0.0/.codex-plugin/plugin.json/x":           "",
		"m/dirs/1.0.0/.claude-plugin/plugin.json":            `{"name": "dirs"}`,
		"m/dirs/1.0.0/hooks/hooks.json/x":                    "",
		"m/empty/1.0.0/.codex-plugin/plugin.json":            `{"name": "empty"}`,
		"m/empty/1.0.0/hooks/hooks.json":                     "",
		"m/bad/1.0.0/.codex-plugin/plugin.json":              `{"name": `,
		"m/badhooks/1.0.0/.codex-plugin/plugin.json":         `{"name": "badhooks", "hooks": 7}`,
		"m/self/.codex-plugin/plugin.json":                   `{"name": "self"}`,
		"m/self/hooks/hooks.json":                            stopHooks,
		"m/self/1.0.0/.codex-plugin/plugin.json":             `{"name": "self-version"}`,
		"m/agent/1.0.0/plugin.json":                          `{"$schema": "https://agent-plugins.org/schemas/plugin.json", "name": "agent"}`,
		"m/notagent/1.0.0/plugin.json":                       `{"name": "notagent"}`,
		"m/notagent/1.0.0/.codex-plugin/plugin.json":         `{"name": "notagent"}`,
		"m/nohooks/1.0.0/.codex-plugin/plugin.json":          `{"name": "nohooks"}`,
		"m/stray/README":                                     "not a version",
		"m/plain/notes.txt":                                  "a file among the versions",
		"versions-elsewhere/1.0.0/.codex-plugin/plugin.json": `{"name": "pluginlink"}`,
		"versions-elsewhere/1.0.0/hooks/hooks.json":          stopHooks,
		"linked-target/.codex-plugin/plugin.json":            `{"name": "linked"}`,
		"linked-target/hooks/hooks.json":                     stopHooks,
	})
	symlink(t, outside, filepath.Join(v("m", "escape", "1.0.0"), "out"))
	symlink(t, "real", filepath.Join(v("m", "escape", "1.0.0"), "in"))
	symlink(t, filepath.Join(v("m", "escape", "1.0.0"), "real"), filepath.Join(v("m", "escape", "1.0.0"), "abs"))
	symlink(t, filepath.Join(outside, "evil.json"), filepath.Join(v("m", "default-out", "1.0.0"), "hooks", "hooks.json"))
	symlink(t, filepath.Join(outside, "plugin.json"), filepath.Join(v("m", "manifest-out", "1.0.0"), ".claude-plugin", "plugin.json"))
	symlink(t, filepath.Join(v("m", "manifest-abs", "1.0.0"), "m.json"), filepath.Join(v("m", "manifest-abs", "1.0.0"), ".codex-plugin", "plugin.json"))
	symlink(t, "nowhere.json", filepath.Join(v("m", "dangling", "1.0.0"), "hooks", "hooks.json"))
	symlink(t, filepath.Join(cache, "linked-target"), filepath.Join(cache, "m", "linked", "1.0.0"))
	if err := mkfifo(filepath.Join(v("m", "nohooks", "1.0.0"), "pipe")); err == nil {
		writeTree(t, v("m", "fifo", "1.0.0"), map[string]string{".codex-plugin/plugin.json": `{"name": "fifo", "hooks": "./pipe.json"}`})
		if err := mkfifo(filepath.Join(v("m", "fifo", "1.0.0"), "pipe.json")); err != nil {
			t.Fatal(err)
		}
	}
	// A plugin folder that is a symlink, and a marketplace folder that is one.
	symlink(t, filepath.Join(cache, "versions-elsewhere"), filepath.Join(cache, "m", "pluginlink"))
	symlink(t, filepath.Join(cache, "m"), filepath.Join(cache, "mlink"))
	explicit := filepath.Join(base, "explicit-link")
	symlink(t, filepath.Join(cache, "linked-target"), explicit)

	return func(rule Rule) Options {
		return Options{Plugins: []Config{{Root: explicit, Name: "explicit"}}, Dirs: []string{cache},
			DataHome: filepath.Join(base, "data"), Rule: rule, InstallCache: cache}
	}
}
