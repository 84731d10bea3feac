package gemini

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// geminiEngine runs the gemini profile with home as the user's .gemini
// folder and project as the trusted workspace and session folder.
func geminiEngine(t *testing.T, home, project string) *hooks.Engine {
	t.Helper()
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project},
		Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: project, Cwd: project, ProjectTrusted: true,
			Managed: filepath.Join(home, "no-system.json")}})
	t.Cleanup(e.Close)
	e.Load()
	return e
}

func runPrompt(t *testing.T, e *hooks.Engine, cwd string) *hooks.Result {
	t.Helper()
	res, err := e.Run(context.Background(), "BeforeAgent", []byte(`{"prompt": "hi", "cwd": `+quoteJSON(cwd)+`}`), "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// A benign user extension whose command uses "${workspacePath}" must not
// run what the name of the workspace folder says: a repository cloned as
// proj$(touch PWNED) would otherwise run the touch, double quotes or not.
func TestSecurity_WorkspaceFolderNamedWithShellSyntaxDoesNotRunThroughAnExtensionsWorkspacePath(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	out := filepath.Join(dir, "seen")
	write(t, filepath.Join(home, "extensions", "ext", "gemini-extension.json"), `{"name": "ext", "version": "1"}`)
	write(t, filepath.Join(home, "extensions", "ext", "hooks", "hooks.json"),
		`{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "printf %s \"${workspacePath}\" > `+out+`"}]}]}}`)

	evil := filepath.Join(dir, "proj$(touch PWNED)")
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	e := geminiEngine(t, home, evil)
	runPrompt(t, e, evil)
	if _, err := os.Stat(filepath.Join(evil, "PWNED")); err == nil {
		t.Fatal("the folder's name ran as a command")
	}
	if !slices.ContainsFunc(e.Warnings(), func(w hooks.Warning) bool {
		return strings.Contains(w.Message, "${workspacePath}") && strings.Contains(w.Message, "treats specially")
	}) {
		t.Fatalf("no warning says why the hook was refused: %+v", e.Warnings())
	}

	// A plain folder is pasted raw, as Gemini CLI does.
	plain := filepath.Join(dir, "proj")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	runPrompt(t, geminiEngine(t, home, plain), plain)
	if got, _ := os.ReadFile(out); string(got) != plain {
		t.Fatalf("${workspacePath} reached the hook as %q, want %q", got, plain)
	}
}

// $GEMINI_PROJECT_DIR in the command text reaches the hook as Gemini CLI
// pastes a plain path: raw, so "$GEMINI_PROJECT_DIR" is the path without
// quotes. A cwd holding shell syntax is refused, never pasted.
func TestSecurity_GeminiProjectDirIsPastedRawWhenPlainAndRefusedWhenItHoldsShellSyntax(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	out := filepath.Join(dir, "seen")
	write(t, filepath.Join(home, "settings.json"),
		`{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "printf %s \"$GEMINI_PROJECT_DIR\" > `+out+`"}]}]}}`)
	plain := filepath.Join(dir, "proj")
	evil := filepath.Join(dir, "proj$(touch PWNED)")
	for _, d := range []string{plain, evil} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	runPrompt(t, geminiEngine(t, home, plain), plain)
	if got, _ := os.ReadFile(out); string(got) != plain {
		t.Fatalf("\"$GEMINI_PROJECT_DIR\" reached the hook as %q, want %q", got, plain)
	}
	res := runPrompt(t, geminiEngine(t, home, evil), evil)
	if _, err := os.Stat(filepath.Join(evil, "PWNED")); err == nil {
		t.Fatal("the cwd's name ran as a command")
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Status != hooks.StatusFailed || res.Hooks[0].Error == nil || !strings.Contains(*res.Hooks[0].Error, "${GEMINI_PROJECT_DIR}") {
		t.Fatalf("the refused hook: %+v", res.Hooks)
	}
}
