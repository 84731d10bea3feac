//go:build !linux

package proc

import "os"

// awaitExit: without pidfds, Wait itself blocks (a thread per running hook;
// the cap on running hooks bounds them).
func awaitExit(*os.Process) {}
