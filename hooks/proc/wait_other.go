//go:build !linux

package proc

import (
	"io"
	"os"
)

// awaitExit: without pidfds, Wait itself blocks (a thread per running hook;
// the cap on running hooks bounds them) and gives the exit.
func awaitExit(*os.Process) (code int, ok bool, pidfd io.Closer) { return 0, false, nil }
