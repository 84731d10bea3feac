package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/regfile"
)

// readInRoot reads the regular file path, of at most maxFileSize bytes, that
// must be inside the plugin folder root once symlinks are resolved: a
// manifest or hooks file that is a symlink to a file elsewhere is refused,
// like a hooks path that escapes.
//
// It opens first and checks the file it opened, so that nothing swapped in
// between a check and the read is read: the open does not block (a FIFO
// would), the opened file must be a regular file of bounded size, and it must
// be the very file found at path's resolved location inside root.
//
// realRoot is root with symlinks resolved, when the caller resolved it
// already ("": resolve it here). A loader resolves each plugin root once
// and passes it down: the file is still opened first and the opened file
// checked, now against the root the plugin was identified by, so a root
// swapped since then refuses the file rather than reading elsewhere.
func readInRoot(root, realRoot, path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case opened.Size() > maxFileSize:
		return nil, fmt.Errorf("larger than %d MiB", maxFileSize>>20)
	}
	if err := sameFileInside(root, realRoot, path, opened); err != nil {
		return nil, err
	}
	return regfile.ReadAll(f, maxFileSize)
}

// sameFileInside checks that path resolves to a file inside root and that
// this file is opened, the one already open. realRoot is as for readInRoot.
func sameFileInside(root, realRoot, path string, opened os.FileInfo) error {
	realRoot, err := resolveRoot(root, realRoot)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("it resolves to %s, outside the plugin root %s (through a symlink)", real, realRoot)
	}
	now, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !os.SameFile(opened, now) {
		return fmt.Errorf("it changed while being read (now %s)", real)
	}
	return nil
}

// resolveRoot returns realRoot when the caller resolved root already, else
// root with symlinks resolved.
func resolveRoot(root, realRoot string) (string, error) {
	if realRoot != "" {
		return realRoot, nil
	}
	return filepath.EvalSymlinks(root)
}
