//go:build realhost

package realhost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/realhost/rh"
)

// installDirectoryPlugin installs plugin guard@mkt (enable it in the
// settings) from a directory marketplace: its source folder, where Claude
// Code runs it from, and the cache copy installed_plugins.json names. Its
// PreToolUse Bash hook records "plug".
func installDirectoryPlugin(t *testing.T, r *claudeRun, rec *rh.Recorder) (src, cache string) {
	src = filepath.Join(t.TempDir(), "mkt")
	rh.WriteFile(t, filepath.Join(src, ".claude-plugin", "marketplace.json"),
		`{"name":"mkt","owner":{"name":"realhost"},"plugins":[{"name":"guard","source":"./guard","version":"1.0.0"}]}`)
	hooks, _ := json.Marshal(map[string]any{"hooks": hooksOf("PreToolUse", []any{group("Bash", rec.Cmd("plug", "", 0))})})
	plugins := filepath.Join(r.home, ".claude", "plugins")
	cache = filepath.Join(plugins, "cache", "mkt", "guard", "1.0.0")
	for _, root := range []string{filepath.Join(src, "guard"), cache} {
		rh.WriteFile(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`)
		rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), string(hooks))
	}
	rh.WriteFile(t, filepath.Join(plugins, "known_marketplaces.json"), `{"mkt":{"source":{"source":"directory","path":"`+src+`"},"installLocation":"`+src+`","lastUpdated":"2026-12-01T00:00:00.000Z"}}`)
	rh.WriteFile(t, filepath.Join(plugins, "installed_plugins.json"), `{"version":2,"plugins":{"guard@mkt":[{"scope":"user","installPath":"`+cache+`","version":"1.0.0","installedAt":"2026-12-01T00:00:00.000Z","lastUpdated":"2026-12-01T00:00:00.000Z"}]}}`)
	return src, cache
}

// Item 7: a plugin installed from a directory marketplace, and a --settings layer.
func TestClaude_InstalledPluginAndSettingsFlag(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newClaude(t, rec, map[string]any{"enabledPlugins": map[string]bool{"guard@mkt": true}},
		callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	src, cache := installDirectoryPlugin(t, r, rec)
	extra := filepath.Join(t.TempDir(), "extra-settings.json")
	extraHooks, _ := json.Marshal(map[string]any{"hooks": hooksOf("PreToolUse", []any{group("Bash", rec.Cmd("extra", "", 0))})})
	rh.WriteFile(t, extra, string(extraHooks))
	r.exec(t, "run it", "--settings", extra)
	describe := func() string {
		cs := rec.Calls("plug")
		if len(cs) == 0 {
			return "plugin hook did not run"
		}
		root := cs[0].Env["CLAUDE_PLUGIN_ROOT"]
		switch root {
		case filepath.Join(src, "guard"):
			root = "the marketplace's source folder"
		case cache:
			root = "the cache copy"
		}
		return "ran; CLAUDE_PLUGIN_ROOT is " + root
	}
	host := describe()
	hostExtra := yesNo(len(rec.Calls("extra")) > 0)
	in := `{"tool_name":"Bash","tool_input":{"command":"echo hi","description":"x"},"tool_use_id":"t1"}`
	if cs := rec.Calls("plug"); len(cs) > 0 {
		in = cs[0].Stdin
	}
	rec.Reset()
	var flags []string
	if hookdHas(t, "settings") {
		flags = []string{"--settings", extra}
	}
	out := r.hookd(t, "PreToolUse", in, flags...)
	if !strings.Contains(out, `"event"`) {
		t.Logf("hookd: %s", out)
	}
	record(t, "claude", "7", "installed plugin (installed_plugins.json v2 + enabledPlugins, directory marketplace)", host, describe())
	record(t, "claude", "7", "--settings FILE adds a layer whose hooks run", hostExtra, yesNo(len(rec.Calls("extra")) > 0))
	os.Remove(extra)
}
