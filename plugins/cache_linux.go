package plugins

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// cacheSupported: Linux gives every time the witness needs (cache.go).
const cacheSupported = true

// lstamp is path's stamp, symlinks not followed.
func lstamp(path string) (stamp, error) {
	var st unix.Stat_t
	var err error
	for {
		if err = unix.Lstat(path, &st); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return stamp{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return stampOf(path, &st), nil
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

func isDirMode(mode uint32) bool { return mode&unix.S_IFMT == unix.S_IFDIR }

func isRegularMode(mode uint32) bool { return mode&unix.S_IFMT == unix.S_IFREG }

// resolveDir is the folder path resolved, as openRoot resolves it.
func resolveDir(path string) (string, bool) {
	h, real, ok := openHandle(path)
	if !ok {
		return "", false
	}
	h.close()
	return real, true
}

// localFSTypes are the file systems whose times the cache relies on: local
// ones, where every change to a folder's entries or a file's bytes or mode
// stamps its change time. Network and user-space file systems may cache
// attributes or stamp from another clock, and are left out.
var localFSTypes = map[int64]bool{
	unix.EXT4_SUPER_MAGIC:      true, // also ext2 and ext3
	unix.XFS_SUPER_MAGIC:       true,
	unix.BTRFS_SUPER_MAGIC:     true,
	unix.TMPFS_MAGIC:           true,
	unix.F2FS_SUPER_MAGIC:      true,
	unix.OVERLAYFS_SUPER_MAGIC: true,
	0x2fc12fc1:                 true, // ZFS
}

// localFS reports whether path is on a local file system.
func localFS(path string) bool {
	var fs unix.Statfs_t
	return unix.Statfs(path, &fs) == nil && localFSTypes[int64(fs.Type)]
}

// anchors are folders held open (O_PATH) for one load, by path.
type anchors struct {
	mu  sync.Mutex
	fds map[string]int
}

// open gives the folder at path held open; ok is false when it cannot be
// opened (the caller then looks up by whole path).
func (a *anchors) open(path string) (int, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if fd, ok := a.fds[path]; ok {
		return fd, fd >= 0
	}
	if a.fds == nil {
		a.fds = map[string]int{}
	}
	fd, err := unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	a.fds[path] = fd
	return fd, fd >= 0
}

func (a *anchors) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, fd := range a.fds {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	a.fds = nil
}

// lstampAt is lstamp of rel below the folder dirfd, whose whole path is
// path: symlinks not followed at rel's last component.
func lstampAt(dirfd int, rel, path string) (stamp, error) {
	var st unix.Stat_t
	var err error
	for {
		if err = unix.Fstatat(dirfd, rel, &st, unix.AT_SYMLINK_NOFOLLOW); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return stamp{}, &os.PathError{Op: "lstat", Path: path, Err: err}
	}
	return stampOf(path, &st), nil
}

func stampOf(path string, st *unix.Stat_t) stamp {
	return stamp{path: path, dev: st.Dev, ino: st.Ino, mode: st.Mode, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}

// fileIdentity names one version of a file: device, inode, size and times.
func fileIdentity(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10) + ":" + strconv.FormatInt(st.Size, 10) +
		":" + strconv.FormatInt(st.Mtim.Nano(), 10) + ":" + strconv.FormatInt(st.Ctim.Nano(), 10)
}
