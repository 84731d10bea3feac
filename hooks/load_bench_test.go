package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkLoad_200Plugins is what initialize (and hooks/reload) pays to
// discover 200 installed plugins of two hooks each, none trusted: the
// in-process half of BenchmarkStartup_Initialize200Plugins, for -cpuprofile.
func BenchmarkLoad_200Plugins(b *testing.B) {
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
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: b.TempDir()},
		Discover: DiscoverOptions{Home: b.TempDir(), PluginDirs: []string{dir}, DataHome: b.TempDir()}})
	defer e.Close()
	cpu0 := cpuTime()
	for b.Loop() {
		if sum, err := e.LoadChecked(); err != nil || sum.Installed != 400 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
