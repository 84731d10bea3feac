//go:build unix

package hooks

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

	"github.com/hookd/hookd/spill"
)

// waitFor polls cond until it holds. Hooks signal by writing files; a file
// appearing has no event to wait on, so this is the one poll, bounded.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// logLines reads the lines the hooks appended to a log file.
func logLines(path string) []string {
	b, _ := os.ReadFile(path)
	return strings.Fields(strings.ReplaceAll(string(b), "\n", " "))
}

// nextAsync waits for the next hooks/asyncCompleted notification.
func nextAsync(t *testing.T, host *fakeHost) AsyncResult {
	t.Helper()
	for {
		select {
		case n := <-host.notes:
			if n.method == MethodAsyncCompleted {
				return n.params.(AsyncResult)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("no hooks/asyncCompleted")
		}
	}
}

func TestAsync_NineHooksNeverMoreThanEightAtOnce(t *testing.T) {
	// Each hook logs "s<i>" when it starts, blocks reading its own FIFO until
	// the test releases it, then logs "e<i>". The log is the proof: at no
	// "s" line may more than 8 hooks be between their "s" and "e".
	dir := t.TempDir()
	logPath := filepath.Join(dir, "log")
	var handlers []string
	for i := range 9 {
		fifo := filepath.Join(dir, fmt.Sprint("release", i))
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		handlers = append(handlers, fmt.Sprintf(`{"type": "command", "async": true, "command": "echo s%[1]d >> %[2]s; read x < %[3]s; echo e%[1]d >> %[2]s"}`, i, logPath, fifo))
	}
	host := newFakeHost(nil)
	e := newHostEngine(t, `{"UserPromptSubmit": [{"hooks": [`+strings.Join(handlers, ",")+`]}]}`, host, 0)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"go"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hooks {
		if h.Status != StatusStarted || !h.Async {
			t.Fatalf("async hook reported %+v, want started", h)
		}
	}

	// Eight start; the ninth is queued for a slot, not dropped.
	waitFor(t, "8 hooks to start and 1 to queue", func() bool {
		return len(logLines(logPath)) == 8 && e.async.waiting.Load() == 1
	})
	if n := e.async.running.Load(); n != 8 {
		t.Fatalf("%d running, want 8", n)
	}

	release := func(line string) {
		i := strings.TrimPrefix(line, "s")
		f, err := os.OpenFile(filepath.Join(dir, "release"+i), os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, "go")
		f.Close()
	}
	released := map[string]bool{}
	for done := 0; done < 9; done++ {
		// Release one started hook that is still blocked, and wait for its
		// result: a slot is then free for the ninth.
		for _, l := range logLines(logPath) {
			if strings.HasPrefix(l, "s") && !released[l] {
				released[l] = true
				release(l)
				break
			}
		}
		ar := nextAsync(t, host)
		if ar.Status != StatusSucceeded {
			t.Fatalf("async result %+v", ar)
		}
		if done == 0 {
			waitFor(t, "the ninth hook to start", func() bool { return strings.Count(strings.Join(logLines(logPath), " "), "s") == 9 })
		}
	}

	running, peak := 0, 0
	for _, l := range logLines(logPath) {
		if strings.HasPrefix(l, "s") {
			running++
		} else {
			running--
		}
		peak = max(peak, running)
		if running > 8 {
			t.Fatalf("%d hooks ran at once; log %v", running, logLines(logPath))
		}
	}
	if peak != 8 {
		t.Errorf("peak concurrency %d, want 8", peak)
	}
	if got, _ := e.TakePending(); len(got) != 9 {
		t.Errorf("%d pending results, want all 9", len(got))
	}
}

func TestAsync_OnlyContextAndMessagesAreDeliveredAndTakenOnce(t *testing.T) {
	host := newFakeHost(nil)
	e := newHostEngine(t, `{"PreToolUse": [{"hooks": [
		{"type": "command", "async": true, "command": "echo '{\"decision\":\"block\",\"reason\":\"async cannot block\",\"systemMessage\":\"late note\"}'"},
		{"type": "command", "async": true, "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"background context\"}}'"}]}]}`, host, 0)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "turn-1")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != DecisionNone || len(res.AdditionalContext) != 0 {
		t.Fatalf("async hooks changed the outcome: %+v", res)
	}
	got := map[string]AsyncResult{}
	for range 2 {
		ar := nextAsync(t, host)
		got[ar.Hook] = ar
	}
	block, ctx := got[res.Hooks[0].Key], got[res.Hooks[1].Key]
	if block.Status != StatusSucceeded || len(block.SystemMessages) != 1 || block.SystemMessages[0].Text != "late note" || len(block.AdditionalContext) != 0 {
		t.Errorf("blocking async hook: %+v", block)
	}
	if len(ctx.AdditionalContext) != 1 || ctx.AdditionalContext[0].Text != "background context" || ctx.Event != "PreToolUse" || ctx.RunID != res.RunID {
		t.Errorf("context async hook: %+v", ctx)
	}
	pending, _ := e.TakePending()
	if len(pending) != 2 {
		t.Fatalf("pending %d, want 2", len(pending))
	}
	if again, _ := e.TakePending(); len(again) != 0 {
		t.Errorf("results delivered twice: %+v", again)
	}
}

func TestAsync_InvalidOutputFailsLikeCodex(t *testing.T) {
	host := newFakeHost(nil)
	e := newHostEngine(t, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "async": true, "command": "echo '{not json'"}]}]}`, host, 0)
	if _, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), ""); err != nil {
		t.Fatal(err)
	}
	ar := nextAsync(t, host)
	if ar.Status != StatusFailed || ar.Error == nil || *ar.Error != "hook returned invalid user prompt submit JSON output" {
		t.Errorf("async result %+v (error %s)", ar, strOr(ar.Error))
	}
}

func TestAsync_EndSessionKillsUnfinishedAndDropsTheirOutput(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	host := newFakeHost(nil)
	e := newHostEngine(t, fmt.Sprintf(`{"Stop": [{"hooks": [
		{"type": "command", "async": true, "command": "echo '{}'"},
		{"type": "command", "async": true, "command": "sleep 1000 & echo $! > %[1]s.tmp && mv %[1]s.tmp %[1]s; wait; echo '{\"systemMessage\":\"too late\"}'"}]}]}`, pidFile), host, 0)
	if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
		t.Fatal(err)
	}
	nextAsync(t, host) // the quick one, left in the queue untaken
	var pid int
	waitFor(t, "the slow hook's child", func() bool {
		b, err := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil
	})
	if _, err := spill.Limit("sess_h", strings.Repeat("x", 20000), 1); err != nil {
		t.Fatal(err)
	}

	if err := e.EndSession(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) && !isZombie(pid) {
		t.Errorf("the async hook's child %d survived the end of the session", pid)
	}
	if p, _ := e.TakePending(); len(p) != 0 {
		t.Errorf("results of an ended session were kept: %+v", p)
	}
	select {
	case n := <-host.notes:
		t.Errorf("notification after the session ended: %s %+v", n.method, n.params)
	default:
	}
	if _, err := os.Stat(spill.Dir("sess_h")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("spill folder survived EndSession: %v", err)
	}

	// The engine still runs async hooks afterwards.
	if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
		t.Fatal(err)
	}
	nextAsync(t, host)
}

// isZombie reports whether pid has exited but not been reaped (its reaper
// may be a PID 1 that never reaps).
func isZombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	return i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z")
}

func TestSessionEnd_AsyncHookRunsSynchronouslyAndItsOutputIsIgnored(t *testing.T) {
	dir := t.TempDir()
	done := filepath.Join(dir, "done")
	host := newFakeHost(nil)
	e := hostEngine(t, `{"SessionEnd": [{"hooks": [{"type": "command", "async": true, "timeout": 600,
		"command": "touch `+done+`; echo '{\"continue\":false,\"systemMessage\":\"ignored\"}'"}]}]}`, host, 0)
	if _, w := e.List(""); len(w) != 2 || !strings.Contains(w[0].Message, "clamping SessionEnd hook timeout to 3s") ||
		!strings.Contains(w[1].Message, "running async SessionEnd hook synchronously") {
		t.Errorf("warnings %+v", w)
	}
	hooks, _ := e.snapshot()
	if h := hooks[0].Handler; h.Async || h.Timeout != 3 {
		t.Fatalf("SessionEnd handler async=%v timeout=%d, want sync and 3 s", h.Async, h.Timeout)
	}
	res, err := e.Run(context.Background(), "SessionEnd", []byte(`{"reason":"other"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	// The hook had finished when Run returned: it was not started in the
	// background.
	if _, err := os.Stat(done); err != nil || res.Hooks[0].Status != StatusSucceeded || res.Hooks[0].Async {
		t.Fatalf("SessionEnd hook %+v, done file: %v", res.Hooks[0], err)
	}
	if !res.Continue || len(res.SystemMessages) != 0 || !e.EndsSession("SessionEnd") || e.EndsSession("Stop") {
		t.Errorf("SessionEnd output was applied: %+v", res)
	}
}
