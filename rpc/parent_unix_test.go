//go:build linux || darwin

package rpc

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// zombie starts a process that exits at once and is left unreaped until the
// test ends, and returns its pid once it is a zombie.
func zombie(t *testing.T) int {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "exit 0")
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Wait() })
	// EOF on its stdout: the process has exited. It is a zombie until Wait.
	var b [1]byte
	_, _ = r.Read(b[:])
	r.Close()
	waitExited(t, cmd.Process.Pid)
	return cmd.Process.Pid
}

func TestProcessAlive_ZombieIsDead(t *testing.T) {
	if processAlive(zombie(t)) {
		t.Fatal("an exited, unreaped process counts as alive")
	}
	live := exec.Command("sleep", "600")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = live.Process.Kill(); _ = live.Wait() }()
	if !processAlive(live.Process.Pid) {
		t.Fatal("a running process counts as dead")
	}
}

func TestServer_ZombieHostEndsTheSession(t *testing.T) {
	h := newHarness(t)
	h.init(t, map[string]any{"processId": zombie(t), "config": map[string]any{"home": t.TempDir()}})
	select {
	case code := <-h.code:
		if code != 1 {
			t.Errorf("exit code %d after the host became a zombie, want 1", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("hookd kept serving a zombie host")
	}
}
