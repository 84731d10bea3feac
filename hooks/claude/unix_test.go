//go:build unix

package claude

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestClaudeDiscover_ASettingsFIFODoesNotHangDiscovery(t *testing.T) {
	root := claudeFiles(t, nil)
	if err := syscall.Mkfifo(filepath.Join(root, "home", "settings.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	e, _ := claudeEngine(t, root, nil)
	_, warns := e.List("")
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "not a regular file") {
		t.Fatalf("warnings %+v", warns)
	}
}
