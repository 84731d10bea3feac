// Package regfile is how hookd opens every file at a path that a hook, a
// project, a plugin or another process can create: configuration files,
// CLAUDE_ENV_FILEs, spilled output, recordings. Any of them can be a FIFO, a
// device (a link to /dev/zero), a socket or a file of any size. A plain open
// of a FIFO waits for ever for the other end, and reading /dev/zero never
// ends; here the open never waits, the opened file, not the path, is checked
// to be a regular file before a byte is read or written, and reads are
// bounded, so swapping the file between a check and the open changes
// nothing. A test in this package fails when code elsewhere opens such paths
// another way (scan_test.go).
package regfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// ErrNotRegular is the error for a path that names something other than a
// regular file (a directory, FIFO, device or socket).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error for a file larger than the bound it is read with.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading without waiting on a FIFO's writer, and returns
// it only if what was opened is a regular file.
func Open(path string) (*os.File, error) {
	return open(path, os.O_RDONLY, 0)
}

// OpenNoFollow is Open for a path whose last component must not be a
// symlink: one planted there is refused, not followed (where the system can
// tell, NoFollowFlag).
func OpenNoFollow(path string) (*os.File, error) {
	return open(path, os.O_RDONLY|NoFollowFlag, 0)
}

// OpenAppend opens path for appending, creating it (with perm) when it does
// not exist, without waiting on a FIFO's reader, and returns it only if what
// was opened is a regular file. A FIFO with a reader, a device or a socket is
// refused after the open, before anything is written.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

func open(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|OpenFlag, perm)
	if err != nil {
		if isNoReader(err) {
			// O_WRONLY|O_NONBLOCK on a FIFO nobody reads.
			return nil, fmt.Errorf("%w (named pipe)", ErrNotRegular)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		if fi.IsDir() {
			return nil, errors.New("is a directory")
		}
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, typeName(fi.Mode()))
	}
	return f, nil
}

// typeName names a file type the way a message to a person should.
func typeName(m os.FileMode) string {
	switch {
	case m&os.ModeNamedPipe != 0:
		return "named pipe"
	case m&os.ModeSocket != 0:
		return "socket"
	case m&os.ModeCharDevice != 0:
		return "character device"
	case m&os.ModeDevice != 0:
		return "device"
	case m&os.ModeSymlink != 0:
		return "symbolic link"
	}
	return m.Type().String()
}

// ReadFile reads the regular file at path, refusing anything else and any
// file larger than max bytes (also one that grows past max while it is read).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, max)
}

// ReadAll reads what is left of f, refusing more than max bytes: it never
// holds more than max+1 bytes of a file that grows while it is read.
func ReadAll(f *os.File, max int64) ([]byte, error) {
	tooLarge := fmt.Errorf("%w: larger than %s", ErrTooLarge, size(max))
	fi, err := f.Stat()
	if err == nil && fi.Size() > max {
		return nil, tooLarge
	}
	if err != nil || fi.Size() == 0 {
		// Size unknown (or a file that says 0, as /proc's do): read as it
		// comes.
		data, err := io.ReadAll(io.LimitReader(f, max+1))
		if err == nil && int64(len(data)) > max {
			return nil, tooLarge
		}
		return data, err
	}
	// The file's size, and a byte more to see its end in the same read,
	// read at once rather than grown into.
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > max {
			return nil, tooLarge
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			// It grew since the stat: room for more, never past max+1.
			data = slices.Grow(data, int(min(int64(cap(data)), max+1-int64(len(data)))))
		}
	}
}

// size writes a bound in MiB when it is a whole number of them, else in bytes.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
