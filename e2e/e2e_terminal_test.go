package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// ptyScript runs argv[1] with a pseudo-terminal as stdin, closes the terminal
// after its first line on stderr (or after 10 s) and prints that line.
const ptyScript = `
import os, pty, select, subprocess, sys
m, s = pty.openpty()
p = subprocess.Popen([sys.argv[1]], stdin=s, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
os.close(s)
ready, _, _ = select.select([p.stderr], [], [], 10)
line = p.stderr.readline() if ready else b""
os.close(m)
p.wait(timeout=10)
sys.stdout.write(line.decode())
`

// TestBareHookd_OnATerminalSaysItWaitsForJSONRPC: a person who types hookd
// is told what it is waiting for; a host's pipe gets nothing (cli.txtar).
func TestBareHookd_OnATerminalSaysItWaitsForJSONRPC(t *testing.T) {
	python := need(t, "python3", "a pseudo-terminal for hookd's stdin")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "-c", ptyScript, hookdPath(t)).Output()
	if err != nil {
		t.Fatalf("python pty: %v", err)
	}
	if got := string(out); !strings.Contains(got, "waiting for JSON-RPC") || !strings.Contains(got, "hookd help") {
		t.Errorf("first stderr line on a terminal = %q, want it to say hookd waits for JSON-RPC and how to get help", got)
	}
}
