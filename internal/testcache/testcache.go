// Package testcache keeps a test binary's plugin load cache out of the user's
// cache folder: the suites that start sessions in process (rpc, internal/cli)
// and the end-to-end suite, whose hookd children inherit the setting, each
// get a cache folder of their own that is removed when they end.
package testcache

import (
	"fmt"
	"os"
	"testing"

	"github.com/adrg/xdg"
)

// Main runs m with $XDG_CACHE_HOME set to a temporary folder (and xdg's
// folders read again, so this process sees it too), then removes it.
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "hookd-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	xdg.Reload()
	return m.Run()
}
