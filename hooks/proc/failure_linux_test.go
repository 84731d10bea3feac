package proc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeHookdEnv makes the test binary a stand-in for hookd: it runs one hook
// (the variable's value) and blocks, until the test kills it. The hook gets
// a line on stdin, which Run writes only once the hook's group is
// registered with the watchdog: a hook that reads it first reports nothing
// before it is guarded.
const fakeHookdEnv = "PROC_TEST_FAKE_HOOKD"

func init() {
	if script := os.Getenv(fakeHookdEnv); script != "" {
		Run(context.Background(), Command{Shell: []string{"/bin/sh", "-c"}, Script: script, Stdin: []byte("go\n")})
		os.Exit(0)
	}
}

// subreaper makes orphans of this test's descendants our children, so the
// test can wait for them instead of polling.
func subreaper(t *testing.T) {
	t.Helper()
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
}

func TestRun_HooksDieWhenHookdIsKilled(t *testing.T) {
	subreaper(t)
	fifo := filepath.Join(t.TempDir(), "pids")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Once guarded (it has read its stdin), the hook starts a background
	// child and reports both pids, then both sleep for a day.
	script := fmt.Sprintf("read -r _; sleep 86400 & echo $$ $! > %s; sleep 86400", fifo)
	hookd := exec.Command(os.Args[0], "-test.run=^$")
	hookd.Env = append(os.Environ(), fakeHookdEnv+"="+script)
	if err := hookd.Start(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(fifo)
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(f).ReadString('\n')
	f.Close()
	if err != nil {
		t.Fatalf("reading the hook's pids: %v", err)
	}
	if len(strings.Fields(line)) != 2 {
		t.Fatalf("hook's pids: %q", line)
	}
	var pids []int
	for _, field := range strings.Fields(line) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			t.Fatalf("pids %q: %v", line, err)
		}
		pids = append(pids, pid)
	}
	t.Cleanup(func() {
		// The shell leads the hook's group: on failure, the whole group.
		_ = syscall.Kill(-pids[0], syscall.SIGKILL)
	})

	_ = hookd.Process.Kill()
	_ = hookd.Wait()
	// hookd's orphans are now ours: wait for each hook process to die.
	var wg sync.WaitGroup
	gone := make(chan int, len(pids))
	for _, pid := range pids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws syscall.WaitStatus
			for {
				_, err := syscall.Wait4(pid, &ws, 0, nil)
				if err != syscall.EINTR {
					break
				}
			}
			gone <- pid
		}()
	}
	deadline := time.After(20 * time.Second)
	for range pids {
		select {
		case <-gone:
		case <-deadline:
			t.Fatal("a hook process outlived hookd's kill -9")
		}
	}
	wg.Wait()
}

// threads is this process's OS thread count.
func threads(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatal("no Threads line in /proc/self/status")
	return 0
}

func TestRun_WaitingOnHooksPinsNoThreads(t *testing.T) {
	const hooks = 200
	before := threads(t)
	// The hooks only need to overlap; how long they take is not asserted.
	var done sync.WaitGroup
	for range hooks {
		done.Add(1)
		go func() {
			defer done.Done()
			Run(context.Background(), Command{Shell: []string{"/bin/sh", "-c"}, Script: "exec sleep 2"})
		}()
	}
	done.Wait()
	if grown := threads(t) - before; grown > hooks/4 {
		t.Fatalf("%d hooks left %d more OS threads, want fewer than %d", hooks, grown, hooks/4)
	}
}

func TestStartError_ResourceExhaustionIsNamed(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.EAGAIN, syscall.ENOMEM} {
		err := startError(&os.PathError{Op: "fork/exec", Path: "/bin/sh", Err: errno})
		if !errors.Is(err, ErrResources) || !strings.Contains(err.Error(), "could not start") {
			t.Errorf("%v: %v, want ErrResources named", errno, err)
		}
	}
	if err := startError(&os.PathError{Op: "fork/exec", Path: "/nope", Err: syscall.ENOENT}); errors.Is(err, ErrResources) {
		t.Errorf("a missing shell is not a resource limit: %v", err)
	}
}
