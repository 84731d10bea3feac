//go:build !unix

package gemini

import "io/fs"

// Where owners are not uids, Gemini CLI checks the file's access list,
// which hookd does not read.
const ownersKnown = false

func owner(fs.FileInfo) (int, bool) { return 0, false }
