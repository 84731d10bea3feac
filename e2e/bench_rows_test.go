package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// The rows of docs/performance.md that bench_test.go and
// bench_startup_test.go do not cover. scripts/bench-ratios runs them all,
// interleaved, and prints each hookd figure over its baseline.

// benchBin is the hookd binary the benchmarks spawn: $HOOKD_BIN when set
// (scripts/bench-ratios builds it), else the one TestMain built and put on
// PATH.
func benchBin(b *testing.B) string {
	if bin := os.Getenv("HOOKD_BIN"); bin != "" {
		return bin
	}
	return hookdPath(b)
}

// benchHome pins the shell to /bin/sh and HOME to a folder whose .profile
// is profile, so a login shell costs the same on both sides of a ratio
// whatever the machine's own profile does.
func benchHome(b *testing.B, profile string) string {
	b.Helper()
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("ENV", "")
	b.Setenv("TMPDIR", b.TempDir())
	home := b.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte(profile), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Setenv("HOME", home)
	return home
}

// benchServe starts hookd serve (args after serve) with hooksDoc as the
// profile's user hooks file and initializes it; extra joins config.
func benchServe(b *testing.B, args []string, hooksDoc string, extra map[string]any) *client.Client {
	b.Helper()
	home := b.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(hooksDoc), 0o600); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	c, err := client.Start(ctx, benchBin(b), nil, append([]string{"serve", "--log-level", "error"}, args...)...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Kill)
	cfg := map[string]any{"home": home, "bypassTrust": true}
	for k, v := range extra {
		cfg[k] = v
	}
	if _, err := c.Initialize(ctx, map[string]any{"session": map[string]any{"id": "s1", "cwd": b.TempDir()}, "config": cfg}); err != nil {
		b.Fatal(err)
	}
	return c
}

const trueStop = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`

// benchRuns times hooks/run of event, after one untimed run (which waits for
// the login environment when the cache is on).
func benchRuns(b *testing.B, c *client.Client, event string) {
	b.Helper()
	ctx := context.Background()
	if _, err := c.Run(ctx, event, map[string]any{}); err != nil {
		b.Fatal(err)
	}
	cpu0 := procCPU(c.Pid())
	for b.Loop() {
		res, err := c.Run(ctx, event, map[string]any{})
		if err != nil {
			b.Fatal(err)
		}
		if st := gjson.GetBytes(res, "hooks.0.status").Str; st != "succeeded" {
			b.Fatalf("hook %s: %s", st, res)
		}
	}
	reportHookdCPU(b, c.Pid(), cpu0)
}

// reportHookdCPU reports the CPU time hookd itself used per operation since
// cpu0 (its own utime and stime: the hooks it waited for are not in them).
// reportClientCPU reports this process's CPU per operation since cpu0 (its
// procCPU), as client-cpu-us/op: the host's side of a round trip.
func reportClientCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := procCPU(os.Getpid()); cpu0 >= 0 && cpu >= 0 {
		b.ReportMetric(float64((cpu-cpu0).Microseconds())/float64(b.N), "client-cpu-us/op")
	}
}

func reportHookdCPU(b *testing.B, pid int, cpu0 time.Duration) {
	if cpu0 < 0 {
		return
	}
	if cpu := procCPU(pid); cpu >= 0 {
		b.ReportMetric(float64((cpu-cpu0).Microseconds())/float64(b.N), "hookd-cpu-us/op")
	}
}

// procCPU is the CPU time a process's threads have used, from each
// thread's schedstat (nanoseconds; Linux), or -1 when it cannot be read.
func procCPU(pid int) time.Duration {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return -1
	}
	var sum time.Duration
	for _, t := range tasks {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue // the thread just exited
		}
		f := strings.Fields(string(stat))
		if len(f) == 0 {
			return -1
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return -1
		}
		sum += time.Duration(ns)
	}
	return sum
}

// BenchmarkHooksRun_TrivialCommandLoginShell: the mind profile, whose
// hooks run in a login shell ($SHELL -lc). Baseline:
// BenchmarkExecCommand_TrivialCommandLoginShell.
func BenchmarkHooksRun_TrivialCommandLoginShell(b *testing.B) {
	benchHome(b, "")
	benchRuns(b, benchServe(b, []string{"--profile", "mind"}, trueStop, nil), "Stop")
}

// BenchmarkExecCommand_TrivialCommandLoginShell execs $SHELL -lc true with
// the Stop payload on stdin.
func BenchmarkExecCommand_TrivialCommandLoginShell(b *testing.B) {
	benchHome(b, "")
	benchExec(b, "-lc")
}

// benchStopPayload is the Stop payload the exec baselines give the shell on
// stdin (the bare sidecar too), as hookd builds it for codex.
const benchStopPayload = `{"session_id":"s1","turn_id":null,"transcript_path":null,"cwd":"/tmp","hook_event_name":"Stop","model":"gpt-5","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`

// benchExec execs /bin/sh FLAG true with that payload, the host's own way.
func benchExec(b *testing.B, flag string) {
	input := []byte(benchStopPayload)
	// The CPU this process spends per exec, beside hookd's per hook.
	cpu0 := procCPU(os.Getpid())
	for b.Loop() {
		cmd := exec.Command("/bin/sh", flag, "true")
		cmd.Stdin = bytes.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	if cpu := procCPU(os.Getpid()); cpu0 >= 0 && cpu >= 0 {
		b.ReportMetric(float64((cpu-cpu0).Microseconds())/float64(b.N), "host-cpu-us/op")
	}
}

// BenchmarkLoginEnv_MindSleepyProfileCached: the mind profile (hooks in
// $SHELL -lc) with a login profile that sleeps 0.2 s and exports a
// variable, and the login environment cache on; the hook checks it sees
// the variable. Baseline: BenchmarkLoginEnv_MindEmptyProfile.
func BenchmarkLoginEnv_MindSleepyProfileCached(b *testing.B) {
	benchHome(b, "sleep 0.2\nexport HOOKD_BENCH=1\n")
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "test \"$HOOKD_BENCH\" = 1"}]}]}}`
	benchRuns(b, benchServe(b, []string{"--profile", "mind"}, doc, map[string]any{"loginEnvCache": true}), "Stop")
}

// BenchmarkLoginEnv_MindEmptyProfile is the same hook in the login shell,
// with an empty login profile and no cache.
func BenchmarkLoginEnv_MindEmptyProfile(b *testing.B) {
	benchHome(b, "export HOOKD_BENCH=1\n")
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "test \"$HOOKD_BENCH\" = 1"}]}]}}`
	benchRuns(b, benchServe(b, []string{"--profile", "mind"}, doc, nil), "Stop")
}

// BenchmarkHooksRun_64Parallel is one Stop with 64 hooks "sleep 0.2" (codex
// runs them at once). Baseline: BenchmarkExec_64Parallel.
func BenchmarkHooksRun_64Parallel(b *testing.B) {
	benchHome(b, "")
	var hs []string
	for range 64 {
		hs = append(hs, `{"type": "command", "command": "sleep 0.2"}`)
	}
	doc := `{"hooks": {"Stop": [{"hooks": [` + strings.Join(hs, ",") + `]}]}}`
	c := benchServe(b, nil, doc, nil)
	ctx := context.Background()
	for b.Loop() {
		res, err := c.Run(ctx, "Stop", map[string]any{})
		if err != nil {
			b.Fatal(err)
		}
		if n := gjson.GetBytes(res, `hooks.#(status=="succeeded")#`).Array(); len(n) != 64 {
			b.Fatalf("%d of 64 hooks succeeded: %s", len(n), res)
		}
	}
}

// BenchmarkExec_64Parallel execs 64 $SHELL -c "sleep 0.2" at once (as
// codex runs them) and waits for all.
func BenchmarkExec_64Parallel(b *testing.B) {
	benchHome(b, "")
	for b.Loop() {
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command("/bin/sh", "-c", "sleep 0.2")
				cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				errs <- cmd.Run()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkHooksRun_200MBOutput runs one hook that prints 200 MB, each time
// in a fresh hookd, and reports hookd's peak resident memory (VmHWM) and
// that the spill file holds every byte.
func BenchmarkHooksRun_200MBOutput(b *testing.B) {
	benchHome(b, "")
	const size = 200_000_000
	doc := fmt.Sprintf(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "head -c %d /dev/zero | tr '\\\\0' x"}]}]}}`, size)
	ctx := context.Background()
	var peak, idle int64
	for b.Loop() {
		b.StopTimer()
		c := benchServe(b, nil, doc, nil)
		idle = max(idle, peakRSS(b, c.Pid()))
		b.StartTimer()
		res, err := c.Run(ctx, "Stop", map[string]any{})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		peak = max(peak, peakRSS(b, c.Pid()))
		spilled := gjson.GetBytes(res, "hooks.0.stdoutSpilled").Str
		fi, err := os.Stat(spilled)
		if err != nil || fi.Size() != size {
			b.Fatalf("spill file %q: %v (size %d, want %d): %s", spilled, err, sizeOf(fi), size, res)
		}
		os.Remove(spilled)
		c.Kill()
		b.StartTimer()
	}
	b.ReportMetric(float64(peak)/1e6, "peak-RSS-MB")
	b.ReportMetric(float64(idle)/1e6, "idle-RSS-MB")
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return -1
	}
	return fi.Size()
}

// peakRSS reads a process's peak resident set size (VmHWM), in bytes (Linux).
func peakRSS(b *testing.B, pid int) int64 {
	b.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				b.Fatalf("VmHWM %q: %v", v, err)
			}
			return kb * 1024
		}
	}
	b.Fatal("no VmHWM in /proc/pid/status")
	return 0
}

// BenchmarkHooksRun_NoMatchRoundTrip is one hooks/run at a time for an
// event no hook matches: the transport's share of every row above (the
// host's write, hookd's read, dispatch and reply, the host's read).
func BenchmarkHooksRun_NoMatchRoundTrip(b *testing.B) {
	benchHome(b, "")
	c := benchServe(b, nil, trueStop, nil)
	ctx := context.Background()
	input := map[string]any{"tool_name": "Read", "tool_input": map[string]any{"path": "x"}}
	cpu0, own0 := procCPU(c.Pid()), procCPU(os.Getpid())
	for b.Loop() {
		res, err := c.Run(ctx, "PreToolUse", input)
		if err != nil {
			b.Fatal(err)
		}
		if gjson.GetBytes(res, "decision").Str != "none" {
			b.Fatalf("no-match run: %s", res)
		}
	}
	reportHookdCPU(b, c.Pid(), cpu0)
	reportClientCPU(b, own0)
}
