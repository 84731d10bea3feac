package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeClaudeJSON(t *testing.T, home, doc string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, claudeJSONName), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestProjectTrust_AFolderAboveCountsOnlyWithinTheRepository(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, c := range []struct {
		name, trusted string
		want          bool
	}{
		{"the project root", repo, true},
		{"a folder between cwd and root", filepath.Join(repo, "a"), true},
		{"a folder above the repository", top, false},
		{"nothing", "/nowhere", false},
	} {
		writeClaudeJSON(t, home, `{"projects": {"`+c.trusted+`": {"hasTrustDialogAccepted": true}}}`)
		rec, err := projectTrust{}.Lookup(home, sub, repo)
		if err != nil || rec.Trusted != c.want {
			t.Errorf("%s: Lookup = %+v, %v; want trusted %v", c.name, rec, err, c.want)
		}
	}
}

func TestProjectTrust_OutsideARepositoryAnyFolderAboveCounts(t *testing.T) {
	top := t.TempDir()
	cwd := filepath.Join(top, "x", "y")
	if err := os.MkdirAll(cwd, 0o700); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	writeClaudeJSON(t, home, `{"projects": {"`+top+`": {"hasTrustDialogAccepted": true}}}`)
	rec, err := projectTrust{}.Lookup(home, cwd, cwd)
	if err != nil || !rec.Trusted || rec.Dir != top {
		t.Errorf("Lookup = %+v, %v; want trusted by %s", rec, err, top)
	}
}

func TestProjectTrust_SetKeepsEveryOtherKey(t *testing.T) {
	home := t.TempDir()
	writeClaudeJSON(t, home, "{\n  \"theme\": \"dark\",\n  \"projects\": {\"/a.b\": {\"allowedTools\": [\"x\"]}}\n}\n")
	if _, err := (projectTrust{}).Set(home, "/a.b", true); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(home, claudeJSONName))
	want := "{\n  \"theme\": \"dark\",\n  \"projects\": {\"/a.b\": {\"allowedTools\": [\"x\"],\"hasTrustDialogAccepted\":true}}\n}\n"
	if string(data) != want {
		t.Errorf("file = %s\nwant %s", data, want)
	}
	rec, err := projectTrust{}.Lookup(home, "/a.b", "/a.b")
	if err != nil || !rec.Trusted {
		t.Errorf("Lookup after Set = %+v, %v", rec, err)
	}
}

func TestProjectTrust_SetRefusesABrokenFile(t *testing.T) {
	home := t.TempDir()
	writeClaudeJSON(t, home, `{"projects": `)
	_, err := projectTrust{}.Set(home, "/p", true)
	if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("Set on broken file: %v", err)
	}
	data, _ := os.ReadFile(filepath.Join(home, claudeJSONName))
	if string(data) != `{"projects": ` {
		t.Errorf("broken file changed: %s", data)
	}
}
