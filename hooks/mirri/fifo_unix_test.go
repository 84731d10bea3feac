//go:build unix

package mirri

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestMirriConfig_AFIFOIsRefusedNotWaitedOn(t *testing.T) {
	// Reading a FIFO named config.toml would block initialize for ever.
	t.Setenv(mirriRewriteEnv, "")
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "config.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := discoverMirri(Profile, hooks.DiscoverOptions{Home: home})
	if len(d.Fatal) != 1 || !strings.Contains(d.Fatal[0].Error(), "not a regular file") {
		t.Fatalf("fatal %v, want config.toml refused as not a regular file", d.Fatal)
	}
}
