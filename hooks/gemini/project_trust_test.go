package gemini

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// trustedFolders.json as Gemini CLI reads it: the longest entry covering
// the working directory decides; TRUST_PARENT covers the folder above.
func TestProjectTrust_LongestEntryDecides(t *testing.T) {
	for _, k := range []string{trustedFoldersEnv, "GEMINI_RESTRICTED_MODE", "GEMINI_CLI_TRUST_WORKSPACE"} {
		t.Setenv(k, "")
	}
	home, base := t.TempDir(), t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	a, b, c := filepath.Join(base, "a"), filepath.Join(base, "a", "b"), filepath.Join(base, "c", "d")
	for _, d := range []string{a, b, c} {
		os.MkdirAll(d, 0o755)
	}
	writeFile(t, filepath.Join(home, trustedFoldersName), `{
  "`+a+`": "TRUST_FOLDER",
  "`+b+`": "DO_NOT_TRUST",
  "`+c+`": "TRUST_PARENT",
  "`+base+`/x": "SOMETHING_ELSE"
}`)
	for _, tc := range []struct {
		cwd            string
		found, trusted bool
	}{
		{a, true, true},
		{b, true, false},
		{filepath.Join(b, "deeper"), true, false},
		{filepath.Join(base, "c"), true, true}, // TRUST_PARENT of c/d covers c
		{filepath.Join(base, "elsewhere"), false, false},
	} {
		rec, err := projectTrust{}.Lookup(home, tc.cwd, tc.cwd)
		if err != nil || rec.Found != tc.found || rec.Trusted != tc.trusted {
			t.Errorf("%s: found %v trusted %v (%v), want %v %v", tc.cwd, rec.Found, rec.Trusted, err, tc.found, tc.trusted)
		}
	}
	// The environment comes first; folder trust turned off trusts all.
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
	if rec, _ := (projectTrust{}).Lookup(home, b, b); !rec.Found || !rec.Trusted {
		t.Errorf("GEMINI_CLI_TRUST_WORKSPACE=true: %+v", rec)
	}
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "")
	t.Setenv("GEMINI_RESTRICTED_MODE", "true")
	if rec, _ := (projectTrust{}).Lookup(home, a, a); !rec.Found || rec.Trusted {
		t.Errorf("GEMINI_RESTRICTED_MODE=true: %+v", rec)
	}
	t.Setenv("GEMINI_RESTRICTED_MODE", "")
	writeFile(t, filepath.Join(home, settingsName), `{"security": {"folderTrust": {"enabled": false}}}`)
	if rec, _ := (projectTrust{}).Lookup(home, b, b); !rec.Found || !rec.Trusted {
		t.Errorf("folder trust off: %+v", rec)
	}
}

// Set writes the CLI's own levels and keeps the other entries.
func TestProjectTrust_SetKeepsOtherEntries(t *testing.T) {
	t.Setenv(trustedFoldersEnv, "")
	home := t.TempDir()
	file := filepath.Join(home, trustedFoldersName)
	writeFile(t, file, `{"/other": "TRUST_PARENT"}`)
	if _, err := (projectTrust{}).Set(home, "/w/my.proj", false); err != nil {
		t.Fatal(err)
	}
	if _, err := (projectTrust{}).Set(home, "/w/x", true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if want := `{"/other": "TRUST_PARENT","/w/my.proj":"DO_NOT_TRUST","/w/x":"TRUST_FOLDER"}`; string(got) != want {
		t.Errorf("file:\n%s\nwant\n%s", got, want)
	}
}

// A folder the record marks DO_NOT_TRUST loads no settings hooks (system,
// user, workspace), as Gemini CLI (checked with the real CLI); with no
// answer and no entry the user's hooks load and the workspace's do not.
func TestProjectTrust_RecordDeclinedLoadsNoSettingsHooks(t *testing.T) {
	for _, k := range []string{trustedFoldersEnv, "GEMINI_RESTRICTED_MODE", "GEMINI_CLI_TRUST_WORKSPACE"} {
		t.Setenv(k, "")
	}
	home, project := t.TempDir(), t.TempDir()
	hook := func(cmd string) string {
		return `{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "` + cmd + `"}]}]}}`
	}
	writeFile(t, filepath.Join(home, settingsName), hook("echo user"))
	writeFile(t, filepath.Join(project, ".gemini", settingsName), hook("echo workspace"))
	commands := func() []string {
		e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project}, Discover: hooks.DiscoverOptions{
			Home: home, Managed: filepath.Join(home, "no-system.json"), ProjectRoot: project, Cwd: project}})
		t.Cleanup(e.Close)
		e.Load()
		list, _ := e.List("")
		var out []string
		for _, h := range list {
			out = append(out, h.Handler.Command)
		}
		return out
	}
	if got := commands(); !reflect.DeepEqual(got, []string{"echo user"}) {
		t.Errorf("no entry: %q", got)
	}
	writeFile(t, filepath.Join(home, trustedFoldersName), `{"`+project+`": "TRUST_FOLDER"}`)
	if got := commands(); !reflect.DeepEqual(got, []string{"echo user", "echo workspace"}) {
		t.Errorf("TRUST_FOLDER: %q", got)
	}
	writeFile(t, filepath.Join(home, trustedFoldersName), `{"`+project+`": "DO_NOT_TRUST"}`)
	if got := commands(); len(got) != 0 {
		t.Errorf("DO_NOT_TRUST: %q, want none", got)
	}
}
