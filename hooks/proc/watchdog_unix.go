//go:build unix

package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// The watchdog makes sure no hook outlives hookd, however hookd ends: a
// kill -9 runs no cleanup, and a hook leads its own process group, so
// nothing else would ever stop it. It is a copy of hookd's own executable
// started with watchdogEnv set, in its own process group. hookd holds the
// write end of its stdin and tells it each running hook's group ("+pgid",
// "-pgid" lines). When that pipe closes, whether hookd exited or was killed,
// the watchdog kills every group still registered and exits.
//
// Only groups of hooks still running are registered: helpers that a hook
// started and left behind on a clean exit are, as documented in the package
// comment, left alone.

const watchdogEnv = "HOOKD_PROC_WATCHDOG"

func init() {
	// Every binary that links this package can be the watchdog, tests
	// included, since the watchdog is os.Executable itself.
	if os.Getenv(watchdogEnv) == "1" {
		os.Exit(runWatchdog(os.Stdin))
	}
}

// runWatchdog reads registrations until EOF, then kills what is left.
func runWatchdog(r io.Reader) int {
	groups := map[int]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return 0
}

// watchdog is hookd's side: the pipe to the watchdog process.
var watchdog struct {
	once sync.Once
	mu   sync.Mutex
	w    *os.File // nil when the watchdog could not start
}

// startWatchdog starts the watchdog process once per hookd.
func startWatchdog() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{watchdogEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w, err := os.Pipe()
	if err != nil {
		return
	}
	cmd.Stdin = r
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return
	}
	// Reaped when it exits, which is when hookd's end of the pipe closes.
	go func() { _ = cmd.Wait() }()
	watchdog.w = w
}

// prepareGuard starts the watchdog if it is not running yet.
func prepareGuard() { watchdog.once.Do(startWatchdog) }

// guard registers a running hook's group with the watchdog; the returned
// func unregisters it.
func guard(cmd *exec.Cmd) func() {
	p := cmd.Process
	watchdog.once.Do(startWatchdog)
	if p == nil || p.Pid <= 1 || !tell(fmt.Sprintf("+%d\n", p.Pid)) {
		return func() {}
	}
	return func() { tell(fmt.Sprintf("-%d\n", p.Pid)) }
}

func tell(line string) bool {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.w == nil {
		return false
	}
	// A watchdog that stopped reading (stopped by a debugger, say) must not
	// stop hooks from starting: the write gives up, and the watchdog with it.
	_ = watchdog.w.SetWriteDeadline(time.Now().Add(time.Second))
	if _, err := io.WriteString(watchdog.w, line); err != nil {
		watchdog.w.Close()
		watchdog.w = nil
		return false
	}
	return true
}
