package rpc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
)

// processAlive reports whether pid runs. kill(pid, 0) alone succeeds on a
// zombie, a host that died but was not reaped yet (its parent is busy or
// careless), so the state in /proc decides: Z (zombie) and X (dead) are gone.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		// No /proc (a sandbox may hide it): kill's answer stands.
		return true
	}
	// The state follows the command name, which is in parentheses and may
	// itself hold ") ".
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return true
	}
	switch stat[i+2] {
	case 'Z', 'X', 'x':
		return false
	}
	return true
}
