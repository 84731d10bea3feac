//go:build unix

package spill

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether fi belongs to the user hookd runs as.
func ownedByUser(fi fs.FileInfo) bool {
	uid, ok := owner(fi)
	return ok && uid == os.Getuid()
}

// owner returns the uid that owns fi.
func owner(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
