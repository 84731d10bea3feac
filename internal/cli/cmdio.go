package cli

import "io"

// cmdIO is what a command reads and writes: the process's, or a test's.
type cmdIO struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}
