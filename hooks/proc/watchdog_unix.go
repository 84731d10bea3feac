//go:build unix

package proc

import (
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The watchdog makes sure no hook outlives hookd, however hookd ends: a
// kill -9 runs no cleanup, and a hook leads its own process group, so
// nothing else would ever stop it. It is a copy of hookd's own executable
// started with watchdogEnv set, in its own process group. hookd holds the
// write end of its stdin, and shares with it a table of the running hooks'
// groups: a file (a memfd on Linux) that both map, one 32-bit slot per
// hook, 0 when free. Registering a hook is a store into hookd's mapping of
// that file: no system call, and nothing that wakes the watchdog, which
// sleeps in its read of stdin. When that pipe closes, whether hookd exited
// or was killed, the watchdog reads the table and kills every group still
// in it, then exits.
//
// Only groups of hooks still running are registered: helpers that a hook
// started and left behind on a clean exit are, as documented in the package
// comment, left alone.

const watchdogEnv = "HOOKD_PROC_WATCHDOG"

// tableFD is the table's descriptor in the watchdog (its first extra file).
const tableFD = 3

func init() {
	// Every binary that links this package can be the watchdog, tests
	// included, since the watchdog is os.Executable itself.
	if os.Getenv(watchdogEnv) == "1" {
		os.Exit(runWatchdog(os.Stdin, os.NewFile(tableFD, "hookd-guard-table")))
	}
}

// runWatchdog waits for the end of r, then kills the groups in the table.
func runWatchdog(r io.Reader, table *os.File) int {
	// Nothing is ever written to r; a byte that is is ignored.
	_, _ = io.Copy(io.Discard, r)
	for _, pgid := range readTable(table) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	return 0
}

// readTable lists the groups registered in the table file.
func readTable(f *os.File) []int {
	if f == nil {
		return nil
	}
	raw, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<40))
	if err != nil && len(raw) == 0 {
		return nil
	}
	var out []int
	for i := 0; i+slotSize <= len(raw); i += slotSize {
		if pgid := int(int32(binary.NativeEndian.Uint32(raw[i:]))); pgid > 1 {
			out = append(out, pgid)
		}
	}
	return out
}

// slotSize is one slot of the table: a process group id.
const slotSize = 4

// tableChunk is how much the table grows by: one page, 1024 hooks.
const tableChunk = 4096

// guardTable is hookd's side of the table: the file, its mapped chunks, and
// the slots free for the next hooks. Slots are written with atomic stores,
// so a watchdog that reads the table while hookd runs (hookd closed its
// pipe without dying) sees whole group ids.
type guardTable struct {
	mu     sync.Mutex
	f      *os.File
	chunks [][]byte
	free   []int
}

// newGuardTable makes an empty table with its first chunk mapped.
func newGuardTable() (*guardTable, error) {
	f, err := tableFile()
	if err != nil {
		return nil, err
	}
	t := &guardTable{f: f}
	if err := t.grow(); err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// grow adds one chunk to the file and maps it.
func (t *guardTable) grow() error {
	off := int64(len(t.chunks)) * tableChunk
	if err := t.f.Truncate(off + tableChunk); err != nil {
		return err
	}
	m, err := unix.Mmap(int(t.f.Fd()), off, tableChunk, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		return err
	}
	first := len(t.chunks) * (tableChunk / slotSize)
	t.chunks = append(t.chunks, m)
	for i := first + tableChunk/slotSize - 1; i >= first; i-- {
		t.free = append(t.free, i)
	}
	return nil
}

// slot is the word of slot i in hookd's mapping.
func (t *guardTable) slot(i int) *uint32 {
	c := t.chunks[i/(tableChunk/slotSize)]
	return (*uint32)(unsafe.Pointer(&c[(i%(tableChunk/slotSize))*slotSize]))
}

// add registers pgid and returns its slot, or -1 when the table cannot grow.
func (t *guardTable) add(pgid int) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.free) == 0 {
		if err := t.grow(); err != nil {
			logger().Error("cannot grow the hook watchdog's table: this hook may outlive hookd if it is killed", "err", err)
			return -1
		}
	}
	i := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	atomic.StoreUint32(t.slot(i), uint32(pgid))
	return i
}

// remove clears slot i and frees it.
func (t *guardTable) remove(i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	atomic.StoreUint32(t.slot(i), 0)
	t.free = append(t.free, i)
}

// watchdog is hookd's side: the table, and the current watchdog process.
// A watchdog that dies while hookd runs is replaced by one given the same
// table, so the hooks already running stay guarded; one that stops (a
// debugger) holds nothing up, since registering writes nothing to it.
var watchdog struct {
	once  sync.Once
	table *guardTable // nil when no table could be made: hooks run unguarded
	mu    sync.Mutex
	cur   *watchdogProc // nil when no watchdog could start
	// restarts counts the watchdogs started after the first died.
	restarts int
}

// maxRestarts bounds the replacements of watchdogs that died, so that a
// watchdog that cannot live (its executable gone) is not started forever.
const maxRestarts = 10

// watchdogProc is one watchdog process and the write end of its stdin.
type watchdogProc struct {
	cmd *exec.Cmd
	w   *os.File
	// done is closed once it has ended and its replacement, if any, is
	// current.
	done chan struct{}
}

// startWatchdog starts a watchdog process on the table, or returns nil
// (logged).
func startWatchdog(t *guardTable) *watchdogProc {
	wd, err := spawnWatchdog(t)
	if err != nil {
		logger().Error("cannot start the hook watchdog: hooks running now may outlive hookd if it is killed", "err", err)
		return nil
	}
	return wd
}

func spawnWatchdog(t *guardTable) (*watchdogProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = []string{watchdogEnv + "=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.ExtraFiles = []*os.File{t.f}
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
	wd := &watchdogProc{cmd: cmd, w: w, done: make(chan struct{})}
	// Reaped when it exits, which is when hookd's end of the pipe closes,
	// or when something else ended it: then a new one takes the table.
	go func() {
		defer close(wd.done)
		_ = cmd.Wait()
		replaceWatchdog(wd)
	}()
	return wd, nil
}

// replaceWatchdog starts a new watchdog on the table when wd, the current
// one, has ended while hookd runs.
func replaceWatchdog(wd *watchdogProc) {
	watchdog.mu.Lock()
	defer watchdog.mu.Unlock()
	if watchdog.cur != wd {
		return
	}
	if watchdog.restarts >= maxRestarts {
		logger().Error("the hook watchdog ended again; not starting another: hooks may outlive hookd if it is killed", "restarts", watchdog.restarts)
		watchdog.cur = nil
		return
	}
	watchdog.restarts++
	logger().Warn("the hook watchdog ended while hookd runs; a new one guards the hooks running", "pid", wd.cmd.Process.Pid, "state", wd.cmd.ProcessState.String())
	watchdog.cur = startWatchdog(watchdog.table)
}

// prepareGuard makes the table and starts the watchdog if that is not done
// yet.
func prepareGuard() {
	watchdog.once.Do(func() {
		t, err := newGuardTable()
		if err != nil {
			logger().Error("cannot make the hook watchdog's table: hooks may outlive hookd if it is killed", "err", err)
			return
		}
		watchdog.mu.Lock()
		watchdog.table = t
		watchdog.cur = startWatchdog(t)
		watchdog.mu.Unlock()
	})
}

// guard registers a running hook's group in the table; the returned func
// unregisters it.
func guard(cmd *exec.Cmd) func() {
	p := cmd.Process
	prepareGuard()
	t := watchdog.table
	if t == nil || p == nil || p.Pid <= 1 {
		return func() {}
	}
	i := t.add(p.Pid)
	if i < 0 {
		return func() {}
	}
	return func() { t.remove(i) }
}
