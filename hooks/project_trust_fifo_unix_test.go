//go:build unix

package hooks

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestMainWorktreeRoot_AFIFONamedGitIsNotWaitedOn(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, ".git"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := mainWorktreeRoot(root); got != "" {
		t.Errorf("mainWorktreeRoot = %q, want none", got)
	}
}
