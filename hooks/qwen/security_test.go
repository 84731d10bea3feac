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

// An extension folder whose name holds shell syntax must not run through
// a command that uses "${CLAUDE_PLUGIN_ROOT}"; a plain folder is pasted raw.
func TestSecurity_ExtensionFolderNamedWithShellSyntaxDoesNotRunThroughClaudePluginRoot(t *testing.T) {
	for _, tc := range []struct {
		folder string
		runs   bool
	}{{"ext$(touch PWNED)", false}, {"ext", true}} {
		t.Run(tc.folder, func(t *testing.T) {
			dir := t.TempDir()
			home, cwd := filepath.Join(dir, "home"), filepath.Join(dir, "cwd")
			ext := filepath.Join(home, "extensions", tc.folder)
			out := filepath.Join(dir, "seen")
			for _, d := range []string{cwd, filepath.Join(ext, "hooks")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			files := map[string]string{
				filepath.Join(ext, "qwen-extension.json"): `{"name": "ext"}`,
				filepath.Join(ext, "hooks", "hooks.json"): `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "printf %s \"${CLAUDE_PLUGIN_ROOT}\" > ` + out + `"}]}]}}`,
			}
			for p, text := range files {
				if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: cwd},
				Discover: hooks.DiscoverOptions{Home: home, Cwd: cwd, Managed: filepath.Join(home, "no-system.json")}})
			t.Cleanup(e.Close)
			e.Load()
			if _, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt": "hi"}`), ""); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(cwd, "PWNED")); err == nil {
				t.Fatal("the extension folder's name ran as a command")
			}
			got, err := os.ReadFile(out)
			if tc.runs && string(got) != ext {
				t.Fatalf("${CLAUDE_PLUGIN_ROOT} reached the hook as %q, want %q", got, ext)
			}
			if !tc.runs && err == nil {
				t.Fatalf("the refused hook ran: %q", got)
			}
		})
	}
}
