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
	"sync/atomic"
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

// watchdog is hookd's side: the pipe to the current watchdog process, and
// the ones that stopped reading.
//
// A watchdog that stops reading (stopped by a debugger, its pipe full) must
// not stop hooks from starting, so a registration gives up after
// watchdogWrite. Its pipe is not closed then: to the watchdog a closed pipe
// means hookd is gone, and it would kill every hook it guards. It is
// retired instead, kept open for as long as hookd runs (the hooks it guards
// stay guarded: it kills them if hookd dies), and a new watchdog guards the
// hooks started from then on. Both events are logged.
var watchdog struct {
	once    sync.Once
	mu      sync.Mutex
	cur     *watchdogProc // nil when no watchdog could start
	retired []*watchdogProc
}

// watchdogWrite bounds one registration's write to the watchdog.
const watchdogWrite = time.Second

// watchdogProc is one watchdog process and the write end of its stdin.
type watchdogProc struct {
	cmd *exec.Cmd
	w   *os.File
	// retired: it stopped reading; nothing more is written to it.
	retired atomic.Bool
}

// startWatchdog starts a watchdog process, or returns nil (logged).
func startWatchdog() *watchdogProc {
	wd, err := spawnWatchdog()
	if err != nil {
		logger().Error("cannot start the hook watchdog: hooks started now may outlive hookd if it is killed", "err", err)
		return nil
	}
	return wd
}

func spawnWatchdog() (*watchdogProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{watchdogEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = r
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	// Reaped when it exits, which is when hookd's end of the pipe closes.
	go func() { _ = cmd.Wait() }()
	return &watchdogProc{cmd: cmd, w: w}, nil
}

// prepareGuard starts the watchdog if it is not running yet.
func prepareGuard() {
	watchdog.once.Do(func() {
		wd := startWatchdog()
		watchdog.mu.Lock()
		watchdog.cur = wd
		watchdog.mu.Unlock()
	})
}

// guard registers a running hook's group with the watchdog; the returned
// func unregisters it, with the watchdog it was registered with.
func guard(cmd *exec.Cmd) func() {
	p := cmd.Process
	prepareGuard()
	if p == nil || p.Pid <= 1 {
		return func() {}
	}
	wd := register(fmt.Sprintf("+%d\n", p.Pid))
	if wd == nil {
		return func() {}
	}
	return func() { wd.tell(fmt.Sprintf("-%d\n", p.Pid)) }
}

// register sends line to the current watchdog and returns it. One that does
// not take the line in time is retired and a new one started, which gets the
// line instead (once: a new watchdog that does not read either is retired
// too, and the hook runs unguarded).
func register(line string) *watchdogProc {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	for range 2 {
		wd := watchdog.cur
		if wd == nil {
			return nil
		}
		if wd.tell(line) {
			return wd
		}
		logger().Warn("the hook watchdog did not read a registration in time: it keeps guarding the hooks it has, and a new one guards the next", "pid", wd.cmd.Process.Pid, "timeout", watchdogWrite)
		wd.retired.Store(true)
		watchdog.retired = append(watchdog.retired, wd)
		watchdog.cur = startWatchdog()
	}
	return nil
}

// tell writes one line, giving up after watchdogWrite. A line is shorter
// than PIPE_BUF, so it is written whole or not at all.
func (wd *watchdogProc) tell(line string) bool {
	if wd.retired.Load() {
		return false
	}
	_ = wd.w.SetWriteDeadline(time.Now().Add(watchdogWrite))
	_, err := io.WriteString(wd.w, line)
	return err == nil
}
