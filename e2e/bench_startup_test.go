package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	start, cacheHome := startupSession(b, plugins, cache)
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
		c := start()
		b.StopTimer()
		cpu += procCPU(c.Pid())
		c.Kill()
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "hookd-cpu-us/op")
}

// startupSession makes the plugins and folders of a start-up benchmark and
// returns start, which spawns "hookd serve" and returns it once its
// initialize reply is read (checked to list every plugin's hooks), and the
// cache home. A warm cache is filled before it returns.
func startupSession(b *testing.B, plugins, cache int) (start func() *client.Client, cacheHome string) {
	dir := benchPlugins(b, plugins)
	home, cwd := b.TempDir(), b.TempDir()
	b.Setenv("TMPDIR", b.TempDir())
	cacheHome = b.TempDir()
	b.Setenv("XDG_CACHE_HOME", cacheHome)
	if cache == cacheOff {
		b.Setenv("HOOKD_NO_CACHE", "1")
	}
	bin := benchBin(b)
	ctx := context.Background()
	params := map[string]any{"session": map[string]any{"id": "s1", "cwd": cwd},
		"config": map[string]any{"home": home, "pluginDirs": []string{dir}}}
	start = func() *client.Client {
		c, err := client.Start(ctx, bin, nil, "serve", "--log-level", "error")
		if err != nil {
			b.Fatal(err)
		}
		res, err := c.Initialize(ctx, params)
		if err != nil {
			c.Kill()
			b.Fatal(err)
		}
		if !strings.Contains(string(res), fmt.Sprintf(`"installed":%d`, 2*plugins)) {
			c.Kill()
			b.Fatalf("initialize: %s", res)
		}
		return c
	}
	if cache == cacheWarm {
		// The cache keeps no file changed in the last moments (racy
		// times): let the new tree age, then fill the cache.
		time.Sleep(200 * time.Millisecond)
		c := start()
		// A session that ends writes the cache first.
		if _, err := c.Close(ctx); err != nil {
			b.Fatal(err)
		}
	}
	return start, cacheHome
}

// BenchmarkStartup_Initialize200PluginsOverVersion is the start-up ratio
// taken spawn by spawn: each iteration spawns "hookd serve" with 200
// plugins up to its initialize reply (the cache warm) and "hookd version"
// up to its exit, the two in turn (which goes first alternates), and
// pair-ratio is the median over the iterations of the first's time over the
// second's. A drift of the machine's speed during the run falls on both
// halves of a pair, which the medians of two separate benchmarks cannot
// promise on a shared machine.
func BenchmarkStartup_Initialize200PluginsOverVersion(b *testing.B) {
	start, _ := startupSession(b, 200, cacheWarm)
	bin := benchBin(b)
	version := func() time.Duration {
		t0 := time.Now()
		if out, err := exec.Command(bin, "version").Output(); err != nil || len(out) == 0 {
			b.Fatalf("hookd version: %v %q", err, out)
		}
		return time.Since(t0)
	}
	serve := func() time.Duration {
		t0 := time.Now()
		c := start()
		d := time.Since(t0)
		c.Kill()
		return d
	}
	var ratios, serves, versions []float64
	i := 0
	for b.Loop() {
		var s, v time.Duration
		if i%2 == 0 {
			s, v = serve(), version()
		} else {
			v, s = version(), serve()
		}
		i++
		ratios = append(ratios, float64(s)/float64(v))
		serves = append(serves, float64(s))
		versions = append(versions, float64(v))
	}
	b.ReportMetric(median(ratios), "pair-ratio")
	b.ReportMetric(median(serves), "initialize-ns")
	b.ReportMetric(median(versions), "version-ns")
}

// median of xs (which it sorts).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
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
