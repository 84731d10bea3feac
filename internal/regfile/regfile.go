// Package regfile reads small configuration files without ever blocking on
// something that is not a file. A FIFO, a device or a socket put where a
// hooks.json or config.toml is expected would block a plain open or read for
// ever (and with it initialize, reload or a trust write); here the open never
// waits, and the opened file, not the path, is checked before a byte is read,
// so swapping the file between a check and the open changes nothing.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrNotRegular is the error for a path that names something other than a
// regular file (a directory, FIFO, device or socket).
var ErrNotRegular = errors.New("not a regular file")

// Open opens path for reading without waiting on a FIFO's writer, and returns
// it only if what was opened is a regular file.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|OpenFlag, 0)
	if err != nil {
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
		return nil, fmt.Errorf("%w (%s)", ErrNotRegular, fi.Mode().Type())
	}
	return f, nil
}

// ReadFile reads the regular file at path, refusing anything else and any
// file larger than max bytes (also one that grows past max while it is read).
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := fmt.Errorf("larger than %d MiB", max>>20)
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		return nil, tooLarge
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		return nil, tooLarge
	}
	return data, err
}
