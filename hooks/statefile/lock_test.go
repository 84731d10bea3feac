package statefile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// holdLock takes config.toml.lock as another writer would, until the test ends.
func holdLock(t *testing.T, path string) {
	t.Helper()
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Unlock() })
}

func TestUpdate_HeldLockGivesUpWithErrLockedAndKeepsTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(richConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	holdLock(t, path)
	// The caller's deadline stands in for LockWait, which is the same wait.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := Update(ctx, path, []Change{{Key: "k", TrustedHash: hashA}})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("Update with the lock held: %v, want ErrLocked", err)
	}
	if data, _ := os.ReadFile(path); string(data) != richConfig {
		t.Errorf("file changed to %q", data)
	}
}

func TestUpdate_CancelledLockWaitReturnsCanceled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	holdLock(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- Update(ctx, path, []Change{{Key: "k", TrustedHash: hashA}}) }()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Update: %v, want context.Canceled", err)
	}
}

func TestUpdate_LockIsTakenOnceTheOtherWriterLetsGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	l := flock.New(path + ".lock")
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- Update(context.Background(), path, []Change{{Key: "k", TrustedHash: hashA}}) }()
	_ = l.Unlock()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if e, _ := StateEntry(data, "k"); e["trusted_hash"] != hashA {
		t.Errorf("trust not recorded: %q", data)
	}
}
