package gemini

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// systemFileInsecure says why Gemini CLI would skip the system settings
// file at path, or "" when it would read it. The CLI reads a system
// settings file only when the file and every folder above it belong to
// root and neither group nor others may write to them; a link on the way
// must belong to root too, and when the path resolves elsewhere the file
// it resolves to and that file's folders are checked as well. A missing
// file is not insecure (there is nothing to read). Only names are looked
// at: nothing is opened. Where owners are not uids (Windows) nothing is
// checked.
func systemFileInsecure(path string) string {
	if !ownersKnown {
		return ""
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	var why string
	checkAll := func(file string) bool {
		for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
			if why = pathInsecure(dir, true); why != "" {
				return false
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
		why = pathInsecure(file, false)
		return why == ""
	}
	if !checkAll(path) {
		return why
	}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		checkAll(real)
	}
	return why
}

// pathInsecure checks one file or folder as Gemini CLI does.
func pathInsecure(path string, dir bool) string {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		return fmt.Sprintf("cannot check %s: %v", path, err)
	}
	switch {
	case dir && !fi.IsDir():
		return path + " is not a folder"
	case !dir && !fi.Mode().IsRegular():
		return path + " is not a regular file"
	}
	if li, err := os.Lstat(path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		if uid, ok := owner(li); ok && uid != 0 {
			return fmt.Sprintf("the link %s does not belong to root (uid %d)", path, uid)
		}
	}
	if uid, ok := owner(fi); ok && uid != 0 {
		return fmt.Sprintf("%s does not belong to root (uid %d)", path, uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("%s is writable by group or others (mode %o)", path, fi.Mode().Perm())
	}
	return ""
}
