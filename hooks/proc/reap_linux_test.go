package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// awaitExit tells how a process ended, as Wait does, while leaving it
// unreaped for Wait.
func TestAwaitExit_TellsTheExitWithoutReapingIt(t *testing.T) {
	for _, script := range []string{`exit 0`, `exit 7`, `exit 255`, `kill -KILL $$`, `kill -TERM $$`, `kill -SEGV $$`} {
		t.Run(script, func(t *testing.T) {
			cmd := exec.Command("/bin/sh", "-c", script)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			code, ok, pidfd := awaitExit(cmd.Process)
			if !ok {
				t.Fatal("awaitExit could not tell the exit")
			}
			defer pidfd.Close()
			if s := processState(t, cmd.Process.Pid); s != 'Z' {
				t.Fatalf("after awaitExit the process is in state %c, want a zombie left for Wait", s)
			}
			_ = cmd.Wait()
			st := cmd.ProcessState
			if want := st.ExitCode(); code != want || (code >= 0) != st.Exited() {
				t.Fatalf("awaitExit gave %d, Wait gave exit code %d (exited %v)", code, want, st.Exited())
			}
		})
	}
}

// Run answers before the hook is reaped (reap); the reaping then leaves
// no zombie, no descriptor and no guard behind.
func TestRun_ReapsTheHookAndClosesItsPipesAfterReturning(t *testing.T) {
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	prepareGuard()
	// One hook first, so that the spare pipes exist before the count as
	// after it.
	if res := run(context.Background(), Command{Script: `true`, Stdin: []byte(`{}`)}); res.Err != nil {
		t.Fatal(res.Err)
	}
	Settle()
	before := fds()
	res := run(context.Background(), Command{Script: `echo $$; exit 3`, Stdin: []byte(`{"x":1}`)})
	if res.Err != nil || !res.Exited || res.ExitCode != 3 {
		t.Fatalf("%+v", res)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	Settle()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the hook's shell %d is still there once reaped (kill 0: %v)", pid, err)
	}
	if after := fds(); after != before {
		t.Fatalf("%d descriptors open before the hook, %d after its reaping", before, after)
	}
	if n := count(readTable(watchdog.table.f), pid); n != 0 {
		t.Fatalf("the watchdog's table still lists the hook %d times", n)
	}
}

// The reaping makes the next hook's pipes, and the next hook with a payload
// takes them.
func TestRun_TheNextHooksPipesAreMadeAfterTheReply(t *testing.T) {
	hook := func() {
		t.Helper()
		res := run(context.Background(), Command{Script: `cat`, Stdin: []byte(`{"n":1}`)})
		if res.Err != nil || string(res.Stdout) != `{"n":1}` {
			t.Fatalf("%+v", res)
		}
		Settle()
	}
	hook()
	first := spare.p
	if first == nil {
		t.Fatal("no pipes made ahead after a hook's reaping")
	}
	hook()
	if spare.p == nil || spare.p == first {
		t.Fatalf("the next hook did not take the pipes made ahead (spare %p, first %p)", spare.p, first)
	}
}

// Settle may be called while hooks still end and start their reaping (a
// process exiting while its last hooks are killed): it neither panics nor
// waits for ever, and once every hook has returned it leaves none
// unreaped.
func TestSettle_WhileHooksStillEnd(t *testing.T) {
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				run(context.Background(), Command{Script: `true`, Stdin: []byte(`{}`)})
			}
		}()
	}
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		for range 50 {
			Settle()
		}
	}()
	wg.Wait()
	<-settled
	Settle()
	reaping.mu.Lock()
	defer reaping.mu.Unlock()
	if reaping.pending != 0 {
		t.Fatalf("%d hooks unreaped after Settle", reaping.pending)
	}
}
