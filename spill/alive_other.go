//go:build !unix

package spill

import "os"

// processAlive reports whether pid exists. On Windows FindProcess opens the
// process, which fails once it is gone.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
