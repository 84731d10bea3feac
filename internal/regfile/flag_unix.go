//go:build unix

package regfile

import "syscall"

// OpenFlag is added to the flags of an open that must not wait: on a FIFO
// with no writer, O_NONBLOCK makes the open return at once. On regular files
// it changes nothing.
const OpenFlag = syscall.O_NONBLOCK
