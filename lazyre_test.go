package main

import (
	"testing"

	"github.com/hookd/hookd/internal/lazyre"
)

// Every pattern the binary compiles on first use compiles: a typo in one
// would otherwise panic only when a hook first needs it.
func TestEveryLazyPatternCompiles(t *testing.T) {
	n, expr, err := lazyre.CompileAll()
	if err != nil {
		t.Fatalf("%q does not compile: %v", expr, err)
	}
	// The profiles' own patterns are all registered (a build that compiled
	// them at start-up again would have none).
	if n < 30 {
		t.Errorf("%d patterns registered, want the profiles' 30 and more", n)
	}
}
