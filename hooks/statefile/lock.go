package statefile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookd/hookd/internal/regfile"
)

// LockWait is how long Update waits for another writer (a second session, a
// `hookd trust` in another terminal) to release config.toml.lock before it
// gives up with ErrLocked.
const LockWait = 5 * time.Second

// lockRetry is how often a held lock is tried again while Update waits.
const lockRetry = 25 * time.Millisecond

// ErrLocked is the error of an Update that could not take the lock in time.
var ErrLocked = errors.New("another process is writing it")

// lockFile takes an exclusive advisory lock on path (created when missing)
// within LockWait or until ctx ends, and returns its release. The lock belongs
// to the open file, so a writer that dies releases it; the lock file itself
// is left in place, because removing it would let two writers lock two
// different files. gofrs/flock gives the same lock on every platform (flock
// on Unix, LockFileEx on Windows) and a wait that can be given up.
func lockFile(ctx context.Context, path string) (func(), error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, LockWait)
	defer cancel()
	// Non-blocking open: a FIFO planted as the lock file must not hang us.
	l := flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDWR|regfile.OpenFlag))
	ok, err := l.TryLockContext(ctx, lockRetry)
	switch {
	case ok:
		return func() { _ = l.Unlock() }, nil
	case errors.Is(err, context.DeadlineExceeded):
		_ = l.Close()
		return nil, fmt.Errorf("%w: %s stayed locked for %v; end the other hookd session or `hookd trust` and try again",
			ErrLocked, path, time.Since(start).Round(time.Millisecond))
	case err == nil:
		err = errors.New("not locked")
	}
	_ = l.Close()
	return nil, err
}
