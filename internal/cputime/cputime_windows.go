// Package cputime reads the CPU time this process has used, for the
// benchmarks that report it beside wall time.
package cputime

import (
	"syscall"
	"time"
)

// Self is the user and system CPU time this process has used (0 when it
// cannot be read).
func Self() time.Duration {
	var creation, exit, kernel, user syscall.Filetime
	h, err := syscall.GetCurrentProcess()
	if err != nil || syscall.GetProcessTimes(h, &creation, &exit, &kernel, &user) != nil {
		return 0
	}
	// Filetimes count 100 ns ticks.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
