//go:build unix

package e2e

// Tests of the hooks' processes that use Unix signals and FIFOs.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// pidGone waits (bounded) for a process to die. Death of a grandchild has no
// signal we can wait on, so this polls. A zombie counts as dead: the process
// that would reap it may be a PID 1 that never does.
func pidGone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// waitFile blocks until path exists and returns its trimmed content. The hook
// writes it with a rename, so its content is complete once it appears.
func waitFile(t *testing.T, path string, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			return strings.TrimSpace(string(b))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s did not appear within %v", path, within)
	return ""
}

func TestServe_CancelKillsHandlerProcesses(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	home := testHome(t, fmt.Sprintf(`{"Stop": [{"hooks": [{"type": "command", "command": "sleep 1000 & echo $! > %[1]s.tmp && mv %[1]s.tmp %[1]s; wait"}]}]}`, pidFile))
	c := startServe(t, home, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(ctx, "Stop", map[string]any{})
		done <- err
	}()
	pid, _ := strconv.Atoi(waitFile(t, pidFile, 10*time.Second))
	cancel()
	if err := <-done; rpcCode(err) != -32800 {
		t.Fatalf("cancelled hooks/run: %v, want -32800", err)
	}
	if !pidGone(pid, 10*time.Second) {
		t.Fatalf("grandchild %d still alive after cancel", pid)
	}
}

func TestServe_TimeoutKillsGrandchild(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	home := testHome(t, fmt.Sprintf(`{"Stop": [{"hooks": [{"type": "command", "timeout": 1, "command": "trap '' TERM; sleep 1000 & echo $! > %[1]s.tmp && mv %[1]s.tmp %[1]s; wait"}]}]}`, pidFile))
	c := startServe(t, home, nil)
	res, err := c.Run(context.Background(), "Stop", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if s := gjson.GetBytes(res, "hooks.0.status").Str; s != "timedOut" {
		t.Fatalf("status = %q, want timedOut; %s", s, res)
	}
	if e := gjson.GetBytes(res, "hooks.0.error").Str; e != "hook timed out after 1s" {
		t.Errorf("error = %q", e)
	}
	pid, _ := strconv.Atoi(waitFile(t, pidFile, time.Second))
	if !pidGone(pid, 10*time.Second) {
		t.Fatalf("grandchild %d survived the timeout", pid)
	}
}

func TestServe_DaemonizingHookDoesNotHoldTheResult(t *testing.T) {
	home := testHome(t, `{"SessionStart": [{"hooks": [{"type": "command", "timeout": 600, "command": "sleep 600 & echo started"}]}]}`)
	c := startServe(t, home, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Run(ctx, "SessionStart", map[string]any{"source": "startup"})
	if err != nil {
		t.Fatalf("run: %v (hookd waited for the background child)", err)
	}
	if got := gjson.GetBytes(res, "additionalContext.0.text").Str; got != "started" {
		t.Errorf("context = %q, want started; %s", got, res)
	}
	if s := gjson.GetBytes(res, "hooks.0.status").Str; s != "succeeded" {
		t.Errorf("status = %q", s)
	}
}

func TestServe_HandlersStartConcurrently(t *testing.T) {
	// The first hook writes into a FIFO, which blocks until the second hook
	// opens it for reading: run one after the other, the first would time out.
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	home := testHome(t, fmt.Sprintf(`{"UserPromptSubmit": [{"hooks": [
		{"type": "command", "timeout": 20, "command": "echo ping > %[1]s && echo wrote"},
		{"type": "command", "timeout": 20, "command": "cat %[1]s"}]}]}`, fifo))
	c := startServe(t, home, nil)
	res, err := c.Run(context.Background(), "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"wrote", "ping"} {
		if got := gjson.GetBytes(res, fmt.Sprintf("additionalContext.%d.text", i)).Str; got != want {
			t.Errorf("context %d = %q, want %q; %s", i, got, want, res)
		}
	}
}

func TestServe_SIGTERMKillsHandlersAndExits(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	home := testHome(t, fmt.Sprintf(`{"Stop": [{"hooks": [{"type": "command", "command": "sleep 1000 & echo $! > %[1]s.tmp && mv %[1]s.tmp %[1]s; wait"}]}]}`, pidFile))
	c := startServe(t, home, nil)
	go func() { _, _ = c.Run(context.Background(), "Stop", map[string]any{}) }()
	pid, _ := strconv.Atoi(waitFile(t, pidFile, 10*time.Second))
	if err := syscall.Kill(c.Pid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code, _ := c.Wait(); code != 1 {
		t.Errorf("exit code after SIGTERM = %d, want 1", code)
	}
	if !pidGone(pid, 10*time.Second) {
		t.Fatalf("hook grandchild %d outlived hookd's SIGTERM", pid)
	}
}
