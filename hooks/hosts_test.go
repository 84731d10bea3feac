package hooks_test

// The engine's tests run with real hosts' profiles, but an internal test
// cannot import them (each host package imports this one). Linking them here,
// in the external test package of the same test binary, registers them, and
// the internal tests look them up by name (codexProfile, sortedProfiles).
import (
	_ "github.com/hookd/hookd/hosts"
)
