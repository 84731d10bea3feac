//go:build !windows

package rpc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestClaimStdout_StrayPrintsGoToStderr runs itself in a child process that
// claims stdout and then prints through fmt.Println and straight to fd 1: only
// the protocol writer's bytes may reach the real stdout.
func TestClaimStdout_StrayPrintsGoToStderr(t *testing.T) {
	if os.Getenv("HOOKD_CLAIM_CHILD") == "1" {
		proto, err := ClaimStdout()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println("stray fmt")
		os.NewFile(1, "fd1").WriteString("stray fd1\n")
		proto.WriteString("protocol\n")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestClaimStdout_StrayPrintsGoToStderr$")
	cmd.Env = append(os.Environ(), "HOOKD_CLAIM_CHILD=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v; stderr: %s", err, stderr.String())
	}
	if string(out) != "protocol\n" {
		t.Errorf("stdout = %q, want only the protocol bytes", out)
	}
	for _, want := range []string{"stray fmt", "stray fd1"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
}
