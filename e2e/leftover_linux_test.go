package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// noLeftovers makes the test binary the reaper of every process its tests
// start, however deep (PR_SET_CHILD_SUBREAPER): when a hookd dies, its hooks
// and its watchdog become our children. After the tests it waits a moment
// for those still ending (a watchdog that just saw its hookd exit), then
// fails the run if any is left, naming and killing it.
type noLeftovers struct{ m interface{ Run() int } }

func (n noLeftovers) Run() int {
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		fmt.Fprintf(os.Stderr, "cannot check for leftover processes: prctl: %v\n", errno)
		return n.m.Run()
	}
	code := n.m.Run()
	if left := leftovers(); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left %d processes running:\n  %s\n", len(left), strings.Join(left, "\n  "))
		if code == 0 {
			code = 1
		}
	}
	return code
}

// leftovers reaps our exited children and returns the ones still running
// 5 s later, after killing them.
func leftovers() []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		reap()
		alive := children()
		if len(alive) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			var out []string
			for pid, cmd := range alive {
				out = append(out, fmt.Sprintf("%d %s", pid, cmd))
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			reap()
			return out
		}
		// Each child still running gets waited for; one that exits wakes us.
		for pid := range alive {
			done := make(chan struct{})
			go func() {
				var ws syscall.WaitStatus
				_, _ = syscall.Wait4(pid, &ws, 0, nil)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(time.Until(deadline)):
			}
			break
		}
	}
}

func reap() {
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}

// children lists this process's children that are not zombies.
func children() map[int]string {
	out := map[int]string{}
	self := strconv.Itoa(os.Getpid())
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[1] != self || f[0] == "Z" {
			continue
		}
		cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		out[pid] = strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
	}
	return out
}
