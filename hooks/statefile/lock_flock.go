//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package statefile

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on path (created when missing) and
// returns its release. flock is tied to the open file, so a writer that dies
// releases it; the lock file itself is left in place, because removing it
// would let two writers lock two different files.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
