package hooks

import (
	"bytes"
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks/proc"
)

// BenchmarkEngineRun_TrivialCommand is hooks/run without the transport: the
// engine's own cost on top of spawning one trivial hook.
func BenchmarkEngineRun_TrivialCommand(b *testing.B) {
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: b.TempDir()},
		Discover:    DiscoverOptions{Home: b.TempDir(), SessionHooks: []byte(`{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}`)},
		BypassTrust: true})
	defer e.Close()
	e.Load()
	ctx := context.Background()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := e.Run(ctx, "Stop", nil, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkProcRun_TrivialCommand spawns the same command through proc
// alone, with the shell and timeout the engine's run gives it.
func BenchmarkProcRun_TrivialCommand(b *testing.B) {
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	stdin := []byte(`{"session_id":"s","hook_event_name":"Stop"}`)
	cpu0 := cpuTime()
	for b.Loop() {
		proc.Run(context.Background(), proc.Command{Shell: codexProfile().Shell, Script: "true", Stdin: stdin, Timeout: 600 * time.Second})
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkExec_TrivialCommand is the floor: os/exec of the same shell and
// script with the same stdin, nothing else.
func BenchmarkExec_TrivialCommand(b *testing.B) {
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	stdin := []byte(`{"session_id":"s","hook_event_name":"Stop"}`)
	cpu0 := cpuTime()
	defer func() { b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		cmd := exec.Command("/bin/sh", "-c", "true")
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
