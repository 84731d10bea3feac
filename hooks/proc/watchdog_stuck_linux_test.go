package proc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
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
	// Stopped for sure before the pipe is filled: a watchdog still reading
	// would make room again.
	for deadline := time.Now().Add(30 * time.Second); processState(t, first.cmd.Process.Pid) != 'T'; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the watchdog did not stop")
		}
	}
	fillPipe(t, first.w)

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

// fillPipe shrinks the pipe behind w to one page and fills it, so that the
// next write cannot complete until the reader reads.
func fillPipe(t *testing.T, w *os.File) {
	t.Helper()
	// Through the raw descriptor: Fd would put the file in blocking mode,
	// where write deadlines no longer work.
	rc, err := w.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	held := 0
	err = rc.Control(func(fd uintptr) {
		if _, err = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, page); err == nil {
			held, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = w.SetWriteDeadline(time.Now().Add(30 * time.Second))
	if _, err := w.Write(bytes.Repeat([]byte{'\n'}, page-held)); err != nil {
		t.Fatal(err)
	}
	n := 0
	_ = rc.Control(func(fd uintptr) { n, err = unix.IoctlGetInt(int(fd), unix.TIOCINQ) })
	if err != nil || n != page {
		t.Fatalf("pipe holds %d bytes (%v), want %d", n, err, page)
	}
}
