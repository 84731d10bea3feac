//go:build !windows

package rpc

import (
	"fmt"
	"os"
	"syscall"
)

// ClaimStdout moves the process's stdout out of everyone's reach and returns it
// for the protocol. File descriptor 1 and os.Stdout then point at stderr, so a
// stray print (ours, a library's, the runtime's) lands in the log instead of
// corrupting a frame. A pipe or socket is returned pollable (see pollable).
func ClaimStdout() (*os.File, error) {
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("duplicate stdout: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := dupOnto(2, 1); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("point stdout at stderr: %w", err)
	}
	os.Stdout = os.Stderr
	if f := pollable(fd, "protocol-stdout"); f != nil {
		return f, nil
	}
	return os.NewFile(uintptr(fd), "protocol-stdout"), nil
}
