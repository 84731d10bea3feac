//go:build unix

package spill

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether fi belongs to the user hookd runs as.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
