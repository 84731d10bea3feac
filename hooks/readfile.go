package hooks

import "github.com/hookd/hookd/internal/regfile"

// maxConfigSize bounds what is read of a hooks.json, config.toml or
// requirements.toml: real ones are kilobytes, and a config folder must not be
// able to exhaust hookd's memory.
const maxConfigSize = 16 << 20

// ReadConfigFile reads a regular file of at most maxConfigSize bytes. Anything
// else is refused, and the file that was opened is what is checked (without
// waiting on a FIFO's writer): a FIFO named hooks.json, even one swapped in
// after a check, would block discovery, and with it initialize, forever.
func ReadConfigFile(path string) ([]byte, error) {
	return regfile.ReadFile(path, maxConfigSize)
}
