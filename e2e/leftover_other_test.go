//go:build !linux

package e2e

// noLeftovers checks for leftover processes only on Linux, where the test
// binary can adopt its orphans.
type noLeftovers struct{ m interface{ Run() int } }

func (n noLeftovers) Run() int { return n.m.Run() }
