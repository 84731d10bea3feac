//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

// On this kind of machine (a small VM on a shared host) the speed of an exec
// drifts by tens of percent from one second to the next, so two benchmarks
// run one after the other compare two different machines. The benchmark
// below takes its ratios op by op instead: each iteration runs one Go exec
// in this process, one hook through hookd and one request to each of two
// bare sidecars, in an order that rotates, so every figure shares the same
// seconds of the machine.

// rawSidecarEnv makes this test binary the lowest floor of a hook runner in
// a process of its own: the request read, one exec by syscall.ForkExec with
// blocking reads of its output and wait4, then the reply. What a runner in
// Go pays, at least, beyond the host's own exec.
const rawSidecarEnv = "HOOKD_E2E_RAW_SIDECAR_SERVER"

func init() {
	if os.Getenv(rawSidecarEnv) != "" {
		os.Exit(runRawSidecar())
	}
}

func runRawSidecar() int {
	in := bufio.NewReader(os.Stdin)
	env := os.Environ()
	argv := []string{"/bin/sh", "-c", "true"}
	if sh := os.Getenv("SHELL"); sh != "" {
		argv[0] = sh
	}
	for {
		if _, err := readLSPFrame(in); err != nil {
			return 0 // stdin closed (or a frame this floor cannot read)
		}
		code, err := rawExec(argv, env, []byte(benchStopPayload))
		status := "succeeded"
		if err != nil || code != 0 {
			status = "failed"
		}
		body := fmt.Sprintf(`{"id":1,"jsonrpc":"2.0","result":{"status":%q,"exitCode":%d}}`, status, code)
		if _, err := io.WriteString(os.Stdout, lspFrame(body)); err != nil {
			return 1
		}
	}
}

// rawPipe is a pipe whose ends close on exec, as os/exec makes them.
func rawPipe() (r, w int, err error) {
	var p [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p[:]); err != nil {
		return -1, -1, err
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return p[0], p[1], nil
}

// rawExec runs argv with stdin as its input and returns its exit code, its
// output read and dropped. The output must fit the pipes (true prints
// nothing): stdout is read to the end before stderr.
func rawExec(argv, env []string, stdin []byte) (int, error) {
	var fds [6]int
	for i := 0; i < 6; i += 2 {
		r, w, err := rawPipe()
		if err != nil {
			return -1, err
		}
		fds[i], fds[i+1] = r, w
	}
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: env, Files: []uintptr{uintptr(fds[0]), uintptr(fds[3]), uintptr(fds[5])}})
	for _, fd := range []int{fds[0], fds[3], fds[5]} {
		syscall.Close(fd)
	}
	if err != nil {
		for _, fd := range []int{fds[1], fds[2], fds[4]} {
			syscall.Close(fd)
		}
		return -1, err
	}
	_, _ = syscall.Write(fds[1], stdin) // EPIPE if it exits first: ignored by Go
	syscall.Close(fds[1])
	var buf [4096]byte
	for _, fd := range []int{fds[2], fds[4]} {
		for {
			n, err := syscall.Read(fd, buf[:])
			if n <= 0 && err != syscall.EINTR {
				break
			}
		}
		syscall.Close(fd)
	}
	var ws syscall.WaitStatus
	for {
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return -1, err
	}
	return ws.ExitStatus(), nil
}

// BenchmarkInterleaved_TrivialCommand is one true hook (codex, the host's
// side bare bytes) against a Go exec of $SHELL -c true in this process,
// taken op by op, beside the two sidecar floors: the os/exec one
// (BenchmarkSidecar_TrivialCommand) and the raw one above. It reports each
// side's median and mean in µs and every ratio of means over the exec:
// hookd/exec is the one-hook row of docs/performance.md measured this way.
func BenchmarkInterleaved_TrivialCommand(b *testing.B) {
	benchHome(b, "")
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	hookd := rawServe(b, trueStop)
	b.Setenv(sidecarEnv, "1")
	sidecar := startRawBin(b, exe, nil)
	b.Setenv(sidecarEnv, "")
	b.Setenv(rawSidecarEnv, "1")
	raw := startRawBin(b, exe, nil)
	b.Setenv(rawSidecarEnv, "")

	input := []byte(benchStopPayload)
	hostExec := func() {
		cmd := exec.Command("/bin/sh", "-c", "true")
		cmd.Stdin = bytes.NewReader(input)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	caller := func(r *rawHookd, body string) func() {
		msg := []byte(lspFrame(body))
		return func() {
			if _, err := r.stdin.Write(msg); err != nil {
				b.Fatal(err)
			}
			if got := r.readLSP(b); !bytes.Contains([]byte(got), []byte(`"status":"succeeded"`)) {
				b.Fatalf("reply %s", got)
			}
		}
	}
	req := `{"id":1,"jsonrpc":"2.0","method":"hooks/run","params":{"event":"Stop","input":{}}}`
	type side struct {
		name string
		op   func()
		took []time.Duration
	}
	sides := []side{
		{name: "exec", op: hostExec},
		{name: "hookd", op: caller(hookd, req)},
		{name: "sidecar", op: caller(sidecar, req)},
		{name: "rawsidecar", op: caller(raw, req)},
	}
	if before := os.Getenv(beforeBinEnv); before != "" {
		b.Setenv("HOOKD_BIN", before)
		sides = append(sides, side{name: "before", op: caller(rawServe(b, trueStop), req)})
	}
	for _, s := range sides {
		s.op() // the first of each is not timed
	}
	order := make([]int, len(sides))
	turn := 0
	for b.Loop() {
		// Rotate the order, and reverse it every other round, so that no
		// side always follows the same one.
		for i := range order {
			order[i] = (i + turn) % len(sides)
		}
		if turn/len(sides)%2 == 1 {
			slices.Reverse(order)
		}
		turn++
		for _, i := range order {
			start := time.Now()
			sides[i].op()
			sides[i].took = append(sides[i].took, time.Since(start))
		}
	}
	mean := make(map[string]float64)
	for _, s := range sides {
		var sum time.Duration
		for _, d := range s.took {
			sum += d
		}
		mean[s.name] = float64(sum.Microseconds()) / float64(len(s.took))
		slices.Sort(s.took)
		b.ReportMetric(float64(s.took[len(s.took)/2].Microseconds()), s.name+"-median-us")
		b.ReportMetric(mean[s.name], s.name+"-mean-us")
	}
	for _, s := range sides[1:] {
		b.ReportMetric(mean[s.name]/mean["exec"], s.name+"/exec")
	}
	b.ReportMetric(mean["hookd"]/mean["rawsidecar"], "hookd/rawsidecar")
	if _, ok := mean["before"]; ok {
		b.ReportMetric(mean["hookd"]/mean["before"], "hookd/before")
	}
}

// beforeBinEnv names a second hookd binary (another build, say the commit
// before a change) that BenchmarkInterleaved_TrivialCommand times as a
// fifth side, in the same rotation, reporting hookd/before: a before and
// after taken op by op.
const beforeBinEnv = "HOOKD_BIN_BEFORE"
