package plugins

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// handle is a plugin folder held open (O_PATH): its files are opened with
// openat2 and RESOLVE_BENEATH, so the kernel refuses any lookup that would
// leave the folder, through ".." or a symlink, and the file opened is one
// inside the very folder the load identified. fd < 0: not open.
type handle struct {
	fd int
	ok bool
}

// beneath is how every lookup below a handle resolves: inside the folder
// (an absolute symlink, or one out of it, fails with EXDEV and is then
// judged by path), and never through /proc magic links.
const beneath uint64 = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS

// openHandle opens the folder path and resolves it from the open folder
// itself (/proc/self/fd), which costs two system calls instead of one lstat
// per path component. ok is false when either cannot be done; the caller
// then resolves by path.
func openHandle(path string) (h handle, real string, ok bool) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return handle{}, "", false
	}
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf)
	if err != nil || n == 0 || n == len(buf) || buf[0] != '/' {
		unix.Close(fd)
		return handle{}, "", false
	}
	real = string(buf[:n])
	if filepath.Clean(real) != real {
		// " (deleted)" and the like: not a path.
		unix.Close(fd)
		return handle{}, "", false
	}
	return handle{fd: fd, ok: true}, real, true
}

func (h handle) valid() bool { return h.ok }

func (h handle) close() {
	if h.valid() {
		unix.Close(h.fd)
	}
}

// conclusive reports whether a failed lookup below the folder says what
// the same lookup by path would: the path is not there. Up to the missing
// part, a lookup beneath the folder follows exactly what a lookup by path
// follows; anything else (EXDEV for a way out, ENOSYS before Linux 5.6,
// EPERM from a sandbox, ELOOP, EAGAIN) is judged by path.
func conclusive(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR)
}

// read reads the regular file rel, as readInRoot does; settled is false
// when the caller must read it by path instead. With noLinks (a load the
// cache records), a symlink anywhere on the way is left to the caller too,
// so that a file read this way was reached through folders alone; id is
// then what the opened file's fstat says (its path left empty).
func (h handle) read(rel string, noLinks bool) (data []byte, id stamp, settled bool, err error) {
	if !h.valid() {
		return nil, stamp{}, false, nil
	}
	how := beneath
	if noLinks {
		how |= unix.RESOLVE_NO_SYMLINKS
	}
	fd, err := openat2How(h.fd, rel, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, how)
	if err != nil {
		// ELOOP (a symlink, with noLinks) is not conclusive: by path.
		return nil, stamp{}, conclusive(err), err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > maxFileSize {
		// Not a regular file of bounded size: readInRoot says which.
		return nil, stamp{}, false, nil
	}
	id = stampOf("", &st)
	// One read gives a regular file whole: a read returns less than asked
	// only at its end. A file that grew since the stat fills the buffer
	// and is read on, up to the limit.
	buf := make([]byte, st.Size+1)
	n := 0
	for {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, stamp{}, true, err
		}
		n += m
		if m == 0 || n < len(buf) {
			break
		}
		if n > maxFileSize {
			return nil, stamp{}, true, fmt.Errorf("larger than %d MiB", maxFileSize>>20)
		}
		buf = append(buf, make([]byte, len(buf))...)
	}
	return buf[:n], id, true, nil
}

// stat reports whether rel is a folder, symlinks followed (os.Stat);
// settled is false without an open folder.
func (h handle) stat(rel string) (isDir, settled bool, err error) {
	if !h.valid() {
		return false, false, nil
	}
	var st unix.Stat_t
	for {
		err = unix.Fstatat(h.fd, rel, &st, 0)
		if err != unix.EINTR {
			break
		}
	}
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR, true, err
}

// inside reports whether rel is known not to lead out of the folder: it
// resolves beneath it, or it is not there at all. false: check by path.
func (h handle) inside(rel string) bool {
	if !h.valid() {
		return false
	}
	fd, err := openat2(h.fd, rel, unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		return conclusive(err)
	}
	unix.Close(fd)
	return true
}

// openat2 opens rel beneath dirfd. EAGAIN (a rename elsewhere raced the
// lookup) is retried once, EINTR always.
func openat2(dirfd int, rel string, flags int) (int, error) {
	return openat2How(dirfd, rel, flags, beneath)
}

// openat2How is openat2 with resolve flags of its own.
func openat2How(dirfd int, rel string, flags int, resolve uint64) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags), Resolve: resolve}
	retried := false
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		switch {
		case err == unix.EINTR:
		case err == unix.EAGAIN && !retried:
			retried = true
		default:
			return fd, err
		}
	}
}

// openVersions lists the install-cache plugin folder path, whose resolved
// place is real (the walk resolved its marketplace folder and saw that the
// plugin folder is no symlink), and opens its version folders relative to
// it: names are all its entries, versions its non-hidden child folders in
// name order, each resolved by name. The folder itself is opened without
// following a symlink, and so is each version folder, so what is opened is
// what the names say. ok is false, with nothing left open, when any of that
// cannot be done or a version is a symlink: the caller then does it by path.
func openVersions(path, real string) (names []string, versions []*rootDir, ok bool) {
	if !heldOpen {
		return nil, nil, false
	}
	pfd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, false
	}
	defer unix.Close(pfd)
	buf := make([]byte, 8192)
	for {
		n, err := unix.ReadDirent(pfd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, false
		}
		if n == 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	slices.Sort(names)
	giveUp := func() ([]string, []*rootDir, bool) {
		for _, d := range versions {
			d.close()
		}
		return nil, nil, false
	}
	for _, name := range names {
		if strings.HasPrefix(name, ".") {
			continue
		}
		fd, err := unix.Openat(pfd, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		switch {
		case err == nil:
			versions = append(versions, &rootDir{path: filepath.Join(path, name), real: filepath.Join(real, name), h: handle{fd: fd, ok: true}})
			continue
		case err == unix.ENOENT:
			// Gone since the listing: by path it would not be listed.
			continue
		case err != unix.ENOTDIR && err != unix.ELOOP:
			return giveUp()
		}
		// Not a folder, or a symlink: a symlink is followed by path.
		var st unix.Stat_t
		if err := unix.Fstatat(pfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
			return giveUp()
		}
	}
	return names, versions, true
}
