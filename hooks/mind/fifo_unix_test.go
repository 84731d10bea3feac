//go:build unix

package mind

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestMindConfigProfile_AFIFOConfigIsNotWaitedOn(t *testing.T) {
	// The config profile layer reads config.toml again; a FIFO there would
	// block initialize for ever.
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := mindEngine(t, nil, hooks.Options{Discover: hooks.DiscoverOptions{Home: home, ConfigProfile: "work"}})
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("hooks from a FIFO: %+v", list)
	}
}
