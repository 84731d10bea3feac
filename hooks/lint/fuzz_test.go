package lint_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/lint"
)

// FuzzCheck: whatever a hooks file holds, check reports and never panics,
// under every profile whose files have this shape.
func FuzzCheck(f *testing.F) {
	for _, seed := range []string{
		`{"hooks": {"PreToolUse": [{"matcher": "bash|", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/x.sh"}]}]}}`,
		`{"hooks": {"Stop": [{"matcher": 3, "hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\"}'", "timeout": 1e9}]}]}}`,
		`{"PreToolUse": []}`,
		`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "$(("}]}]}}`,
		`[1, 2`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"codex", "claude"} {
			p, _ := hooks.LookupProfile(name)
			e := hooks.New(hooks.Options{Profile: p, Session: hooks.Session{ID: "s", Cwd: dir}, Discover: hooks.DiscoverOptions{Home: dir}})
			if _, err := e.LoadChecked(); err == nil {
				list, warnings := e.List("")
				for _, d := range lint.Check(p, list, warnings, []string{filepath.Join(dir, "hooks.json"), filepath.Join(dir, "settings.json")}) {
					if d.Severity != hooks.SeverityError && d.Severity != hooks.SeverityWarning {
						t.Errorf("diagnostic without a severity: %v", d)
					}
				}
			}
			e.Close()
		}
	})
}
