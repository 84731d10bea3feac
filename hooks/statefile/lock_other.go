//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package statefile

// lockFile does not lock on this platform (Windows and others): writes stay
// atomic, but two processes recording hook state at the same instant may lose
// one of the two updates.
func lockFile(path string) (func(), error) {
	return func() {}, nil
}
