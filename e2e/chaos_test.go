//go:build chaos && linux

// The chaos suite drives a hookd binary through the ways a session can end
// badly and prints the figures of docs/failure-modes.md. It asserts nothing
// about speed; it fails only when it cannot take a figure. Run it against
// any build to compare:
//
//	go test -tags chaos -run Chaos -v ./e2e/                       # this tree
//	HOOKD_BIN=/tmp/hookd-main go test -tags chaos -run Chaos -v ./e2e/
//
// scripts/chaos.sh builds main and this tree and prints both.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// chaosBin is the hookd under test: HOOKD_BIN, or this tree as TestMain
// built it.
func chaosBin(t *testing.T) string {
	t.Helper()
	if b := os.Getenv("HOOKD_BIN"); b != "" {
		return b
	}
	return hookdPath(t)
}

// chaosHookd is one hookd process spoken to in NDJSON.
type chaosHookd struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	msgs  chan gjson.Result
	bytes chan int // size of each message read, in order
}

func startChaos(t *testing.T, bin string, args ...string) *chaosHookd {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--framing", "jsonl"}, args...)...)
	cmd.Env = append(os.Environ(), "SHELL=/bin/sh", "TMPDIR="+t.TempDir())
	cmd.Stderr = io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &chaosHookd{cmd: cmd, in: in, msgs: make(chan gjson.Result, 100000), bytes: make(chan int, 100000)}
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				h.bytes <- len(line)
				h.msgs <- gjson.ParseBytes(line)
			}
			if err != nil {
				close(h.msgs)
				return
			}
		}
	}()
	t.Cleanup(func() {
		// A build without the watchdog leaves its hooks behind when it is
		// killed: they are found by parentage first, and killed too.
		tree := descendants(cmd.Process.Pid)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		for _, pid := range tree {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		_ = cmd.Wait()
	})
	return h
}

// descendants lists the processes below pid, from /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+2:]))
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q, depth := parent[p], 0; q > 1 && depth < 64; q, depth = parent[q], depth+1 {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func (h *chaosHookd) send(t *testing.T, format string, args ...any) {
	t.Helper()
	if _, err := fmt.Fprintf(h.in, format+"\n", args...); err != nil {
		t.Fatalf("send: %v", err)
	}
}

func (h *chaosHookd) init(t *testing.T, hooksObj string, extra string) {
	t.Helper()
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{%s"session":{"id":"chaos-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":%s}}}`,
		extra, time.Now().UnixNano(), t.TempDir(), t.TempDir(), hooksObj)
	h.await(t, 1, func(m gjson.Result) bool { return m.Get("id").Str == "init" })
}

// await reads messages until n satisfy ok or output ends; it returns how
// many did.
func (h *chaosHookd) await(t *testing.T, n int, ok func(gjson.Result) bool) int {
	t.Helper()
	got, done := h.awaitFor(n, ok, 5*time.Minute)
	if !done {
		t.Fatalf("waited 5 minutes for %d messages, got %d", n, got)
	}
	return got
}

// awaitFor is await that gives up after d; done is false then.
func (h *chaosHookd) awaitFor(n int, ok func(gjson.Result) bool, d time.Duration) (got int, done bool) {
	timeout := time.After(d)
	for got < n {
		select {
		case m, open := <-h.msgs:
			if !open {
				return got, true
			}
			if ok(m) {
				got++
			}
		case <-timeout:
			return got, false
		}
	}
	return got, true
}

func isReply(m gjson.Result) bool { return m.Get("id").Exists() && !m.Get("method").Exists() }

func procStatus(t *testing.T, pid int, field string) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

func figure(name string, value any) { fmt.Printf("CHAOS %-52s %v\n", name, value) }

const blockingChaosHook = `{"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 100000", "timeout": 900, "statusMessage": "s"}]}]}`

func sendRuns(t *testing.T, h *chaosHookd, n int) {
	for i := 1; i <= n; i++ {
		h.send(t, `{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"}}}}`, i)
	}
	h.await(t, n, func(m gjson.Result) bool {
		return m.Get("method").Str == "hooks/status" && m.Get("params.state").Str == "started"
	})
}

func TestChaos_RepliesLostAtTheEnd(t *testing.T) {
	bin := chaosBin(t)
	const n = 10
	for _, end := range []string{"exit", "SIGTERM", "host death (reaped)", "host death (zombie)"} {
		host := exec.Command("sleep", "600")
		if err := host.Start(); err != nil {
			t.Fatal(err)
		}
		h := startChaos(t, bin)
		h.init(t, blockingChaosHook, fmt.Sprintf(`"processId":%d,`, host.Process.Pid))
		sendRuns(t, h, n)
		switch end {
		case "exit":
			h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
		case "SIGTERM":
			_ = h.cmd.Process.Signal(syscall.SIGTERM)
		case "host death (reaped)":
			_ = host.Process.Kill()
			_ = host.Wait()
		case "host death (zombie)":
			// Killed, not reaped until the figure is taken.
			_ = host.Process.Kill()
		}
		// A hookd that never notices gets a minute, then counts as losing
		// every reply.
		answered, _ := h.awaitFor(n, isReply, time.Minute)
		_ = host.Process.Kill()
		_ = host.Wait()
		figure("replies lost of "+strconv.Itoa(n)+" in flight at "+end, n-answered)
	}
}

func TestChaos_ProcessesAliveAfterHookdIsKilled(t *testing.T) {
	bin := chaosBin(t)
	const prSetChildSubreaper = 36
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		t.Fatal(errno)
	}
	h := startChaos(t, bin)
	h.init(t, `{"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 100000 & sleep 100000", "timeout": 900, "statusMessage": "s"}]}]}`, "")
	sendRuns(t, h, 10)
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
	time.Sleep(time.Second) // the figure is "alive 1 s after"
	// Orphans of hookd are now this process's children.
	alive := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+2:]))
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) && f[0] != "Z" {
			alive++
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	// Reap what was killed.
	for {
		if pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil); pid <= 0 || err != nil {
			break
		}
	}
	figure("processes alive 1 s after hookd is killed (10 hooks, 3 processes each)", alive)
}

// bigRun is a hooks/run whose input carries size bytes, for a hook that
// reads its stdin.
func bigRun(id, size int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"},"pad":"`, id)
	b.Write(bytes.Repeat([]byte("x"), size))
	b.WriteString(`"}}}` + "\n")
	return b.Bytes()
}

func TestChaos_PeakRSS(t *testing.T) {
	bin := chaosBin(t)
	const reader = `{"PreToolUse": [{"hooks": [{"type": "command", "command": "cat > /dev/null"}]}]}`
	for _, tc := range []struct {
		name       string
		n, size    int
		extraFlags []string
	}{
		{"one 60 MB request", 1, 60_000_000, nil},
		{"8 pipelined 30 MB requests", 8, 30_000_000, nil},
	} {
		h := startChaos(t, bin, tc.extraFlags...)
		h.init(t, reader, "")
		base := procStatus(t, h.cmd.Process.Pid, "VmHWM")
		for i := 1; i <= tc.n; i++ {
			if _, err := h.in.Write(bigRun(i, tc.size)); err != nil {
				t.Fatal(err)
			}
		}
		got := h.await(t, tc.n, isReply)
		peak := procStatus(t, h.cmd.Process.Pid, "VmHWM")
		figure("peak RSS MiB, "+tc.name+" ("+strconv.Itoa(got)+" replies)", fmt.Sprintf("%d (idle %d)", peak/1024, base/1024))
	}
	// An NDJSON line over the 64 MiB limit.
	h := startChaos(t, bin)
	h.init(t, reader, "")
	if _, err := h.in.Write(bigRun(1, 70<<20)); err != nil {
		t.Fatal(err)
	}
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/list"}`)
	h.await(t, 1, func(m gjson.Result) bool { return m.Get("id").Int() == 2 })
	figure("peak RSS MiB, NDJSON line over the limit", procStatus(t, h.cmd.Process.Pid, "VmHWM")/1024)
}

func TestChaos_ReplyWithNoisyStderr(t *testing.T) {
	bin := chaosBin(t)
	group := `{"hooks": [{"type": "command", "command": "head -c 20000000 /dev/zero | tr '\\0' e >&2"}]}`
	h := startChaos(t, bin)
	h.init(t, `{"Stop": [`+strings.TrimSuffix(strings.Repeat(group+",", 16), ",")+`]}`, "")
	for len(h.bytes) > 0 {
		<-h.bytes
	}
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"Stop","input":{}}}`)
	size := 0
	h.await(t, 1, func(m gjson.Result) bool {
		n := <-h.bytes
		if isReply(m) && m.Get("id").Int() == 1 {
			size = n
			return true
		}
		return false
	})
	figure("reply bytes, 16 hooks printing 20 MB on stderr", size)
	figure("peak RSS MiB, same", procStatus(t, h.cmd.Process.Pid, "VmHWM")/1024)
}

func TestChaos_ThreadsAfterHooksEnd(t *testing.T) {
	bin := chaosBin(t)
	const n = 3000
	// All n hooks run at once (--max-running-hooks n): at the default cap
	// (64), 3000 ten-second hooks would take longer than the wait for them.
	// CHAOS_CAP sets another cap; CHAOS_CAP=none passes no flag, for builds
	// before the flag existed (they had no cap).
	c := os.Getenv("CHAOS_CAP")
	if c == "" {
		c = strconv.Itoa(n)
	}
	var args []string
	label := ""
	if c != "none" {
		args = append(args, "--max-running-hooks", c)
		label = ", cap " + c
	}
	h := startChaos(t, bin, args...)
	h.init(t, `{"Stop": [{"hooks": [{"type": "command", "command": "sleep 10"}]}]}`, "")
	for i := 1; i <= n; i++ {
		h.send(t, `{"jsonrpc":"2.0","id":%d,"method":"hooks/run","params":{"event":"Stop","input":{}}}`, i)
	}
	failed := 0
	got := h.await(t, n, func(m gjson.Result) bool {
		if !isReply(m) {
			return false
		}
		if m.Get("result.hooks.0.status").Str != "succeeded" {
			failed++
		}
		return true
	})
	figure(fmt.Sprintf("threads after %d hooks end (%d replies, %d failed%s)", n, got, failed, label), procStatus(t, h.cmd.Process.Pid, "Threads"))
}

func TestChaos_ProbesAfterABadFrame(t *testing.T) {
	bin := chaosBin(t)
	var in bytes.Buffer
	frame := func(body string) { fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(body), body) }
	frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"config":{"home":%q}}}`, t.TempDir()))
	bad := `{"jsonrpc":"2.0","id":-1,"method":"hooks/list"}`
	fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(bad)+3000, bad)
	for i := 1; i <= 100; i++ {
		frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"hooks/list"}`, i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--framing", "lsp")
	cmd.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	cmd.Stdin = &in
	out, _ := cmd.Output()
	answered := 0
	for _, part := range strings.Split(string(out), "Content-Length: ") {
		_, body, ok := strings.Cut(part, "\r\n\r\n")
		if !ok {
			continue
		}
		if id := gjson.Get(body, "id"); id.Type == gjson.Number && id.Int() >= 1 && id.Int() <= 100 && !gjson.Get(body, "error").Exists() {
			answered++
		}
	}
	figure("probes answered of 100 after a too-long Content-Length", answered)
}
