package proc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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

// currentWatchdog is the watchdog guarding the hooks started now.
func currentWatchdog(t *testing.T) *watchdogProc {
	t.Helper()
	prepareGuard()
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.cur == nil {
		t.Fatal("no watchdog")
	}
	// The tests end watchdogs on purpose: each starts with the whole bound
	// of replacements, whatever ran before it in this process.
	watchdog.restarts = 0
	return watchdog.cur
}

// Registering a hook writes nothing to the watchdog, so it is never woken
// for one: a stopped watchdog holds no hook up, its pipe stays empty, and
// it still kills the hook it guards once its pipe closes.
func TestWatchdog_RegistrationWritesNothingToTheWatchdog(t *testing.T) {
	wd := currentWatchdog(t)
	pid := wd.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGCONT)
	for deadline := time.Now().Add(30 * time.Second); processState(t, pid) != 'T'; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the watchdog did not stop")
		}
	}
	// Hooks that ran and ended, and one that runs on.
	for range 20 {
		if r := Run(context.Background(), Command{Shell: []string{"/bin/sh", "-c"}, Script: "exit 3", Stdin: []byte("x")}); r.ExitCode != 3 {
			t.Fatalf("hook under a stopped watchdog: %+v", r)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := guardedHook(t, ctx)
	if n := pipeHolds(t, wd.w); n != 0 {
		t.Fatalf("the watchdog's pipe holds %d bytes after 21 hooks; registering wrote to it", n)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// The pipe closing, as at hookd's death, has the watchdog kill the
	// running hook.
	wd.w.Close()
	select {
	case r := <-done:
		if r.Exited {
			t.Errorf("the guarded hook exited by itself: %+v", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the watchdog did not kill the hook it guards")
	}
	<-wd.done
	if currentWatchdog(t) == wd {
		t.Fatal("the watchdog that ended is still current")
	}
}

// A watchdog killed while hookd runs is replaced by one that reads the same
// table: the hooks already running stay guarded.
func TestWatchdog_AKilledWatchdogIsReplacedAndTheNewOneGuardsRunningHooks(t *testing.T) {
	first := currentWatchdog(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := guardedHook(t, ctx)
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.done
	second := currentWatchdog(t)
	if second == first {
		t.Fatal("no new watchdog after the first was killed")
	}
	select {
	case r := <-done:
		t.Fatalf("the hook ended (%+v) when its watchdog was killed", r)
	default:
	}
	second.w.Close()
	select {
	case r := <-done:
		if r.Exited {
			t.Errorf("the hook exited by itself: %+v", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the new watchdog did not kill the hook registered before it started")
	}
	<-second.done
}

// Watchdogs that keep ending are replaced only so often: past the bound,
// hookd logs it and starts no more.
func TestWatchdog_ReplacementsAreBounded(t *testing.T) {
	wd := currentWatchdog(t)
	watchdog.mu.Lock()
	watchdog.restarts = maxRestarts
	watchdog.mu.Unlock()
	if err := wd.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-wd.done
	watchdog.mu.Lock()
	cur := watchdog.cur
	// Guard the tests after this one again.
	watchdog.cur, watchdog.restarts = startWatchdog(watchdog.table), 0
	watchdog.mu.Unlock()
	if cur != nil {
		t.Fatal("a watchdog was started past the bound of replacements")
	}
}

// The table lists the groups of running hooks, and only those, and grows
// past one chunk.
func TestWatchdog_TableHoldsTheRunningHooks(t *testing.T) {
	prepareGuard()
	table := watchdog.table
	if table == nil {
		t.Fatal("no table")
	}
	// One real group, registered as often as more hooks than a chunk holds:
	// should a watchdog act on it, it kills only this.
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	want := tableChunk/slotSize + 5
	var unguard []func()
	for range want {
		unguard = append(unguard, guard(cmd))
	}
	if n := count(readTable(table.f), cmd.Process.Pid); n != want {
		t.Fatalf("the table lists the group %d times, want %d", n, want)
	}
	for _, u := range unguard {
		u()
	}
	if n := count(readTable(table.f), cmd.Process.Pid); n != 0 {
		t.Fatalf("the table lists the group %d times after every hook was unregistered", n)
	}
}

func count(list []int, v int) int {
	n := 0
	for _, x := range list {
		if x == v {
			n++
		}
	}
	return n
}

// processState is the state letter of /proc/<pid>/stat (R, S, T, Z...).
func processState(t *testing.T, pid int) byte {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		t.Fatalf("/proc/%d/stat: %q", pid, b)
	}
	return b[i+2]
}

// pipeHolds is how many bytes wait in the pipe behind w.
func pipeHolds(t *testing.T, w *os.File) int {
	t.Helper()
	// Through the raw descriptor: Fd would put the file in blocking mode.
	rc, err := w.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if cerr := rc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) }); cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}
