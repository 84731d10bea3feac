//go:build unix

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
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
