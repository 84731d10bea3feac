package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Host round trips: one hooks/run with one trivial command hook, timed inside
// the Node and Python packages (node/bench.js, python/bench.py), against the same command
// spawned by the host language itself. The script measures b.N operations
// after a warm-up and prints the mean; that mean replaces ns/op, so the
// interpreter's start-up is not counted. The Go client's figures are
// BenchmarkHooksRun_TrivialCommand and BenchmarkExecCommand_TrivialCommand
// (bench_test.go); scripts/bench_hosts.sh prints all six and their ratios.

func benchScript(b *testing.B, dir string, argv ...string) {
	b.Helper()
	benchHome(b, "")
	cmd := exec.Command(argv[0], append(argv[1:], strconv.Itoa(b.N))...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKD_BIN="+benchBin(b))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s: %v", strings.Join(argv, " "), err)
	}
	ns, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	if err != nil {
		b.Fatalf("%s printed %q, want nanoseconds", strings.Join(argv, " "), out)
	}
	b.ReportMetric(ns, "ns/op")
}

func benchNode(b *testing.B, mode string) {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node not on PATH")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "node"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-jsonrpc")); err != nil {
		b.Skip("run npm ci in node/ first")
	}
	benchScript(b, dir, node, "bench.js", mode)
}

func benchPython(b *testing.B, mode string) {
	python, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 not on PATH")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "python"))
	benchScript(b, dir, python, "bench.py", mode)
}

// BenchmarkNodeHost_HooksRun: hooks/run from the vscode-jsonrpc host.
func BenchmarkNodeHost_HooksRun(b *testing.B) { benchNode(b, "hookd") }

// BenchmarkNodeHost_ChildProcess: the same command spawned with child_process.
func BenchmarkNodeHost_ChildProcess(b *testing.B) { benchNode(b, "spawn") }
