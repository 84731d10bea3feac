package hooks_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
	_ "github.com/hookd/hookd/hosts"
)

// projectFiles writes, under root, every file a repository can hold hooks
// in for any profile, each with one hook of event on every reader's format.
func projectFiles(t *testing.T, root, event string) {
	t.Helper()
	group := `{"` + event + `": [{"hooks": [{"type": "command", "command": "true"}]}]}`
	fm := "---\nname: x\nhooks:\n  " + event + ":\n    - hooks:\n        - type: command\n          command: \"true\"\n---\n"
	files := map[string]string{}
	for _, dir := range []string{".claude", ".codex", ".qwen", ".gemini", ".mind", ".factory", ".letta"} {
		files[dir+"/hooks.json"] = `{"hooks": ` + group + `}`
		files[dir+"/settings.json"] = `{"hooks": ` + group + `}`
		files[dir+"/settings.local.json"] = `{"hooks": ` + group + `}`
		files[dir+"/config.toml"] = "[[hooks." + event + "]]\n[[hooks." + event + ".hooks]]\ntype = \"command\"\ncommand = \"true\"\n"
		files[dir+"/agents/x.md"] = fm
		files[dir+"/skills/x/SKILL.md"] = fm
	}
	files[".github/hooks/x.json"] = `{"version": 1, "hooks": {"` + event + `": [{"type": "command", "bash": "true"}]}}`
	files[".github/copilot/settings.json"] = `{"hooks": {"` + event + `": [{"type": "command", "bash": "true"}]}}`
	// Cline: one executable per event, named after it.
	for _, dir := range []string{".clinerules/hooks", ".cline/hooks"} {
		files[dir+"/"+event] = "#!/bin/sh\nexit 0\n"
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestProjectGate_NoProfileLoadsAnUntrustedProjectsHooks runs every
// registered profile over a repository holding hooks in every place any
// profile reads: with the host's explicit "not trusted", no hook from the
// repository loads on any profile; trusted, every profile with a project
// layer loads some (the files are valid, the gate is what held them back).
func TestProjectGate_NoProfileLoadsAnUntrustedProjectsHooks(t *testing.T) {
	for _, name := range hooks.ProfileNames() {
		p, _ := hooks.LookupProfile(name)
		if len(p.Events) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			home, repo := filepath.Join(dir, "home"), filepath.Join(dir, "repo")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			projectFiles(t, repo, p.Events[0].Name)
			fromRepo := func(trusted bool) (n int) {
				e := hooks.New(hooks.Options{Profile: p, Session: hooks.Session{ID: "s", Cwd: repo},
					Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: repo, Cwd: repo,
						ProjectTrusted: trusted, ProjectTrustKnown: true, Managed: filepath.Join(home, "none")}})
				defer e.Close()
				e.Load()
				list, _ := e.List("")
				for _, h := range list {
					if strings.HasPrefix(h.Source.Path, repo+string(filepath.Separator)) {
						n++
					}
				}
				return n
			}
			if n := fromRepo(false); n != 0 {
				t.Fatalf("%d hook(s) of the untrusted repository loaded", n)
			}
			if n := fromRepo(true); p.ProjectDir != "" && n == 0 {
				t.Fatalf("trusted, no hook of the repository loaded: the test's files are not read")
			}
		})
	}
}
