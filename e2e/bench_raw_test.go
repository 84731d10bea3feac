package e2e

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The round-trip rows again, with the host's side cut to the floor's
// (BenchmarkPipe_RoundTrip): a request's bytes written to hookd serve and
// its reply's frame read back, with no JSON-RPC library in this process.
// What they measure beyond the floor is hookd's own share.

// rawServe starts and initializes hookd serve with hooksDoc as the user
// hooks file.
func rawServe(b *testing.B, hooksDoc string) *rawHookd {
	b.Helper()
	home := b.TempDir()
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(hooksDoc), 0o600); err != nil {
		b.Fatal(err)
	}
	r := startRawBin(b, benchBin(b), nil, "--log-level", "error")
	init := fmt.Sprintf(`{"id":0,"jsonrpc":"2.0","method":"initialize","params":{"session":{"id":"s1","cwd":%q},"config":{"home":%q,"bypassTrust":true}}}`, b.TempDir(), home)
	if _, err := io.WriteString(r.stdin, lspFrame(init)); err != nil {
		b.Fatal(err)
	}
	if got := r.readLSP(b); !strings.Contains(got, `"serverInfo"`) {
		b.Fatalf("initialize: %s", got)
	}
	if _, err := io.WriteString(r.stdin, lspFrame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)); err != nil {
		b.Fatal(err)
	}
	return r
}

// rawRuns times body's round trip; every reply must contain want.
func rawRuns(b *testing.B, r *rawHookd, body, want string) {
	msg := []byte(lspFrame(body))
	call := func() {
		if _, err := r.stdin.Write(msg); err != nil {
			b.Fatal(err)
		}
		if got := r.readLSP(b); !strings.Contains(got, want) {
			b.Fatalf("reply %s lacks %s", got, want)
		}
	}
	call()
	cpu0, own0 := procCPU(r.cmd.Process.Pid), procCPU(os.Getpid())
	for b.Loop() {
		call()
	}
	reportHookdCPU(b, r.cmd.Process.Pid, cpu0)
	reportClientCPU(b, own0)
}

// BenchmarkHooksRun_NoMatchRoundTripRawClient is BenchmarkHooksRun_NoMatchRoundTrip
// with that client.
func BenchmarkHooksRun_NoMatchRoundTripRawClient(b *testing.B) {
	benchHome(b, "")
	rawRuns(b, rawServe(b, trueStop),
		`{"id":1,"jsonrpc":"2.0","method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_input":{"path":"x"},"tool_name":"Read"}}}`,
		`"decision":"none"`)
}

// BenchmarkHooksRun_TrivialCommandRawClient is BenchmarkHooksRun_TrivialCommand
// (one true hook, codex) with that client.
func BenchmarkHooksRun_TrivialCommandRawClient(b *testing.B) {
	benchHome(b, "")
	rawRuns(b, rawServe(b, trueStop),
		`{"id":1,"jsonrpc":"2.0","method":"hooks/run","params":{"event":"Stop","input":{}}}`,
		`"status":"succeeded"`)
}

// sidecarEnv makes this test binary the floor of a hook runner in a process
// of its own: the baseline of BenchmarkHooksRun_TrivialCommandRawClient.
const sidecarEnv = "HOOKD_E2E_SIDECAR_SERVER"

// runSidecar is that floor, as a plain Go program would write it: for each
// LSP frame on stdin, Go exec of $SHELL -c true with the payload the exec
// baseline gives it, then a fixed reply frame with the exit code; until
// stdin closes. No JSON-RPC, no discovery, no engine: one request, one
// exec and one reply over pipes.
func runSidecar() int {
	in := bufio.NewReader(os.Stdin)
	payload := []byte(benchStopPayload)
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	for {
		if _, err := readLSPFrame(in); err != nil {
			return 0 // stdin closed (or a frame this floor cannot read)
		}
		cmd := exec.Command(shell, "-c", "true")
		cmd.Stdin = bytes.NewReader(payload)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		status := "succeeded"
		if err := cmd.Run(); err != nil {
			status = "failed"
		}
		body := fmt.Sprintf(`{"id":1,"jsonrpc":"2.0","result":{"status":%q,"exitCode":%d}}`, status, cmd.ProcessState.ExitCode())
		if _, err := io.WriteString(os.Stdout, lspFrame(body)); err != nil {
			return 1
		}
	}
}

// BenchmarkSidecar_TrivialCommand is that floor driven like
// BenchmarkHooksRun_TrivialCommandRawClient: what any hook runner in its own
// process pays on this machine for one command hook, beside the exec a host
// would do itself (BenchmarkExecCommand_TrivialCommand).
func BenchmarkSidecar_TrivialCommand(b *testing.B) {
	benchHome(b, "")
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv(sidecarEnv, "1")
	r := startRawBin(b, exe, nil)
	rawRuns(b, r, `{"id":1,"jsonrpc":"2.0","method":"hooks/run","params":{"event":"Stop","input":{}}}`, `"status":"succeeded"`)
}
