//go:build unix && !linux

package proc

import "syscall"

// dieWithHookd: only Linux has a parent-death signal; the watchdog does it.
func dieWithHookd(*syscall.SysProcAttr) {}
