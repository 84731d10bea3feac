//go:build unix

package cline

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestCommand_AFIFOIsSkippedWithoutBlocking(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", root)
	dir := filepath.Join(root, "home", "hooks")
	os.MkdirAll(dir, 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "PreToolUse"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: root},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home")}})
	defer e.Close()
	e.Load()
	// ReadDir reports a FIFO as not regular: it is no hook file.
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("a FIFO became a hook: %v", list)
	}
}
