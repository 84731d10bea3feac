package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// guardedHook starts a hook under Run and returns once it is registered with
// the watchdog (it has read its stdin, which Run writes after registering).
func guardedHook(t *testing.T, ctx context.Context) <-chan Result {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "up")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan Result, 1)
	go func() {
		done <- Run(ctx, Command{Shell: []string{"/bin/sh", "-c"}, Script: fmt.Sprintf("read -r _; echo up > %s; exec sleep 1000", fifo), Stdin: []byte("go\n")})
	}()
	f, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := bufio.NewReader(f).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	return done
}

// A watchdog that stops reading is not taken for dead: its pipe stays open,
// so it does not kill the hooks it guards, and a new watchdog guards the
// hooks started after.
func TestWatchdog_OneThatStopsReadingIsReplacedNotClosed(t *testing.T) {
	prepareGuard()
	watchdog.mu.Lock()
	first := watchdog.cur
	watchdog.mu.Unlock()
	if first == nil {
		t.Fatal("no watchdog")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := guardedHook(t, ctx)

	// Stop the watchdog and fill its pipe: the next registration times out.
	if err := syscall.Kill(first.cmd.Process.Pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(first.cmd.Process.Pid, syscall.SIGCONT)
	for {
		_ = first.w.SetWriteDeadline(time.Now().Add(20 * time.Millisecond))
		if _, err := first.w.WriteString("#\n"); errors.Is(err, os.ErrDeadlineExceeded) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}

	b := guardedHook(t, ctx)
	watchdog.mu.Lock()
	second, retired := watchdog.cur, watchdog.retired
	watchdog.mu.Unlock()
	if second == nil || second == first || len(retired) == 0 || retired[len(retired)-1] != first {
		t.Fatalf("after a registration timed out: current %p (first %p), retired %v", second, first, retired)
	}
	if _, err := first.w.Stat(); err != nil {
		t.Fatalf("the stuck watchdog's pipe was closed (%v): it would kill every hook it guards", err)
	}
	_ = syscall.Kill(first.cmd.Process.Pid, syscall.SIGCONT)

	// The new watchdog guards the second hook: its pipe closing, as at
	// hookd's death, kills it; the first hook runs on.
	second.w.Close()
	select {
	case r := <-b:
		if r.Exited {
			t.Errorf("second hook exited by itself: %+v", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the new watchdog did not kill the hook it guards")
	}
	select {
	case r := <-a:
		t.Errorf("the first hook ended (%+v) though its watchdog only stopped reading", r)
	default:
	}
	watchdog.mu.Lock()
	watchdog.cur = startWatchdog()
	watchdog.mu.Unlock()
	cancel()
	<-a
}
