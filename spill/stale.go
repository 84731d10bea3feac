package spill

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
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

// markOwner records this process as the owner of the session folder name in
// the checked spill root. The record is written inside the folder, which
// openSession has checked is ours, and renamed beside it: a rename replaces
// whatever another user may have planted at that name instead of writing
// through it.
func markOwner(root *os.Root, name string) {
	want := strconv.Itoa(os.Getpid()) + "\n"
	if b, err := root.ReadFile(name + ownerSuffix); err == nil && string(b) == want {
		return
	}
	tmp := path.Join(name, ".owner-"+newUUID())
	if err := root.WriteFile(tmp, []byte(want), 0o600); err != nil {
		return
	}
	if err := root.Rename(tmp, name+ownerSuffix); err != nil {
		_ = root.Remove(tmp)
	}
}

// RemoveStale removes the spill folders of this user's sessions whose hookd
// is gone, and returns how many it removed. hookd serve calls it when it
// starts. Like every spill operation it works through a handle of the
// checked spill root; a root that cannot be trusted is left alone.
func RemoveStale() (int, error) {
	root, err := openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("remove stale spill folders: %w", err)
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return 0, fmt.Errorf("list spill folders: %w", err)
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, fmt.Errorf("list spill folders: %w", err)
	}
	removed := 0
	var errs []error
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ownerSuffix)
		if !ok || name == "" {
			continue
		}
		fi, err := root.Lstat(e.Name())
		if err != nil || !fi.Mode().IsRegular() || !ownedByUser(fi) {
			continue
		}
		b, err := root.ReadFile(e.Name())
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
		if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if fi, err := root.Lstat(name); err == nil && (!fi.IsDir() || !ownedByUser(fi)) {
			continue // not ours to remove
		}
		if err := root.RemoveAll(name); err != nil {
			errs = append(errs, fmt.Errorf("remove stale spill folder %s: %w", name, err))
			continue
		}
		_ = root.Remove(e.Name())
		removed++
	}
	return removed, errors.Join(errs...)
}
