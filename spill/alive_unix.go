//go:build unix

package spill

import (
	"errors"
	"syscall"
)

// processAlive reports whether pid exists (it may belong to another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
