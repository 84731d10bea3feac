package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/cputime"
	"github.com/hookd/hookd/plugins"
)

// BenchmarkLoad_200Plugins is what initialize (and hooks/reload) pays to
// discover 200 installed plugins of two hooks each, none trusted, without
// the plugin load cache: the in-process half of
// BenchmarkStartup_Initialize200PluginsNoCache, for -cpuprofile.
func BenchmarkLoad_200Plugins(b *testing.B) { benchLoad200(b, "") }

// BenchmarkLoad_200PluginsWarmCache is the same with the load cache filled:
// what every load after the first pays.
func BenchmarkLoad_200PluginsWarmCache(b *testing.B) { benchLoad200(b, "warm") }

// BenchmarkLoad_200PluginsColdCache is the same with the load cache empty
// at every load, which then writes it: what the first load pays.
func BenchmarkLoad_200PluginsColdCache(b *testing.B) { benchLoad200(b, "cold") }

func benchLoad200(b *testing.B, cache string) {
	dir := b.TempDir()
	doc := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/check.sh"}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	for i := range 200 {
		root := filepath.Join(dir, "market", fmt.Sprintf("plugin%03d", i), "1.0.0")
		for _, f := range []struct{ path, body string }{
			{".codex-plugin/plugin.json", fmt.Sprintf(`{"name": "plugin%03d", "version": "1.0.0"}`, i)},
			{"hooks/hooks.json", doc},
		} {
			p := filepath.Join(root, f.path)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	cacheDir := ""
	if cache != "" {
		cacheDir = filepath.Join(b.TempDir(), "cache")
	}
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: b.TempDir()},
		Discover: DiscoverOptions{Home: b.TempDir(), PluginDirs: []string{dir}, DataHome: b.TempDir(), PluginCache: cacheDir}})
	defer e.Close()
	load := func() {
		if sum, err := e.LoadChecked(); err != nil || sum.Installed != 400 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	if cache == "warm" {
		// The cache keeps no file changed in the last moments (racy
		// times): let the new tree age, then fill the cache.
		time.Sleep(200 * time.Millisecond)
		load()
		plugins.WaitCacheWrites()
	}
	cpu0 := cpuTime()
	for b.Loop() {
		if cache == "cold" {
			b.StopTimer()
			emptyDir(b, cacheDir)
			b.StartTimer()
		}
		load()
		if cache == "cold" {
			// The cache file is written after the load, as a session's
			// is written after its initialize reply; its cost is in
			// cpu-ns/op.
			b.StopTimer()
			plugins.WaitCacheWrites()
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// emptyDir removes what dir holds, keeping dir.
func emptyDir(b *testing.B, dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			b.Fatal(err)
		}
	}
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration { return cputime.Self() }
