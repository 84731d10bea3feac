package hooks

import (
	"bytes"
	"context"
	"os/exec"
	"testing"

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
	for b.Loop() {
		if _, err := e.Run(ctx, "Stop", nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProcRun_TrivialCommand spawns the same command through proc alone.
func BenchmarkProcRun_TrivialCommand(b *testing.B) {
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	stdin := []byte(`{"session_id":"s","hook_event_name":"Stop"}`)
	for b.Loop() {
		proc.Run(context.Background(), proc.Command{Script: "true", Stdin: stdin})
	}
}

// BenchmarkExec_TrivialCommand is the floor: os/exec of the same shell and
// script with the same stdin, nothing else.
func BenchmarkExec_TrivialCommand(b *testing.B) {
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	stdin := []byte(`{"session_id":"s","hook_event_name":"Stop"}`)
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
