package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/client"
)

// benchPlugins installs n plugins in the install-cache layout
// (<marketplace>/<plugin>/<version>/), each with a manifest and a hooks file
// of two hooks, and returns the folder to scan.
func benchPlugins(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	hooksDoc := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/check.sh"}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	for i := range n {
		root := filepath.Join(dir, "market", fmt.Sprintf("plugin%03d", i), "1.0.0")
		for _, d := range []string{".codex-plugin", "hooks"} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		manifest := fmt.Sprintf(`{"name": "plugin%03d", "version": "1.0.0", "description": "benchmark plugin"}`, i)
		if err := os.WriteFile(filepath.Join(root, ".codex-plugin", "plugin.json"), []byte(manifest), 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "hooks", "hooks.json"), []byte(hooksDoc), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkStartup_Initialize200Plugins is spawn → initialize reply of
// "hookd serve" with 200 plugins installed (400 hooks, none trusted), the
// plugin load cache warm: every start after the first.
func BenchmarkStartup_Initialize200Plugins(b *testing.B) {
	benchStartup(b, 200, cacheWarm)
}

// BenchmarkStartup_Initialize200PluginsColdCache is the same with the
// cache folder empty at every start: the first start, which also writes
// the cache.
func BenchmarkStartup_Initialize200PluginsColdCache(b *testing.B) {
	benchStartup(b, 200, cacheCold)
}

// BenchmarkStartup_Initialize200PluginsNoCache is the same with the cache
// turned off ($HOOKD_NO_CACHE).
func BenchmarkStartup_Initialize200PluginsNoCache(b *testing.B) {
	benchStartup(b, 200, cacheOff)
}

// BenchmarkStartup_InitializeNoPlugins is the same with none: the share of
// the process start and of the session itself.
func BenchmarkStartup_InitializeNoPlugins(b *testing.B) {
	benchStartup(b, 0, cacheWarm)
}

// The plugin load cache's state in a start-up benchmark.
const (
	cacheWarm = iota
	cacheCold
	cacheOff
)

func benchStartup(b *testing.B, plugins, cache int) {
	dir := benchPlugins(b, plugins)
	home, cwd := b.TempDir(), b.TempDir()
	b.Setenv("TMPDIR", b.TempDir())
	cacheHome := b.TempDir()
	b.Setenv("XDG_CACHE_HOME", cacheHome)
	if cache == cacheOff {
		b.Setenv("HOOKD_NO_CACHE", "1")
	}
	bin := benchBin(b)
	ctx := context.Background()
	params := map[string]any{"session": map[string]any{"id": "s1", "cwd": cwd},
		"config": map[string]any{"home": home, "pluginDirs": []string{dir}}}
	start := func() (*client.Client, json.RawMessage) {
		c, err := client.Start(ctx, bin, nil, "serve", "--log-level", "error")
		if err != nil {
			b.Fatal(err)
		}
		res, err := c.Initialize(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		return c, res
	}
	if cache == cacheWarm {
		// The cache keeps no file changed in the last moments (racy
		// times): let the new tree age, then fill the cache.
		time.Sleep(200 * time.Millisecond)
		c, _ := start()
		// A session that ends writes the cache first.
		if _, err := c.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	var cpu time.Duration
	for b.Loop() {
		if cache == cacheCold {
			b.StopTimer()
			// The files go; the folder stays, as after a first start.
			dir := filepath.Join(cacheHome, "hookd", "plugins")
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
		c, res := start()
		b.StopTimer()
		cpu += procCPU(c.Pid())
		if !strings.Contains(string(res), fmt.Sprintf(`"installed":%d`, 2*plugins)) {
			b.Fatalf("initialize: %s", res)
		}
		c.Kill()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "hookd-cpu-us/op")
}

// BenchmarkStartup_Version is the baseline: spawn → exit of "hookd version".
func BenchmarkStartup_Version(b *testing.B) {
	bin := benchBin(b)
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(bin, "version")
		if out, err := cmd.Output(); err != nil || len(out) == 0 {
			b.Fatalf("hookd version: %v %q", err, out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "hookd-cpu-us/op")
}
