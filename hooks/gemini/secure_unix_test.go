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
	if !warned(warns, sys, "writable by group or others") {
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

// The system defaults (system-defaults.json beside the system settings, or
// $GEMINI_CLI_SYSTEM_DEFAULTS_PATH) are Gemini CLI's lowest settings layer:
// their hooks run before the user's, their hooksConfig.enabled yields to
// any other file's, a folder that is not trusted loads none of them, and a
// file others may write is skipped with a warning, as the system settings.
func TestSystemDefaults_TheLowestLayer(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	write := func(path, doc string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defaults := filepath.Join(dir, "system-defaults.json")
	t.Setenv(systemSettingsEnv, filepath.Join(dir, "settings.json"))
	t.Setenv(systemDefaultsEnv, "")
	load := func(opts hooks.DiscoverOptions) ([]string, []hooks.Warning, bool) {
		t.Helper()
		opts.Home = home
		d := discover(Profile, opts)
		var out []string
		off := false
		for _, h := range d.Hooks {
			out = append(out, h.Handler.Command)
			off = off || h.Policy == hooks.PolicyHooksDisabled
		}
		return out, d.Warnings, off
	}
	write(defaults, `{"hooksConfig": {"enabled": false}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo defaults"}]}]}}`)
	write(filepath.Join(home, "settings.json"), `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`)

	// In a folder others may write (a test's), the real check skips it.
	got, warns, _ := load(hooks.DiscoverOptions{})
	if !reflect.DeepEqual(got, []string{"echo user"}) {
		t.Errorf("system defaults in a folder others may write: %q, want the user's hook only", got)
	}
	if !warned(warns, defaults, "system defaults") {
		t.Errorf("no warning naming the system defaults %s: %v", defaults, warns)
	}

	// As Gemini CLI reads it where only root may write.
	defer func(c func(string) string) { systemCheck = c }(systemCheck)
	systemCheck = func(string) string { return "" }
	got, _, off := load(hooks.DiscoverOptions{})
	if !reflect.DeepEqual(got, []string{"echo defaults", "echo user"}) || !off {
		t.Errorf("system defaults: %q (off %v), want its hook before the user's, all turned off by its hooksConfig", got, off)
	}
	write(filepath.Join(home, "settings.json"), `{"hooksConfig": {"enabled": true}, "hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`)
	if _, _, off := load(hooks.DiscoverOptions{}); off {
		t.Error("the user's hooksConfig.enabled true did not override the system defaults' false")
	}
	t.Setenv(systemDefaultsEnv, filepath.Join(home, "elsewhere.json"))
	if got, _, _ := load(hooks.DiscoverOptions{}); !reflect.DeepEqual(got, []string{"echo user"}) {
		t.Errorf("$%s names a missing file: %q, want the user's hook only", systemDefaultsEnv, got)
	}
	t.Setenv(systemDefaultsEnv, defaults)
	untrusted := hooks.DiscoverOptions{ProjectRoot: t.TempDir(), ProjectTrustKnown: true}
	if got, _, _ := load(untrusted); len(got) != 0 {
		t.Errorf("a folder that is not trusted: %q, want no settings hooks", got)
	}
}

// warned reports whether a warning about source says text.
func warned(warns []hooks.Warning, source, text string) bool {
	for _, w := range warns {
		if w.Source == source && strings.Contains(w.Message, text) {
			return true
		}
	}
	return false
}
