package qwen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// qwenProject is a home with no hooks and a repository whose
// .qwen/settings.json runs "touch <pwned>" on UserPromptSubmit.
func qwenProject(t *testing.T) (home, project, pwned string) {
	t.Helper()
	dir := t.TempDir()
	home, project, pwned = filepath.Join(dir, "home"), filepath.Join(dir, "repo"), filepath.Join(dir, "PWNED")
	for _, d := range []string{home, filepath.Join(project, ".qwen")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "touch ` + pwned + `"}]}]}}`
	if err := os.WriteFile(filepath.Join(project, ".qwen", "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, project, pwned
}

// A repository's .qwen/settings.json must not run when the host said the
// project is not trusted (initialize config.project.trusted: false,
// --trust-project=false); a project nobody answered for is read, as Qwen
// Code does with its folder trust off.
func TestSecurity_UntrustedQwenWorkspaceSettingsDoNotRunWhenTheHostSaysNotTrusted(t *testing.T) {
	for _, tc := range []struct {
		name           string
		trusted, known bool
		runs           bool
	}{
		{"host said not trusted", false, true, false},
		{"host said trusted", true, true, true},
		{"nobody answered", false, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, project, pwned := qwenProject(t)
			e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project},
				Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: project, Cwd: project,
					ProjectTrusted: tc.trusted, ProjectTrustKnown: tc.known, Managed: filepath.Join(home, "no-system.json")}})
			t.Cleanup(e.Close)
			e.Load()
			if _, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt": "hi"}`), ""); err != nil {
				t.Fatal(err)
			}
			_, err := os.Stat(pwned)
			if ran := err == nil; ran != tc.runs {
				t.Fatalf("workspace hook ran: %v, want %v", ran, tc.runs)
			}
			st, left := e.Sources()
			if !tc.runs && (st == nil || st.Trusted || len(left) != 1 || left[0].Reason != hooks.ReasonUntrustedProject) {
				t.Fatalf("the left-out workspace settings are not reported: %+v %+v", st, left)
			}
		})
	}
}
