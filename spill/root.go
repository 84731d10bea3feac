package spill

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The spill root, <temp dir>/hook_outputs, is shared by every user's hookd
// (as in Codex), so it is in reach of other local users: one could create it
// first, or put a symlink there, and then swap a session folder between a
// check and an open so that a preview the model reads comes from their file.
// So the root is accepted only when it is a real folder (never a symlink)
// owned by this user, or by root with the sticky bit (then no one else can
// rename or replace what this user creates in it), and every session folder
// and file is opened, created and removed relative to a handle of the folder
// checked (os.Root, openat underneath), never by path again.

// ErrUnsafeRoot is the error when the spill root cannot be trusted.
var ErrUnsafeRoot = errors.New("unsafe spill folder")

func rootPath() string { return filepath.Join(os.TempDir(), folderName) }

// openRoot opens the spill root, creating it (shared, sticky) when it is
// missing and create is set, and checks it: fs.ErrNotExist when it is missing
// and create is not set, ErrUnsafeRoot when it cannot be trusted.
func openRoot(create bool) (*os.Root, error) {
	path := rootPath()
	if create {
		switch err := os.Mkdir(path, 0o700); {
		case err == nil:
			// Shared like the temp dir itself, so that every user's hookd can
			// make its own session folders; the sticky bit keeps them apart.
			if err := os.Chmod(path, 0o777|os.ModeSticky); err != nil {
				return nil, fmt.Errorf("create spill folder: %w", err)
			}
		case !errors.Is(err, fs.ErrExist):
			return nil, fmt.Errorf("create spill folder: %w", err)
		}
	}
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%w: %s is a symlink; remove it (hookd recreates it) or set TMPDIR", ErrUnsafeRoot, path)
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("open spill folder: %w", err)
	}
	// What was opened is what gets checked: a swap after the Lstat shows.
	fi, err := r.Stat(".")
	if err == nil && !os.SameFile(fi, before) {
		err = fmt.Errorf("%w: %s was replaced while it was opened", ErrUnsafeRoot, path)
	}
	if err == nil {
		err = checkRoot(r, fi)
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// checkRoot accepts a root owned by this user (adding the sticky bit if
// others may write to it) or by root with the sticky bit.
func checkRoot(r *os.Root, fi fs.FileInfo) error {
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a folder", ErrUnsafeRoot, r.Name())
	}
	uid, known := owner(fi)
	sticky := fi.Mode()&os.ModeSticky != 0
	switch {
	case !known || uid == os.Getuid():
		if fi.Mode().Perm()&0o022 != 0 && !sticky {
			if err := r.Chmod(".", fi.Mode().Perm()|os.ModeSticky); err != nil {
				return fmt.Errorf("%w: %s is writable by others without the sticky bit: %v", ErrUnsafeRoot, r.Name(), err)
			}
		}
		return nil
	case uid == 0 && sticky:
		return nil
	case uid == 0:
		return fmt.Errorf("%w: %s belongs to root but has no sticky bit (chmod +t it)", ErrUnsafeRoot, r.Name())
	}
	return fmt.Errorf("%w: %s belongs to another user (uid %d); remove it or set TMPDIR to a folder of your own", ErrUnsafeRoot, r.Name(), uid)
}

// openSession opens the session's spill folder in the checked root,
// creating it (0700) when create is set; it must be a real folder of this
// user.
func openSession(session string, create bool) (*os.Root, error) {
	root, err := openRoot(create)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	name := sessionFolder(session)
	if create {
		if err := root.Mkdir(name, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create spill folder: %w", err)
		}
	}
	before, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !before.IsDir() || !ownedByUser(before) {
		return nil, fmt.Errorf("spill folder %s is not a folder of this user; not writing hook output there", filepath.Join(root.Name(), name))
	}
	dir, err := root.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("open spill folder: %w", err)
	}
	fi, err := dir.Stat(".")
	if err == nil && (!os.SameFile(fi, before) || !ownedByUser(fi)) {
		err = fmt.Errorf("spill folder %s was replaced while it was opened", dir.Name())
	}
	if err == nil && fi.Mode().Perm() != 0o700 {
		err = dir.Chmod(".", 0o700)
	}
	if err != nil {
		dir.Close()
		return nil, err
	}
	if create {
		markOwner(root, name) // stale.go
	}
	return dir, nil
}

// Open opens a spill file of the session for reading, through the checked
// folder handles; path must be one Create or Limit returned.
func Open(session, path string) (*os.File, error) {
	if filepath.Dir(path) != Dir(session) {
		return nil, fmt.Errorf("open spill file %s: not in the spill folder of session %q", path, session)
	}
	dir, err := openSession(session, false)
	if err != nil {
		return nil, fmt.Errorf("open spill file: %w", err)
	}
	defer dir.Close()
	return dir.Open(filepath.Base(path))
}

// Discard closes f, a file Create returned, and removes it.
func Discard(session string, f *os.File) {
	_ = f.Close()
	if filepath.Dir(f.Name()) != Dir(session) {
		return
	}
	if dir, err := openSession(session, false); err == nil {
		_ = dir.Remove(filepath.Base(f.Name()))
		dir.Close()
	}
}
