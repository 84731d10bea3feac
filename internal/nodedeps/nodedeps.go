// Package nodedeps installs the Node package's development dependencies
// (node/node_modules, from node/package-lock.json) for the test suites that
// need them: the Node client's suite, the release's type check, the
// documentation's Node examples. A fresh clone has none, and a suite that
// skipped for want of them would pass `go test ./...` without running.
package nodedeps

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// Ensure makes nodeDir/node_modules match nodeDir/package-lock.json,
// running `npm ci` when it is missing or older than the lock file. Test
// binaries of several packages may call it at once: a lock file beside
// package.json lets one install while the others wait for it.
func Ensure(ctx context.Context, nodeDir string) error {
	if current(nodeDir) {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm not found on PATH: it installs %s/node_modules (npm ci)", nodeDir)
	}
	lock := flock.New(filepath.Join(nodeDir, "node_modules.lock"))
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	if ok, err := lock.TryLockContext(ctx, 200*time.Millisecond); err != nil || !ok {
		return fmt.Errorf("lock %s: %v", lock.Path(), err)
	}
	defer lock.Unlock()
	if current(nodeDir) { // another test binary installed it meanwhile
		return nil
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = nodeDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", nodeDir, err, out)
	}
	return nil
}

// current: npm ci writes node_modules/.package-lock.json last; it is
// current when it is no older than the package's lock file.
func current(nodeDir string) bool {
	want, err := os.Stat(filepath.Join(nodeDir, "package-lock.json"))
	if err != nil {
		return false
	}
	have, err := os.Stat(filepath.Join(nodeDir, "node_modules", ".package-lock.json"))
	return err == nil && !have.ModTime().Before(want.ModTime())
}
