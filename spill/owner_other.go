//go:build !unix

package spill

import "io/fs"

// ownedByUser is always true where file ownership is not a uid: the temp dir
// is per user on Windows.
func ownedByUser(fs.FileInfo) bool { return true }

// owner is unknown where file ownership is not a uid.
func owner(fs.FileInfo) (int, bool) { return 0, false }
