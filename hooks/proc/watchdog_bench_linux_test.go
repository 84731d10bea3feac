package proc

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkGuard_RegisterUnregister is what guarding one hook costs hookd
// and the watchdog: the registration after the hook starts and the
// unregistration when it is done, for a real process group. It reports
// hookd's CPU per hook, the watchdog's, and how often the watchdog was
// woken (its voluntary context switches). Back to back, a watchdog that
// reads registrations takes several in one read; "spaced" leaves 100 us
// between them, as hooks that take time to run do, so that each one finds
// it asleep.
func BenchmarkGuard_RegisterUnregister(b *testing.B) {
	b.Run("back-to-back", func(b *testing.B) { benchGuard(b, 0) })
	b.Run("spaced", func(b *testing.B) { benchGuard(b, 100*time.Microsecond) })
}

func benchGuard(b *testing.B, gap time.Duration) {
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	}()
	prepareGuard()
	watchdog.mu.Lock()
	wd := watchdog.cur
	watchdog.mu.Unlock()
	if wd == nil {
		b.Fatal("no watchdog")
	}
	wdPid := wd.cmd.Process.Pid
	// One round first, so that what is paid once is not counted.
	guard(cmd)()
	cpu0, wdCPU0, wake0 := selfCPU(b), schedNS(b, wdPid), wakeups(b, wdPid)
	for b.Loop() {
		unguard := guard(cmd)
		if gap > 0 {
			time.Sleep(gap)
		}
		unguard()
		if gap > 0 {
			time.Sleep(gap)
		}
	}
	// The watchdog takes a registration after hookd wrote it: give it the
	// moment to read what is in its pipe before its counters are read.
	guard(cmd)()
	n := float64(b.N)
	if gap == 0 {
		// Spaced, hookd's CPU is mostly its timers.
		b.ReportMetric(float64(selfCPU(b)-cpu0)/n, "hookd-cpu-ns/op")
	}
	b.ReportMetric(float64(schedNS(b, wdPid)-wdCPU0)/n, "watchdog-cpu-ns/op")
	b.ReportMetric(float64(wakeups(b, wdPid)-wake0)/n, "watchdog-wakeups/op")
}

// selfCPU is this process's user and system time so far, in ns.
func selfCPU(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// schedNS is the time pid spent on a CPU, in ns (/proc/<pid>/schedstat).
func schedNS(b *testing.B, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/schedstat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := bytes.Fields(raw)
	if len(f) == 0 {
		b.Fatalf("schedstat: %q", raw)
	}
	ns, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}

// wakeups is pid's count of voluntary context switches: each time it slept
// and was woken.
func wakeups(b *testing.B, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range bytes.Lines(raw) {
		if v, ok := bytes.CutPrefix(line, []byte("voluntary_ctxt_switches:")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatalf("no voluntary_ctxt_switches in /proc/%d/status", pid)
	return 0
}
