//go:build unix

package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestDiscover_FIFONamedHooksJSONWarnsInsteadOfHanging(t *testing.T) {
	home := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(home, "hooks.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	hooks, warns := Discover(codexProfile(), DiscoverOptions{Home: home})
	if len(hooks) != 0 || len(warns) != 1 || !strings.Contains(warns[0].Message, "not a regular file") {
		t.Fatalf("hooks %v, warnings %+v", hooks, warns)
	}
}

func TestDiscover_OversizedConfigWarnsAndIsNotRead(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, maxConfigSize+1); err != nil {
		t.Fatal(err)
	}
	_, warns := Discover(codexProfile(), DiscoverOptions{Home: home})
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "larger than 16 MiB") {
		t.Fatalf("warnings %+v", warns)
	}
}
