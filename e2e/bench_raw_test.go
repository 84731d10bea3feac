package e2e

import (
	"fmt"
	"io"
	"os"
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
