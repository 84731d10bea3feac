//go:build unix

package proc

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sh is a plain, non-login shell: tests must not depend on profile files.
var sh = []string{"/bin/sh", "-c"}

// settle bounds how long a test waits for something that should happen
// promptly (a process dying, Run returning). It only matters when a test is
// about to fail.
const settle = 5 * time.Second

func run(ctx context.Context, c Command) Result {
	if c.Shell == nil {
		c.Shell = sh
	}
	return Run(ctx, c)
}

// withEnv is the test process environment plus kv.
func withEnv(kv ...string) []string { return append(os.Environ(), kv...) }

// fifoClosed creates a FIFO and returns its path and a channel closed once
// someone has opened it for writing and every writer has closed it again.
//
// Tests use it to observe events in a script without polling:
//   - `echo ready > "$READY"` signals that the script got that far;
//   - `sleep 1000 3>"$FIFO" &` makes the kernel signal the sleep's death,
//     since a dying process's descriptors are closed (even while it is a
//     zombie that nobody reaps).
func fifoClosed(t *testing.T, name string) (string, <-chan struct{}) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		f, err := os.OpenFile(path, os.O_RDONLY, 0) // blocks until a writer opens it
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = io.Copy(io.Discard, f)
	}()
	t.Cleanup(func() {
		// Release the reader if no writer ever came (a failing test).
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
	})
	return path, closed
}

// bgChild tracks one background process of a script, started with the
// fragment from start. If the test leaves it alive, cleanup kills it.
type bgChild struct {
	fifo, up, pidfile string
	gone              <-chan struct{}
}

func newBgChild(t *testing.T) *bgChild {
	t.Helper()
	fifo, gone := fifoClosed(t, "child.fifo")
	dir := t.TempDir()
	b := &bgChild{fifo: fifo, up: filepath.Join(dir, "up.fifo"), pidfile: filepath.Join(dir, "child.pid"), gone: gone}
	if err := syscall.Mkfifo(b.up, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-b.gone:
			return
		default:
		}
		if pid, err := b.readPid(); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return b
}

func (b *bgChild) env() []string {
	return []string{"FIFO=" + b.fifo, "UP=" + b.up, "PIDFILE=" + b.pidfile}
}

// start is a script fragment that starts `sleep 1000` in the background with
// the given redirections, holding $FIFO on descriptor 3, and goes on only once
// the child holds it: otherwise a kill could beat the child's open of $FIFO
// and its death would never be seen.
func (b *bgChild) start(redirs string) string {
	return `(exec 3>"$FIFO"; echo up > "$UP"; exec sleep 1000) ` + redirs +
		` & echo $! > "$PIDFILE"; read up < "$UP"`
}

func (b *bgChild) readPid() (int, error) {
	data, err := os.ReadFile(b.pidfile)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(data)))
}

func (b *bgChild) mustDie(t *testing.T, why string) {
	t.Helper()
	select {
	case <-b.gone:
	case <-time.After(settle):
		t.Fatalf("background child still alive %v after %s", settle, why)
	}
}

// cancelWhen cancels the returned context once ready is closed; the watcher
// ends with the test.
func cancelWhen(t *testing.T, ready <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		select {
		case <-ready:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx
}

func TestExitCodesAndOutputCaptured(t *testing.T) {
	for _, code := range []int{0, 2, 7} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			res := run(context.Background(), Command{
				Script: `echo out; echo err >&2; exit ` + strconv.Itoa(code),
			})
			if res.Err != nil {
				t.Fatalf("Err = %v", res.Err)
			}
			if !res.Exited || res.ExitCode != code {
				t.Fatalf("Exited=%v ExitCode=%d, want exit %d", res.Exited, res.ExitCode, code)
			}
			if string(res.Stdout) != "out\n" || string(res.Stderr) != "err\n" {
				t.Fatalf("stdout %q stderr %q", res.Stdout, res.Stderr)
			}
			if res.TimedOut || res.Cancelled || res.StdoutDropped != 0 || res.StderrDropped != 0 {
				t.Fatalf("unexpected flags: %+v", res)
			}
		})
	}
}

func TestKilledBySignalIsNotExited(t *testing.T) {
	res := run(context.Background(), Command{Script: `kill -9 $$`})
	if res.Err != nil || res.Exited || res.ExitCode != -1 {
		t.Fatalf("Err=%v Exited=%v ExitCode=%d, want a signal death without error", res.Err, res.Exited, res.ExitCode)
	}
}

func TestDirAndEnvApplied(t *testing.T) {
	dir := t.TempDir()
	want, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := run(context.Background(), Command{
		Script: `pwd -P; echo "$HOOKD_PROC_TEST"`,
		Dir:    dir,
		Env:    []string{"HOOKD_PROC_TEST=42", "PATH=" + os.Getenv("PATH")},
	})
	if got := string(res.Stdout); got != want+"\n42\n" || res.Err != nil {
		t.Fatalf("stdout %q Err %v, want %q", got, res.Err, want+"\n42\n")
	}
}

func TestStdinDelivered(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 1<<20)
	for _, tc := range []struct {
		name, script string
		stdin        []byte
		want         string
	}{
		{"json line", `cat`, []byte(`{"hook_event_name":"Stop"}` + "\n"), `{"hook_event_name":"Stop"}` + "\n"},
		{"1 MiB read in full", `wc -c | tr -d ' '`, big, "1048576\n"},
		{"empty stdin reads EOF", `cat; echo end`, nil, "end\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(context.Background(), Command{Script: tc.script, Stdin: tc.stdin})
			if res.Err != nil || res.ExitCode != 0 || string(res.Stdout) != tc.want {
				t.Fatalf("Err=%v code=%d stdout=%.80q, want %q", res.Err, res.ExitCode, res.Stdout, tc.want)
			}
		})
	}
}

func TestUnreadStdinKeepsStdout(t *testing.T) {
	payload := bytes.Repeat([]byte("y"), 1<<20)
	for _, tc := range []struct {
		script string
		code   int
	}{
		{`echo ok`, 0},
		{`echo ok; exit 2`, 2},
	} {
		t.Run(tc.script, func(t *testing.T) {
			res := run(context.Background(), Command{Script: tc.script, Stdin: payload})
			if res.Err != nil {
				t.Fatalf("Err = %v, want nil for a hook that ignores stdin", res.Err)
			}
			if string(res.Stdout) != "ok\n" || res.ExitCode != tc.code {
				t.Fatalf("stdout %q code %d", res.Stdout, res.ExitCode)
			}
		})
	}
}

// A detached child that keeps stdin open without reading must not keep Run
// (or its stdin writer) waiting once the shell has exited.
func TestStdinHeldByDetachedChildDoesNotBlock(t *testing.T) {
	child := newBgChild(t)
	res := run(context.Background(), Command{
		Script: `exec 4<&0; ` + child.start(`<&4 4<&- >/dev/null 2>&1`) + `; echo ok`,
		Env:    withEnv(child.env()...),
		Stdin:  bytes.Repeat([]byte("z"), 1<<20),
	})
	if res.Err != nil || string(res.Stdout) != "ok\n" || res.ExitCode != 0 {
		t.Fatalf("Err=%v stdout=%q code=%d", res.Err, res.Stdout, res.ExitCode)
	}
	if res.Duration > settle {
		t.Fatalf("Run took %v", res.Duration)
	}
}

func TestTimeoutKillsGrandchild(t *testing.T) {
	child := newBgChild(t)
	res := run(context.Background(), Command{
		Script:  child.start("") + `; wait`,
		Env:     withEnv(child.env()...),
		Timeout: time.Second,
	})
	if !res.TimedOut || res.Cancelled || res.Exited || res.Err != nil {
		t.Fatalf("want a clean timeout, got %+v", res)
	}
	child.mustDie(t, "the timeout")
	pid, err := child.readPid()
	if err != nil {
		t.Fatal(err)
	}
	// The FIFO closing is the proof; this only checks the pid was real.
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("kill(%d, 0): %v", pid, err)
	}
}

func TestKillGraceSendsTermBeforeKill(t *testing.T) {
	child := newBgChild(t)
	readyPath, ready := fifoClosed(t, "ready.fifo")
	marker := filepath.Join(t.TempDir(), "term")
	const grace = time.Minute
	res := run(cancelWhen(t, ready), Command{
		Script: `trap 'echo term > "$MARK"; exit 7' TERM
` + child.start("") + `
echo ready > "$READY"
wait`,
		Env:       withEnv(append(child.env(), "READY="+readyPath, "MARK="+marker)...),
		KillGrace: grace,
	})
	if !res.Cancelled || res.TimedOut || res.Err != nil {
		t.Fatalf("want a clean cancellation, got %+v", res)
	}
	// Exiting through the trap with its own code, well within the grace,
	// shows SIGTERM came first and SIGKILL was never needed.
	if !res.Exited || res.ExitCode != 7 {
		t.Fatalf("Exited=%v ExitCode=%d, want the trap's exit 7", res.Exited, res.ExitCode)
	}
	if data, err := os.ReadFile(marker); err != nil || string(data) != "term\n" {
		t.Fatalf("marker %q, %v", data, err)
	}
	if res.Duration >= grace/2 {
		t.Fatalf("Run took %v: waited out the grace", res.Duration)
	}
	child.mustDie(t, "SIGTERM to the group")
}

func TestKillGraceIgnoredTermStillDies(t *testing.T) {
	child := newBgChild(t)
	readyPath, ready := fifoClosed(t, "ready.fifo")
	const grace = 300 * time.Millisecond
	res := run(cancelWhen(t, ready), Command{
		// The ignored TERM is inherited by the sleep as well.
		Script:    `trap '' TERM; ` + child.start("") + `; echo ready > "$READY"; wait`,
		Env:       withEnv(append(child.env(), "READY="+readyPath)...),
		KillGrace: grace,
	})
	if !res.Cancelled || res.Err != nil {
		t.Fatalf("want a clean cancellation, got %+v", res)
	}
	if res.Exited {
		t.Fatalf("shell exited with %d; it ignores TERM and should have been SIGKILLed", res.ExitCode)
	}
	if res.Duration < grace {
		t.Fatalf("Run took %v, less than the %v grace", res.Duration, grace)
	}
	child.mustDie(t, "SIGKILL after the grace")
}

func TestCancelKillsGroup(t *testing.T) {
	child := newBgChild(t)
	readyPath, ready := fifoClosed(t, "ready.fifo")
	res := run(cancelWhen(t, ready), Command{
		Script: child.start("") + `; echo ready > "$READY"; wait`,
		Env:    withEnv(append(child.env(), "READY="+readyPath)...),
	})
	if !res.Cancelled || res.TimedOut || res.Exited || res.Err != nil {
		t.Fatalf("want a clean cancellation, got %+v", res)
	}
	child.mustDie(t, "cancellation")
}

func TestCancelledBeforeStartDoesNotRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	marker := filepath.Join(t.TempDir(), "ran")
	res := run(ctx, Command{Script: `touch ` + marker})
	if !res.Cancelled || res.Exited || res.Err == nil {
		t.Fatalf("want not started, Cancelled, Err set; got %+v", res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the hook ran")
	}
}

// The shell exits while a background child still holds stdout: Run returns
// after IOGrace with what was printed, the shell's code and no error, and the
// child is killed.
func TestDaemonizingHookReturnsAndChildIsKilled(t *testing.T) {
	for _, code := range []int{0, 3} {
		t.Run("exit "+strconv.Itoa(code), func(t *testing.T) {
			child := newBgChild(t)
			res := run(context.Background(), Command{
				Script: child.start("") + `; echo done; exit ` + strconv.Itoa(code),
				Env:    withEnv(child.env()...),
			})
			if res.Err != nil || !res.Exited || res.ExitCode != code || string(res.Stdout) != "done\n" {
				t.Fatalf("Err=%v Exited=%v code=%d stdout=%q", res.Err, res.Exited, res.ExitCode, res.Stdout)
			}
			if res.TimedOut || res.Cancelled {
				t.Fatalf("flags: %+v", res)
			}
			if res.Duration < DefaultIOGrace || res.Duration > settle {
				t.Fatalf("Run took %v, want about IOGrace (%v)", res.Duration, DefaultIOGrace)
			}
			child.mustDie(t, "IOGrace expired")
		})
	}
}

// A helper that redirects its output lets go of the pipes, so a normal exit
// leaves it alone (as Codex does).
func TestDetachedHelperSurvives(t *testing.T) {
	for _, code := range []int{0, 5} {
		t.Run("exit "+strconv.Itoa(code), func(t *testing.T) {
			child := newBgChild(t)
			res := run(context.Background(), Command{
				Script: child.start(`>/dev/null 2>&1`) + `; echo done; exit ` + strconv.Itoa(code),
				Env:    withEnv(child.env()...),
			})
			if res.Err != nil || res.ExitCode != code || string(res.Stdout) != "done\n" {
				t.Fatalf("Err=%v code=%d stdout=%q", res.Err, res.ExitCode, res.Stdout)
			}
			if res.Duration >= DefaultIOGrace {
				t.Fatalf("Run took %v: it waited for a helper that does not hold the pipes", res.Duration)
			}
			// A negative can only be checked over a window; a kill from Run
			// would have been sent before it returned.
			select {
			case <-child.gone:
				t.Fatal("detached helper was killed")
			case <-time.After(200 * time.Millisecond):
			}
			pid, err := child.readPid()
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(pid, 0); err != nil {
				t.Fatalf("helper %d: %v", pid, err)
			}
		})
	}
}

func TestBoundedOutput(t *testing.T) {
	const total = 200_000_000
	const maxOut = 1 << 20
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := run(context.Background(), Command{
		Script:    `head -c 200000000 /dev/zero; echo small >&2`,
		MaxOutput: maxOut,
	})
	runtime.ReadMemStats(&after)
	if res.Err != nil || res.ExitCode != 0 {
		t.Fatalf("Err=%v code=%d", res.Err, res.ExitCode)
	}
	if len(res.Stdout) != maxOut || res.StdoutDropped != total-maxOut {
		t.Fatalf("kept %d dropped %d, want %d and %d", len(res.Stdout), res.StdoutDropped, maxOut, total-maxOut)
	}
	if cap(res.Stdout) > maxOut {
		t.Fatalf("kept buffer has capacity %d > MaxOutput", cap(res.Stdout))
	}
	if bytes.ContainsFunc(res.Stdout, func(r rune) bool { return r != 0 }) {
		t.Fatal("stdout is not the head of /dev/zero")
	}
	if string(res.Stderr) != "small\n" || res.StderrDropped != 0 {
		t.Fatalf("stderr %q dropped %d", res.Stderr, res.StderrDropped)
	}
	const budget = 16 << 20
	if d := after.TotalAlloc - before.TotalAlloc; d > budget {
		t.Fatalf("allocated %d bytes for 200 MB of output", d)
	}
	if after.HeapInuse > before.HeapInuse && after.HeapInuse-before.HeapInuse > budget {
		t.Fatalf("heap in use grew by %d bytes", after.HeapInuse-before.HeapInuse)
	}
}

func TestOverflowReceivesDroppedBytes(t *testing.T) {
	data := make([]byte, 1<<20+123)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	const maxOut = 4096
	// No locking here on purpose: Run promises serialised calls, and the
	// race detector checks that promise.
	spilled := map[string]*bytes.Buffer{"stdout": {}, "stderr": {}}
	res := run(context.Background(), Command{
		Script:    `cat "$F" & cat "$F" >&2; wait`,
		Env:       withEnv("F=" + file),
		MaxOutput: maxOut,
		Overflow:  func(stream string, p []byte) { spilled[stream].Write(p) },
	})
	if res.Err != nil || res.ExitCode != 0 {
		t.Fatalf("Err=%v code=%d", res.Err, res.ExitCode)
	}
	for _, s := range []struct {
		name    string
		kept    []byte
		dropped int64
	}{
		{"stdout", res.Stdout, res.StdoutDropped},
		{"stderr", res.Stderr, res.StderrDropped},
	} {
		if len(s.kept) != maxOut || s.dropped != int64(len(data)-maxOut) {
			t.Errorf("%s: kept %d dropped %d", s.name, len(s.kept), s.dropped)
		}
		if got := append(slices.Clone(s.kept), spilled[s.name].Bytes()...); !bytes.Equal(got, data) {
			t.Errorf("%s: kept + overflow (%d bytes) differs from the output (%d bytes)", s.name, len(got), len(data))
		}
	}
}

func TestOverflowPanicIsAnErrorNotACrash(t *testing.T) {
	res := run(context.Background(), Command{
		Script:    `head -c 100000 /dev/zero`,
		MaxOutput: 10,
		Overflow:  func(string, []byte) { panic("spill failed") },
	})
	if res.Err == nil || !strings.Contains(res.Err.Error(), "spill failed") {
		t.Fatalf("Err = %v, want the panic reported", res.Err)
	}
	if !res.Exited || res.ExitCode != 0 || len(res.Stdout) != 10 || res.StdoutDropped != 100000-10 {
		t.Fatalf("output not drained and counted: %+v", res)
	}
}

func TestSpawnErrorIsReported(t *testing.T) {
	for _, shell := range [][]string{
		{"/nonexistent/hookd-shell", "-c"},
		{"hookd-no-such-shell-on-path", "-c"},
		{t.TempDir(), "-c"}, // a directory
	} {
		t.Run(shell[0], func(t *testing.T) {
			res := Run(context.Background(), Command{Shell: shell, Script: "true", Stdin: []byte("x")})
			if res.Err == nil || res.Exited || res.ExitCode != -1 || res.TimedOut || res.Cancelled {
				t.Fatalf("want a spawn error, got %+v", res)
			}
		})
	}
}

func TestDefaultShell(t *testing.T) {
	for _, tc := range []struct {
		name  string
		shell *string // nil: unset
		want  []string
	}{
		{"SHELL set", ptr("/usr/bin/zsh"), []string{"/usr/bin/zsh", "-lc"}},
		{"SHELL empty", ptr(""), []string{"/bin/sh", "-lc"}},
		{"SHELL unset", nil, []string{"/bin/sh", "-lc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SHELL", "") // restores the real value afterwards
			if tc.shell == nil {
				os.Unsetenv("SHELL")
			} else {
				os.Setenv("SHELL", *tc.shell)
			}
			if got := DefaultShell(); !slices.Equal(got, tc.want) {
				t.Fatalf("DefaultShell() = %q, want %q", got, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestEmptyShellUsesDefaultShell(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	res := Run(context.Background(), Command{Script: `echo "$0"`})
	if res.Err != nil || strings.TrimSpace(string(res.Stdout)) != "/bin/sh" {
		t.Fatalf("Err=%v stdout=%q", res.Err, res.Stdout)
	}
}

// Run joins everything it starts. Goroutines that have just signalled their
// completion may still be on their way out, so the count is given a moment;
// it only ever needs to fall.
func TestRunLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx := context.Background()
	for _, c := range []Command{
		{Script: `echo hi`},
		{Script: `echo hi`, Stdin: bytes.Repeat([]byte("s"), 1<<20)},
		{Script: `sleep 60 & echo lingering`},
		{Script: `sleep 60`, Timeout: 50 * time.Millisecond},
		{Script: `trap '' TERM; sleep 60`, Timeout: 50 * time.Millisecond, KillGrace: 50 * time.Millisecond},
		{Script: `head -c 100000 /dev/zero`, MaxOutput: 10, Overflow: func(string, []byte) {}},
		{Shell: []string{"/nonexistent"}, Script: `true`},
	} {
		if res := run(ctx, c); res.Err != nil && c.Shell == nil {
			t.Fatalf("%q: %v", c.Script, res.Err)
		}
	}
	deadline := time.Now().Add(settle)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if after := runtime.NumGoroutine(); after > before {
		var buf strings.Builder
		_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
		t.Fatalf("%d goroutines before, %d after:\n%s", before, after, buf.String())
	}
}

// BenchmarkRunTrue measures Run's overhead on the cheapest hook; compare
// with BenchmarkExecCommandTrue.
func BenchmarkRunTrue(b *testing.B) {
	for b.Loop() {
		if res := Run(context.Background(), Command{Shell: sh, Script: "true"}); res.Err != nil || res.ExitCode != 0 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkExecCommandTrue is the baseline: the same shell and script through
// exec.Command, with stdout and stderr captured into buffers.
func BenchmarkExecCommandTrue(b *testing.B) {
	for b.Loop() {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(sh[0], sh[1], "true")
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestEnvShell_IsTheCommandsSHELLReadAtStart(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this machine")
	}
	// bash -c is not a login shell; "$0" names the shell that ran the script.
	script := `echo "$0"; if shopt -q login_shell; then echo login; else echo nonlogin; fi`
	res := run(context.Background(), Command{Shell: []string{EnvShell, "-c"}, Script: script,
		Env: []string{"SHELL=" + bash, "PATH=" + os.Getenv("PATH")}})
	if got := string(res.Stdout); got != bash+"\nnonlogin\n" || res.Err != nil {
		t.Fatalf("stdout %q Err %v", got, res.Err)
	}
	// No SHELL in the environment: /bin/sh.
	res = run(context.Background(), Command{Shell: []string{EnvShell, "-c"}, Script: `echo "$0"`, Env: []string{"PATH=" + os.Getenv("PATH")}})
	if got := string(res.Stdout); got != "/bin/sh\n" {
		t.Fatalf("without SHELL: stdout %q Err %v", got, res.Err)
	}
}
