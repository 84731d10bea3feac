//go:build unix

package regfile

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpen_AFIFOIsRefusedWithoutWaitingForAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// A plain open would wait here for a writer that never comes.
	if _, err := Open(path); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("Open(FIFO) = %v, want ErrNotRegular", err)
	}
}
