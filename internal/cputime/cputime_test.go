package cputime

import "testing"

// Work done shows in the figure: it never goes back, and a busy loop adds.
func TestSelf_GrowsWithWork(t *testing.T) {
	before := Self()
	if before <= 0 {
		t.Fatalf("Self() = %v before any work", before)
	}
	x := 0
	for Self()-before <= 0 {
		for i := range 1_000_000 {
			x ^= i
		}
	}
	_ = x
}
