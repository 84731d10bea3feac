//go:build unix

package doctor_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/doctor"
)

// TestHostileFiles: a FIFO, /dev/zero and a symlink loop where the hosts
// read hooks files: doctor still answers (the engine's reader refuses what
// is not a regular file of a sane size) and names each file.
func TestHostileFiles(t *testing.T) {
	w := newWorld(t)
	claudeSettings := filepath.Join(w.home, ".claude", "settings.json")
	os.Remove(claudeSettings)
	if err := syscall.Mkfifo(claudeSettings, 0o644); err != nil {
		t.Fatal(err)
	}
	codexHooks := filepath.Join(w.home, ".codex", "hooks.json")
	os.Remove(codexHooks)
	if err := os.Symlink("/dev/zero", codexHooks); err != nil {
		t.Fatal(err)
	}
	loop := filepath.Join(w.home, ".gemini", "settings.json")
	os.Remove(loop)
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	done := make(chan *doctor.Report, 1)
	go func() {
		r, err := doctor.Run(doctor.Options{Cwd: w.app})
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if r == nil {
			return
		}
		for _, name := range []string{"claude", "codex"} {
			h := host(t, r, name)
			if h.Hooks != 0 {
				t.Errorf("%s: %d hooks from a hostile file", name, h.Hooks)
			}
			if !strings.Contains(fmt.Sprintf("%+v", h), ".json") {
				t.Errorf("%s: the hostile file is not named: %+v", name, h)
			}
		}
	case <-time.After(time.Minute): // a bound, not a synchronisation: the run blocks forever if a FIFO is opened
		t.Fatal("doctor did not return with a FIFO and /dev/zero as hooks files")
	}
}

// BenchmarkDoctor200Plugins: Claude Code with 200 installed, enabled
// plugins of two hooks each, and Codex's user hooks. "doctor" is the whole
// report; "load" only loads the claude hooks as hookd list does, the
// floor doctor builds on. cpu-ms/op is the process's CPU time, which a
// busy machine inflates less than the wall time.
func BenchmarkDoctor200Plugins(b *testing.B) {
	w := newWorld(b)
	var installed, enabled []string
	for i := range 200 {
		dir := filepath.Join(filepath.Dir(w.home), "plugins", fmt.Sprintf("p%03d", i))
		write(b, filepath.Join(dir, ".claude-plugin", "plugin.json"), fmt.Sprintf(`{"name": "p%03d", "version": "1.0.0"}`, i), 0o644)
		write(b, filepath.Join(dir, "hooks", "hooks.json"), `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/guard.sh\""}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo '{}'"}]}]
}}`, 0o644)
		write(b, filepath.Join(dir, "guard.sh"), "exit 0\n", 0o755)
		id := fmt.Sprintf("p%03d@local", i)
		installed = append(installed, fmt.Sprintf(`%q: [{"scope": "user", "installPath": %q, "version": "1.0.0"}]`, id, dir))
		enabled = append(enabled, fmt.Sprintf(`%q: true`, id))
	}
	write(b, filepath.Join(w.home, ".claude", "plugins", "installed_plugins.json"), `{"version": 2, "plugins": {`+strings.Join(installed, ",")+`}}`, 0o644)
	write(b, filepath.Join(w.home, ".claude", "settings.json"), `{"enabledPlugins": {`+strings.Join(enabled, ",")+`}}`, 0o644)
	r, err := doctor.Run(doctor.Options{Cwd: w.app})
	if err != nil {
		b.Fatal(err)
	}
	if c := r.Hosts[0]; c.Name != "claude" || c.Hooks != 400 || c.Run != 400 {
		b.Fatalf("claude with 200 plugins: %s", c.Summary)
	}
	claude, _ := hooks.LookupProfile("claude")
	cases := []struct {
		name string
		do   func() error
	}{
		{"doctor", func() error { _, err := doctor.Run(doctor.Options{Cwd: w.app}); return err }},
		{"load", func() error {
			e := hooks.New(hooks.Options{Profile: claude, Session: hooks.Session{Cwd: w.app},
				Discover: hooks.DiscoverOptions{ProjectRoot: w.app, Cwd: w.app}})
			defer e.Close()
			_, err := e.LoadChecked()
			e.List("")
			return err
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				if err := c.do(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
