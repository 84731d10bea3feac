//go:build !unix

package regfile

// OpenFlag is added to the flags of an open that must not wait; there are no
// FIFOs in the file system here (Windows named pipes live in their own
// namespace), so nothing is needed.
const OpenFlag = 0

func isNoReader(error) bool { return false }

// NoFollowFlag is added to the flags of an open that must not follow a
// symlink at the path's last component: there is no such flag here.
const NoFollowFlag = 0
