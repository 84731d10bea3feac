//go:build unix

package gemini

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// Gemini CLI skips a system settings file it finds
// ($GEMINI_CLI_SYSTEM_SETTINGS_PATH) when a folder above it may be written
// by group or others, with a warning; one named with --managed is read as
// named.
func TestSystemSettings_SkippedInAFolderOthersMayWrite(t *testing.T) {
	home, open := t.TempDir(), t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	sys := filepath.Join(open, "settings.json")
	if err := os.WriteFile(sys, []byte(`{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo system"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(managed string) ([]string, []hooks.Warning) {
		d := discover(Profile, hooks.DiscoverOptions{Home: home, Managed: managed})
		var out []string
		for _, h := range d.Hooks {
			out = append(out, h.Handler.Command)
		}
		return out, d.Warnings
	}
	t.Setenv(systemSettingsEnv, sys)
	got, warns := load("")
	if len(got) != 0 {
		t.Errorf("system settings in a folder others may write: loaded %q, want nothing", got)
	}
	found := false
	for _, w := range warns {
		found = found || (w.Source == sys && strings.Contains(w.Message, "writable by group or others"))
	}
	if !found {
		t.Errorf("no warning naming %s: %v", sys, warns)
	}
	if got, _ := load(sys); !reflect.DeepEqual(got, []string{"echo system"}) {
		t.Errorf("--managed %s: %q, want the system hook", sys, got)
	}
}

// One file or folder: it must belong to root and not be writable by group
// or others; a missing one passes (there is nothing to read).
func TestPathInsecure(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if why := systemFileInsecure(filepath.Join(dir, "missing.json")); why != "" {
		t.Errorf("a missing file: %q, want none", why)
	}
	if why := pathInsecure(dir, false); !strings.Contains(why, "not a regular file") {
		t.Errorf("a folder where a file should be: %q", why)
	}
	os.Chmod(file, 0o664)
	want := "writable by group or others"
	if os.Getuid() != 0 {
		want = "does not belong to root"
	}
	if why := pathInsecure(file, false); !strings.Contains(why, want) {
		t.Errorf("a group-writable file of uid %d: %q, want %q", os.Getuid(), why, want)
	}
	os.Chmod(file, 0o644)
	if why := pathInsecure(file, false); (os.Getuid() == 0) != (why == "") {
		t.Errorf("a 0644 file of uid %d: %q", os.Getuid(), why)
	}
}
