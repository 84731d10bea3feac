//go:build unix

package statefile

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

func TestUpdate_ConfigThatIsAFIFOIsRefusedNotWaitedOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// A plain read would wait for a writer for ever, lock held.
	if err := Update(context.Background(), path, []Change{{Key: "k", TrustedHash: hashA}}); err == nil {
		t.Fatal("Update of a FIFO succeeded")
	}
}

func TestUpdate_LockFileThatIsAFIFOIsNotWaitedOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := syscall.Mkfifo(path+".lock", 0o600); err != nil {
		t.Fatal(err)
	}
	// Whatever comes of it, the open must not wait for a FIFO writer.
	_ = Update(context.Background(), path, []Change{{Key: "k", TrustedHash: hashA}})
}
