package hooks

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// maxConfigSize bounds what is read of a hooks.json, config.toml or
// requirements.toml: real ones are kilobytes, and a config folder must not be
// able to exhaust hookd's memory.
const maxConfigSize = 16 << 20

// ReadConfigFile reads a regular file of at most maxConfigSize bytes. Anything
// else is refused before it is opened: reading a FIFO named hooks.json would
// block discovery, and with it initialize, forever.
func ReadConfigFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, errors.New("is a directory")
	case !fi.Mode().IsRegular():
		return nil, errors.New("not a regular file")
	case fi.Size() > maxConfigSize:
		return nil, fmt.Errorf("larger than %d MiB", maxConfigSize>>20)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may grow between Stat and Read; never read past the bound.
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err == nil && len(data) > maxConfigSize {
		err = fmt.Errorf("larger than %d MiB", maxConfigSize>>20)
	}
	return data, err
}
