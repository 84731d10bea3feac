//go:build unix

package regfile

import (
	"errors"
	"syscall"
)

// OpenFlag is added to the flags of an open that must not wait: on a FIFO
// with no writer, O_NONBLOCK makes the open return at once. On regular files
// it changes nothing.
const OpenFlag = syscall.O_NONBLOCK

// isNoReader reports the error of a non-blocking open for writing of a FIFO
// that has no reader.
func isNoReader(err error) bool { return errors.Is(err, syscall.ENXIO) }

// NoFollowFlag is added to the flags of an open that must not follow a
// symlink at the path's last component: O_NOFOLLOW makes an open of a symlink fail (ELOOP).
const NoFollowFlag = syscall.O_NOFOLLOW
