// Package proc runs one hook handler: a shell command with a stdin payload,
// bounded output capture, a timeout, and cleanup of what the command leaves
// behind.
//
// Hooks are arbitrary user scripts, so every way a child process can misbehave
// has to end in a Result rather than a hung or crashed host:
//
//   - A hook that ignores its stdin must still be heard: a broken pipe while
//     writing the payload is expected, not an error (Codex has a 1 MiB test).
//   - A hook that prints gigabytes must not grow memory: each stream keeps a
//     prefix and the rest is counted and handed to Command.Overflow.
//   - A hook that times out, or whose caller gives up, is stopped together with
//     everything it started: on POSIX it leads its own process group and the
//     whole group is signalled, SIGTERM first, SIGKILL after Command.KillGrace.
//   - A hook that exits but leaves a background child holding its stdout or
//     stderr must not hold the caller hostage: after Command.IOGrace the pipes
//     are closed and that group is killed.
//   - A hook that exits normally and whose helpers let go of the pipes keeps
//     its helpers: like Codex, a clean exit never kills the group, so hooks may
//     start detached daemons that redirect their output.
//
// os/exec starts and reaps the process; Run makes the pipes itself (the
// child's ends never touch the poller), reads the output on two goroutines
// of its own and bounds the wait for it by IOGrace after the exit, so there
// is no polling anywhere.
package proc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hookd/hookd/internal/rawio"
)

var procLog atomic.Pointer[slog.Logger]

// SetLogger names where the package logs what no caller sees (the watchdog
// that guards hooks against hookd's sudden death); slog's default until set.
func SetLogger(l *slog.Logger) {
	if l != nil {
		procLog.Store(l)
	}
}

func logger() *slog.Logger {
	if l := procLog.Load(); l != nil {
		return l
	}
	return slog.Default()
}

// Defaults applied by Run when the Command leaves a field at zero.
const (
	DefaultMaxOutput = 4 << 20
	DefaultIOGrace   = 250 * time.Millisecond
)

const (
	// firstChunk is the first capacity given to a stream's kept buffer. Most
	// hooks print a line of JSON or nothing, so starting small keeps Run cheap;
	// the buffer doubles from there up to bigChunk, never beyond MaxOutput.
	firstChunk = 2 << 10
	// bigChunk is where doubling stops: a stream that outgrows it gets
	// MaxOutput at once. Doubling on to MaxOutput would copy the kept bytes
	// into a buffer twice their size at every step, so a hook printing past
	// the cap (4 MiB by default) had 2 MiB and 4 MiB live at once plus the
	// garbage of every earlier step; now the peak is bigChunk plus MaxOutput.
	bigChunk = 256 << 10
	// scratchSize is the read size once a stream is past MaxOutput: large
	// enough to drain a fast writer in few syscalls, small enough to be noise.
	scratchSize = 32 << 10
)

// errTimeout is the cause attached to the Timeout context, so that Run can tell
// its own deadline from the caller's cancellation (or the caller's deadline).
var errTimeout = errors.New("hook timeout")

// EnvShell, as the first element of Command.Shell, stands for the SHELL
// variable of the command's environment (Env, else hookd's own), or /bin/sh
// when it is unset, read when the command starts: Codex runs hooks as
// "$SHELL -c".
const EnvShell = "$SHELL"

func envShell(env []string) string {
	sh := os.Getenv("SHELL")
	if env != nil {
		sh = ""
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "SHELL="); ok {
				sh = v
			}
		}
	}
	if sh == "" {
		return "/bin/sh"
	}
	return sh
}

// Command describes one handler process.
type Command struct {
	// Shell is the argv prefix; Script is appended as the last argument.
	// Empty means DefaultShell().
	Shell  []string
	Script string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env is the full environment of the process; nil means os.Environ().
	Env []string
	// Stdin is written once and then stdin is closed. A hook that exits without
	// reading it is not an error. Empty: the hook reads from the null device.
	Stdin []byte
	// Timeout bounds the whole run, output included; <= 0 means none.
	Timeout time.Duration
	// KillGrace is how long a hook has between SIGTERM and SIGKILL after a
	// timeout or cancellation; <= 0 means SIGKILL at once. Windows has no
	// SIGTERM, so the process is always killed at once there.
	KillGrace time.Duration
	// MaxOutput is the number of bytes kept per stream (stdout, stderr); the
	// rest is counted and passed to Overflow. <= 0 means DefaultMaxOutput.
	MaxOutput int
	// IOGrace is how long Run waits, once the shell has exited (or been
	// killed), for other processes to release its stdout and stderr.
	// <= 0 means DefaultIOGrace.
	IOGrace time.Duration
	// Overflow, if set, receives the bytes of each stream past MaxOutput, in
	// order, so that a caller can spill them to a file. stream is "stdout" or
	// "stderr". Calls are serialised across both streams and all happen before
	// Run returns; p is only valid during the call. A panic in Overflow is
	// reported in Result.Err and stops further calls; the output is still
	// drained and counted.
	Overflow func(stream string, p []byte)
}

// Result is what became of one Command. A timeout, a cancellation, a non-zero
// exit and death by a signal are outcomes, not errors: Err is reserved for
// failures of the machinery.
type Result struct {
	// ExitCode is the shell's exit status; valid when Exited, -1 otherwise.
	ExitCode int
	// Exited is false when the shell was killed by a signal or never started.
	Exited bool
	// Stdout and Stderr hold at most MaxOutput bytes each (nil when empty).
	Stdout, Stderr []byte
	// StdoutDropped and StderrDropped count the bytes past MaxOutput.
	StdoutDropped, StderrDropped int64
	// TimedOut reports that Command.Timeout expired before the hook finished
	// (exited and released its output). The shell may still have Exited with
	// a code of its own, from a TERM trap during KillGrace; callers should
	// test TimedOut and Cancelled before ExitCode.
	TimedOut bool
	// Cancelled reports that ctx ended (cancelled or past its own deadline)
	// before the hook finished, or before it could start.
	Cancelled bool
	// Err is a spawn error, a stdin write error other than a broken pipe, a
	// wait or read error, or a panic in Overflow. It is nil on a normal exit
	// of any code, and on a timeout or cancellation once the hook has started.
	Err error
	// Duration is the wall time Run took.
	Duration time.Duration
}

// Run starts c, feeds it c.Stdin, captures its output and waits until it has
// exited and released its output, or until Command.IOGrace after that.
//
// Every goroutine Run starts has finished when it returns but one: on Linux
// the shell's exit is known before it is reaped, and the reaping, with the
// closing of the pipes, is left to a goroutine that ends as soon as it has
// done them (reap). Every process that still held the hook's stdout or
// stderr, or belonged to its process group after a timeout or cancellation,
// has finished too. Helpers that redirected their output and outlive a
// normal exit are left running on purpose.
//
// Run never panics; an unexpected one is turned into Result.Err.
func Run(ctx context.Context, c Command) (res Result) {
	start := time.Now()
	res.ExitCode = -1
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Errorf("proc: internal panic: %v", p)
		}
		res.Duration = time.Since(start)
	}()

	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Err() != nil {
		res.Cancelled = true
		res.Err = fmt.Errorf("hook not started: %w", context.Cause(ctx))
		return res
	}

	shell := c.Shell
	if len(shell) == 0 {
		shell = DefaultShell()
	}
	if shell[0] == EnvShell {
		shell = append([]string{envShell(c.Env)}, shell[1:]...)
	}
	argv := make([]string, 0, len(shell)+1)
	argv = append(append(argv, shell...), c.Script)

	maxOut := c.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	ioGrace := c.IOGrace
	if ioGrace <= 0 {
		ioGrace = DefaultIOGrace
	}

	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	configure(cmd, argv)

	// The Cmd has no context: the caller's ends the hook politely first
	// (the watcher below), and hardKill SIGKILLs its group, at most once and
	// never once the hook has finished (exited and let go of its output).
	// IOGrace then bounds the wait for the pipes from the shell's exit,
	// which follows the SIGKILL at once. (A context on the Cmd would cost a
	// goroutine per hook to watch it.) Both writers of killed (the watcher,
	// the stdin writer) run after Start.
	var killMu sync.Mutex
	var killed, waited bool
	hardKill := func() {
		killMu.Lock()
		defer killMu.Unlock()
		if killed || waited {
			return
		}
		killed = true
		_ = killGroup(cmd.Process)
		// The shell too, should it have left its group (setsid): the
		// process handle cannot reach another process.
		_ = cmd.Process.Kill()
	}

	sink := &overflowSink{fn: c.Overflow}
	stdout := &capture{stream: "stdout", max: maxOut, sink: sink}
	stderr := &capture{stream: "stderr", max: maxOut, sink: sink}

	// The pipes are made here, not by os/exec: the child's ends are plain
	// blocking descriptors that are never registered with the poller (os.Pipe
	// registers both ends and the start then puts the child's back to
	// blocking, a dozen system calls per pipe), and hookd's ends are read
	// and written by Run's own goroutines (pipes.go).
	var p pipes
	// Run ends the hook's guard and closes its pipes as it returns, unless
	// reapLater: the exit is known without Wait, and reap (below), started
	// once the result is made, does both after Run returns.
	reapLater := false
	unguard := func() {}
	defer func() {
		if !reapLater {
			unguard()
			p.closeAll()
		}
	}()
	if err := p.make(len(c.Stdin) > 0); err != nil {
		res.Err = startError(fmt.Errorf("hook pipes: %w", err))
		return res
	}
	cmd.Stdout, cmd.Stderr = p.childOut, p.childErr
	if p.childIn != nil {
		// Else os/exec gives the hook the null device. (A nil *os.File in
		// the interface would give it a closed stdin.)
		cmd.Stdin = p.childIn
	}

	runCtx, stopTimeout := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		runCtx, stopTimeout = context.WithTimeoutCause(ctx, c.Timeout, errTimeout)
	}
	defer stopTimeout()

	// Until Run returns, the hook's group dies with hookd, however hookd
	// ends (watchdog_unix.go, the Job Object on Windows). The watchdog is
	// ready before the hook starts, so registering it is a store into the
	// table it shares.
	prepareGuard()
	err := cmd.Start()
	p.closeChildEnds()
	if err != nil {
		res.Err = startError(err)
		return res
	}
	unguard = guard(cmd)

	// The payload is written once the hook is guarded, so a hook that has
	// read it is. As much as the pipe takes at once is written here (a
	// hook's payload usually fits), so most hooks need no writer.
	rest := c.Stdin
	if p.in != nil {
		rest = rawio.TryWrite(p.in, c.Stdin)
		if len(rest) == 0 {
			p.in.Close()
		}
	}

	read := make(chan struct{}, 2)
	for _, s := range []struct {
		c *capture
		f *os.File
	}{{stdout, p.out}, {stderr, p.err}} {
		// Raw reads where the file allows them (internal/rawio): the read
		// that finds the end at the hook's exit then does not wake the
		// runtime's monitor thread.
		go func() {
			var r io.Reader = s.f
			if rf := rawio.Of(s.f); rf != nil {
				r = rf
			}
			_, _ = s.c.ReadFrom(r)
			read <- struct{}{}
		}()
	}

	stdinErr := make(chan error, 1)
	if p.in == nil || len(rest) == 0 {
		stdinErr <- nil
	} else {
		go func() {
			err := writeStdin(p.in, rest)
			if err != nil {
				// Like Codex: a hook that got a truncated payload for any
				// reason other than not wanting it must not act on it.
				hardKill()
			}
			stdinErr <- err
		}()
	}

	// The watcher turns the end of runCtx into SIGTERM, then SIGKILL after the
	// grace. exited tells it to stand down once Wait has returned. It runs
	// only if runCtx ends (context.AfterFunc): a hook that finishes in time
	// costs no goroutine for it.
	exited := make(chan struct{})
	watchDone := make(chan struct{})
	var fired, timedOut bool
	stopWatch := func() bool { return true }
	if runCtx.Done() != nil {
		stopWatch = context.AfterFunc(runCtx, func() {
			defer close(watchDone)
			select {
			case <-exited:
				return
			default:
			}
			fired = true
			timedOut = errors.Is(context.Cause(runCtx), errTimeout)
			if c.KillGrace <= 0 || !canTerminate {
				hardKill()
				return
			}
			if err := terminateGroup(cmd.Process); err != nil {
				// Nothing left to be graceful with (or no way to ask).
				hardKill()
				return
			}
			grace := time.NewTimer(c.KillGrace)
			defer grace.Stop()
			select {
			case <-grace.C:
				hardKill()
			case <-exited:
			}
		})
	}

	// Where the platform can, wait for the exit without a thread blocked in
	// wait4 per hook, and learn how it ended without reaping it
	// (wait_linux.go); else Wait blocks, reaps and tells.
	code, known, pidfd := awaitExit(cmd.Process)
	var waitErr error
	if !known {
		waitErr = cmd.Wait()
	}
	// The output is read until every process that holds the pipes lets go
	// of them, or for IOGrace after the exit; then hookd's ends are closed,
	// which ends the reads (capture.cut). The hook is finished only then:
	// its timeout still applies until it is.
	grace := time.NewTimer(ioGrace)
	for range 2 {
		select {
		case <-read:
		case <-grace.C:
			p.out.Close()
			p.err.Close()
			<-read
		}
	}
	grace.Stop()
	// A payload still being written has no reader left that matters.
	if p.in != nil {
		p.in.Close()
	}
	inErr := <-stdinErr
	killMu.Lock()
	waited = true
	hardKilled := killed
	killMu.Unlock()
	close(exited)
	if stopWatch() {
		// The watcher never started and now never will.
		close(watchDone)
	}
	<-watchDone

	// held: some process still had the hook's stdout or stderr open when
	// IOGrace ran out, and Run closed its ends. Those processes are the
	// hook's background children writing to output nobody will read, so the
	// group is killed. This is deliberately not an error (the hook itself
	// exited, and its code and captured output stand); reporting it would turn
	// every "cmd &" hook into a failure. A helper that redirected its output
	// is not holding the pipes and so triggers nothing here; it only dies if a
	// sibling in the same group was holding them.
	held := stdout.cut || stderr.cut
	signalled := fired || hardKilled
	if held || signalled {
		// After a timeout or cancellation the shell may be gone while group
		// members that ignored SIGTERM live on; the grace was the shell's.
		// The group cannot be reused before it is empty, so this cannot hit
		// strangers unless the pid is recycled in this very instant.
		_ = killGroup(cmd.Process)
	}

	switch {
	case known:
		if code >= 0 {
			res.Exited = true
			res.ExitCode = code
		}
		// The result is complete: the hook's shell has exited, its output
		// is read and its group dealt with. Reaping it, closing the pipes
		// and ending the guard can come after the caller has answered.
		reapLater = true
		reap(cmd, pidfd, &p, unguard)
	case cmd.ProcessState != nil && cmd.ProcessState.Exited():
		res.Exited = true
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	res.TimedOut = fired && timedOut
	res.Cancelled = fired && !timedOut
	res.Stdout, res.StdoutDropped = stdout.result()
	res.Stderr, res.StderrDropped = stderr.result()

	if inErr != nil {
		res.Err = fmt.Errorf("write hook stdin: %w", inErr)
	} else if err := waitFailed(waitErr, signalled); err != nil {
		res.Err = err
	} else if sink.err != nil {
		res.Err = sink.err
	}
	return res
}

// reaping counts the hooks whose exit is known and whose reaping has not
// finished (reap). Not a WaitGroup: hooks may still end, and start their
// reaping, while a process that is exiting waits in Settle.
var reaping struct {
	mu      sync.Mutex
	pending int
	idle    *sync.Cond
}

func init() { reaping.idle = sync.NewCond(&reaping.mu) }

// Settle returns once every hook whose result Run has returned is reaped,
// its pipes closed and its watchdog slot cleared (reap): at once, or within
// microseconds. A process that has run hooks calls it before it exits, since
// the watchdog kills every group still in its table when the process ends,
// and a finished hook's helpers that redirected their output are meant to
// outlive it.
func Settle() {
	reaping.mu.Lock()
	defer reaping.mu.Unlock()
	for reaping.pending > 0 {
		reaping.idle.Wait()
	}
}

// reap reaps a hook that has exited, on a goroutine of its own, then closes
// its pipes, ends its guard and makes the next hook's pipes (spare). Run's
// result does not wait for it: on Linux the exit is known before the
// reaping (awaitExit), and what is left (waitid, a dozen closes and epoll
// removals, the next pipes) runs after the reply rather than before it.
// Until it is reaped the hook's pid and group stay its own, so the guard,
// which ends only after the reaping, can never reach another process.
func reap(cmd *exec.Cmd, pidfd io.Closer, p *pipes, unguard func()) {
	reaping.mu.Lock()
	reaping.pending++
	reaping.mu.Unlock()
	go func() {
		defer func() {
			reaping.mu.Lock()
			if reaping.pending--; reaping.pending == 0 {
				reaping.idle.Broadcast()
			}
			reaping.mu.Unlock()
		}()
		_ = pidfd.Close()
		_ = cmd.Wait()
		p.closeAll()
		unguard()
		makeSpare()
	}()
}

// ErrResources marks a hook that could not start because hookd ran out of
// a resource (file descriptors, processes, memory). Such a hook did not run:
// callers report it as a failure, and policies that fail closed block.
var ErrResources = errors.New("out of resources")

// startError describes a failed start, naming resource exhaustion as such.
func startError(err error) error {
	if isResourceLimit(err) {
		return fmt.Errorf("hook could not start: hookd is %w (%v); lower the number of hooks running at once or raise the limit", ErrResources, err)
	}
	return fmt.Errorf("start hook: %w", err)
}

// waitFailed filters Wait's error down to real failures: exit statuses,
// the IOGrace cut-off and the cancellation we caused ourselves are outcomes
// already reported in Result's other fields.
func waitFailed(err error, signalled bool) error {
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.As(err, &exitErr):
		return nil
	case signalled && errors.Is(err, context.Canceled):
		return nil
	}
	return fmt.Errorf("wait for hook: %w", err)
}

// writeStdin writes the payload and closes the pipe. A reader that went away
// (broken pipe) or a pipe that Wait already closed because the hook exited
// both mean the hook chose not to read: not an error.
func writeStdin(w io.WriteCloser, p []byte) error {
	_, err := w.Write(p)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err == nil || errors.Is(err, os.ErrClosed) || isBrokenPipe(err) {
		return nil
	}
	return err
}

// overflowSink serialises calls to Command.Overflow from the two stream
// readers, so a caller can spill both streams to one file without locking,
// and contains a panicking callback: it runs on a stream's reading goroutine,
// where a panic could not be recovered by Run and would take down the host.
type overflowSink struct {
	fn  func(stream string, p []byte)
	mu  sync.Mutex
	err error
}

func (s *overflowSink) send(stream string, p []byte) {
	if s.fn == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.err = fmt.Errorf("overflow callback panicked: %v", r)
		}
	}()
	s.fn(stream, p)
}

// capture keeps the first max bytes of one stream and drains the rest.
//
// Its ReadFrom reads the pipe itself, on the stream's goroutine: reads land
// directly in the kept buffer, and capture can tell EOF from the pipe being
// closed under it when IOGrace expires.
type capture struct {
	stream  string
	max     int
	buf     []byte
	dropped int64
	sink    *overflowSink
	cut     bool // the read ended by an error (pipe closed after IOGrace), not EOF
}

// ReadFrom drains r until EOF or error. Past max it keeps reading into a
// scratch buffer, so a hook that prints without end never blocks on a full
// pipe and never grows memory.
func (c *capture) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	var scratch []byte
	for {
		var p []byte
		keep := len(c.buf) < c.max
		if keep {
			c.reserve(1)
			p = c.buf[len(c.buf):cap(c.buf)]
		} else {
			if scratch == nil {
				scratch = make([]byte, scratchSize)
			}
			p = scratch
		}
		n, err := r.Read(p)
		total += int64(n)
		if keep {
			c.buf = c.buf[:len(c.buf)+n]
		} else if n > 0 {
			c.drop(p[:n])
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			c.cut = true
			return total, err
		}
	}
}

// reserve makes room for n more kept bytes, growing geometrically up to
// bigChunk and then straight to max, so the kept buffer is bounded by
// MaxOutput, not by append's growth policy.
func (c *capture) reserve(n int) {
	need := len(c.buf) + n
	if need <= cap(c.buf) {
		return
	}
	size := max(need, 2*cap(c.buf), firstChunk)
	if size > bigChunk {
		size = c.max
	}
	size = min(size, c.max)
	grown := make([]byte, len(c.buf), size)
	copy(grown, c.buf)
	c.buf = grown
}

func (c *capture) drop(p []byte) {
	c.dropped += int64(len(p))
	c.sink.send(c.stream, p)
}

func (c *capture) result() ([]byte, int64) {
	if len(c.buf) == 0 {
		return nil, c.dropped
	}
	return c.buf, c.dropped
}
