package hooks

import (
	"path/filepath"
	"strings"
	"testing"
)

// Config files that are FIFOs are refused without being waited on: reading
// one would block initialize or hooks/reload, on the reader, for ever.

func TestMirriConfig_AFIFOIsRefusedNotWaitedOn(t *testing.T) {
	t.Setenv(mirriRewriteEnv, "")
	home := t.TempDir()
	if err := mkfifo(filepath.Join(home, "config.toml")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	d := discoverMirri(Mirri, DiscoverOptions{Home: home})
	if len(d.Fatal) != 1 || !strings.Contains(d.Fatal[0].Error(), "not a regular file") {
		t.Fatalf("fatal %v, want config.toml refused as not a regular file", d.Fatal)
	}
}

func TestMindConfigProfile_AFIFOConfigIsNotWaitedOn(t *testing.T) {
	home := t.TempDir()
	if err := mkfifo(filepath.Join(home, "config.toml")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	e := mindEngine(t, nil, Options{Discover: DiscoverOptions{Home: home, ConfigProfile: "work"}})
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("hooks from a FIFO: %+v", list)
	}
}
