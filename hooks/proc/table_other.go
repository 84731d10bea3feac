//go:build unix && !linux

package proc

import "os"

// tableFile is the watchdog's table: a temporary file, removed at once, so
// that only hookd and the watchdog (by descriptor) can reach it.
func tableFile() (*os.File, error) {
	f, err := os.CreateTemp("", "hookd-guard-table-*")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
