//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// deafHost is hookd serve whose host writes requests but never reads stdout:
// the pipe fills, and every later write of hookd blocks.
type deafHost struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan error
	// stopping is closed when hookd logs that a signal is ending the session.
	stopping chan struct{}
	stderr   *stopWatch
}

// stopWatch passes hookd's stderr to the test log and closes stopping at the
// line that says the first signal was received.
type stopWatch struct {
	t        *testing.T
	stopping chan struct{}
	once     sync.Once
	mu       sync.Mutex
	log      strings.Builder
}

func (w *stopWatch) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "stopped by a signal") {
		w.once.Do(func() { close(w.stopping) })
	}
	w.mu.Lock()
	w.log.Write(p)
	w.mu.Unlock()
	return testWriter{w.t}.Write(p)
}

// logged reports whether hookd's stderr held s.
func (w *stopWatch) logged(s string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Contains(w.log.String(), s)
}

// startDeafHost spawns hookd serve with args, initializes it and sends enough
// hooks/list requests that their replies (over a megabyte) overflow any pipe
// buffer. When it returns hookd has read all but the last pipe-full of them.
func startDeafHost(t *testing.T, args ...string) *deafHost {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	home := testHome(t, `{"Stop": [{"hooks": [{"type": "command", "command": "true", "statusMessage": "checking"}]}]}`)
	cmd := exec.Command(hookdPath(t), append([]string{"serve", "--log-level", "warn"}, args...)...)
	stopping := make(chan struct{})
	stderr := &stopWatch{t: t, stopping: stopping}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	h := &deafHost{cmd: cmd, stdin: stdin, done: make(chan error, 1), stopping: stopping, stderr: stderr}
	go func() { h.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-h.done
		outR.Close() // held open, never read, until hookd is gone
	})
	var b strings.Builder
	b.WriteString(initBody(0, home) + "\n")
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"hooks/list"}`+"\n", i)
	}
	// A short --write-timeout may end hookd before it has read them all.
	if _, err := io.WriteString(stdin, b.String()); err != nil && !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("write requests: %v", err)
	}
	return h
}

// exitStatus waits for hookd to end and returns its exit status, or fails the
// test if it is still running after a minute: wedged.
func (h *deafHost) exitStatus(t *testing.T) int {
	t.Helper()
	select {
	case err := <-h.done:
		h.done <- err // for the cleanup
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(time.Minute):
		t.Fatal("hookd is wedged: still running a minute later")
		return -1
	}
}

func TestServe_SIGTERMEndsHookdWhoseHostStopsReading(t *testing.T) {
	h := startDeafHost(t)
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Replies still unwritten are abandoned; the session ends as a signal
	// ends it (code 1), not by the bound's forced exit.
	if code := h.exitStatus(t); code != 1 {
		t.Errorf("exit status after SIGTERM = %d, want 1", code)
	}
}

func TestServe_SecondSignalExitsAtOnce(t *testing.T) {
	// The first signal's clean end waits up to 2 s for the host to read the
	// last replies; a second one does not wait for that.
	h := startDeafHost(t)
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Two signals sent back to back may reach the process as one.
	select {
	case <-h.stopping:
	case <-time.After(time.Minute):
		t.Fatal("hookd never logged the first signal")
	}
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := h.exitStatus(t); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status after two SIGTERMs = %d, want %d (ended by the second signal)", code, 128+int(syscall.SIGTERM))
	}
}

func TestServe_WriteTimeoutEndsSessionOfHostThatStopsReading(t *testing.T) {
	// No signal, no exit: only the write timeout notices that the host has
	// stopped reading, and ends the session as if the host had died.
	h := startDeafHost(t, "--write-timeout", "200ms")
	if code := h.exitStatus(t); code != 1 {
		t.Errorf("exit status = %d, want 1", code)
	}
	if !h.stderr.logged("has not read stdout") {
		t.Error("hookd ended without saying that the host stopped reading")
	}
}

func TestServe_OnStdinCloseCancelKillsRunningHooksAtEOF(t *testing.T) {
	// By default a closed stdin lets running hooks finish (up to their
	// timeout, 600 s here); a host that asked for "cancel" gets its end at
	// once, with every request answered.
	t.Setenv("TMPDIR", t.TempDir())
	home := testHome(t, `{"Stop": [{"hooks": [{"type": "command", "command": "sleep 600"}]}]}`)
	init := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"onStdinClose": "cancel", "config": map[string]any{"home": home, "bypassTrust": true}}}
	b, _ := json.Marshal(init)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a wait for the hook fails, never hangs
	defer cancel()
	cmd := exec.CommandContext(ctx, hookdPath(t), "serve", "--log-level", "error")
	cmd.Stdin = strings.NewReader(string(b) + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"Stop","input":{}}}` + "\n")
	cmd.Stderr = testWriter{t}
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatal("hookd waited for the running hook after stdin closed")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want code 1 (no shutdown)", err)
	}
	var run string
	for _, line := range strings.Split(string(out), "\n") {
		if gjson.Get(line, "id").Int() == 2 {
			run = line
		}
	}
	if gjson.Get(run, "error.code").Int() != -32800 {
		t.Errorf("hooks/run reply %q, want a cancelled request (-32800)", run)
	}
}

func TestServe_ExitEndsHookdWhoseHostStopsReading(t *testing.T) {
	// The exit notification waits for in-flight replies, but not for ever.
	h := startDeafHost(t)
	if _, err := io.WriteString(h.stdin, `{"jsonrpc":"2.0","method":"exit"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if code := h.exitStatus(t); code != 1 {
		t.Errorf("exit status after exit without shutdown = %d, want 1", code)
	}
}

// A hook's helper that redirected its output outlives the hook, and hookd
// too: the watchdog, which kills every group still in its table when hookd
// exits, finds no finished hook's group there, even when hookd exits right
// after the result (hookd run).
func TestRun_AFinishedHooksHelperOutlivesHookd(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	pidFile := tmp + "/pid"
	hooks := fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sleep 60 </dev/null >/dev/null 2>&1 & echo $! >> %s"}]}]}}`, pidFile)
	if err := os.WriteFile(home+"/hooks.json", []byte(hooks), 0o600); err != nil {
		t.Fatal(err)
	}
	const runs = 5
	for range runs {
		cmd := exec.Command(hookdPath(t), "run", "Stop", "--home", home, "--cwd", tmp, "--bypass-trust", "--input", "-")
		cmd.Stdin = strings.NewReader("{}")
		cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hookd run: %v\n%s", err, out)
		}
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		var pid int
		if _, err := fmt.Sscan(f, &pid); err != nil {
			t.Fatalf("pid file %q: %v", data, err)
		}
		pids = append(pids, pid)
	}
	t.Cleanup(func() {
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if len(pids) != runs {
		t.Fatalf("%d helpers started, want %d", len(pids), runs)
	}
	// A kill can only be ruled out over a window: the watchdog acts once it
	// sees hookd gone.
	time.Sleep(300 * time.Millisecond)
	for _, pid := range pids {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) && runtime.GOOS != "linux" {
				continue
			}
			t.Fatalf("helper %d is gone after hookd exited: %v", pid, err)
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			t.Fatalf("helper %d was killed when hookd exited", pid)
		}
	}
}
