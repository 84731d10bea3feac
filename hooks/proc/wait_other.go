//go:build !linux

package proc

import "os"

// awaitExit: without pidfds, Wait itself blocks (a thread per running hook;
// the cap on running hooks bounds them) and gives the exit.
func awaitExit(*os.Process) (code int, ok bool) { return 0, false }
