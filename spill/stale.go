package spill

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ownerSuffix names the file beside a session's spill folder
// (<folder>.hookd-pid) that holds the pid of the hookd that made it. A hookd
// that is killed never removes its folder; the next one to start does
// (RemoveStale). Folders without it (Codex's own, in the same hook_outputs)
// are never touched. It sits beside the folder, not in it, so that the
// folder holds only spilled texts.
const ownerSuffix = ".hookd-pid"

func ownerPath(dir string) string { return dir + ownerSuffix }

// markOwner records this process as the owner of a session folder. The
// record is written inside the folder, which ensureDir has checked is ours,
// and renamed beside it: a rename replaces whatever another user may have
// planted at that name (a symlink, say) instead of writing through it.
func markOwner(dir string) {
	path := ownerPath(dir)
	want := strconv.Itoa(os.Getpid()) + "\n"
	if b, err := os.ReadFile(path); err == nil && string(b) == want {
		return
	}
	tmp := filepath.Join(dir, ".owner-"+newUUID())
	if err := os.WriteFile(tmp, []byte(want), 0o600); err != nil {
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
	}
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
		name, ok := strings.CutSuffix(e.Name(), ownerSuffix)
		if !ok {
			continue
		}
		marker := filepath.Join(parent, e.Name())
		fi, err := os.Lstat(marker)
		if err != nil || !fi.Mode().IsRegular() || !ownedByUser(fi) {
			continue
		}
		b, err := os.ReadFile(marker)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		dir := filepath.Join(parent, name)
		if fi, err := os.Lstat(dir); err == nil && (!fi.IsDir() || !ownedByUser(fi)) {
			continue // not ours to remove
		}
		if err := os.RemoveAll(dir); err != nil {
			errs = append(errs, fmt.Errorf("remove stale spill folder: %w", err))
			continue
		}
		_ = os.Remove(marker)
		removed++
	}
	return removed, errors.Join(errs...)
}
