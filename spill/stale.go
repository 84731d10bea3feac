package spill

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// ownerFile, in a session's spill folder, holds the pid of the hookd that
// made it. A hookd that is killed never removes its folder; the next one to
// start does (RemoveStale). Folders without it (Codex's own, in the same
// hook_outputs) are never touched.
const ownerFile = ".hookd-pid"

// markOwner records this process as the owner of a session folder.
func markOwner(dir string) {
	path := filepath.Join(dir, ownerFile)
	want := strconv.Itoa(os.Getpid()) + "\n"
	if b, err := os.ReadFile(path); err == nil && string(b) == want {
		return
	}
	_ = os.WriteFile(path, []byte(want), 0o600)
}

// RemoveStale removes the spill folders of this user's sessions whose hookd
// is gone, and returns how many it removed. hookd calls it when it starts.
func RemoveStale() (int, error) {
	parent := filepath.Join(os.TempDir(), folderName)
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("list spill folders: %w", err)
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		dir := filepath.Join(parent, e.Name())
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() || !ownedByUser(fi) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, fmt.Errorf("remove stale spill folder: %w", err))
			continue
		}
		removed++
	}
	return removed, errors.Join(errs...)
}
