package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// scopedBenchHome writes a Claude Code user folder with n agents and n
// skills, each declaring two hooks in its frontmatter, as real plugins'
// agents do (a PreToolUse guard and a Stop check).
func scopedBenchHome(b *testing.B, n int, withHooks bool) string {
	b.Helper()
	home := b.TempDir()
	block := "hooks:\n  PreToolUse:\n    - matcher: Bash|Edit|Write\n      hooks:\n        - type: command\n          command: \"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh\"\n          timeout: 10\n  Stop:\n    - hooks:\n        - type: command\n          command: echo done\n"
	if !withHooks {
		block = ""
	}
	body := "\nYou are a careful assistant. Follow the project's conventions.\n\n## Steps\n1. Read.\n2. Act.\n"
	write := func(path, text string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range n {
		write(filepath.Join(home, "agents", fmt.Sprintf("agent-%03d.md", i)),
			fmt.Sprintf("---\nname: agent-%03d\ndescription: Use this agent when: task %d needs doing\ntools: Bash, Read, Edit\nmodel: sonnet\n%s---\n%s", i, i, block, body))
		write(filepath.Join(home, "skills", fmt.Sprintf("skill-%03d", i), "SKILL.md"),
			fmt.Sprintf("---\nname: skill-%03d\ndescription: Does task %d\n%s---\n%s", i, i, block, body))
	}
	return home
}

// BenchmarkClaudeDiscover_100Agents100Skills is what initialize spends
// finding hooks in a user folder with 100 agents and 100 skills (400 hooks).
func BenchmarkClaudeDiscover_100Agents100Skills(b *testing.B) {
	benchDiscover(b, scopedBenchHome(b, 100, true), 400)
}

// BenchmarkClaudeDiscover_100Agents100SkillsWithoutHooks is the common case:
// definitions that declare no hooks, whose YAML is then not parsed.
func BenchmarkClaudeDiscover_100Agents100SkillsWithoutHooks(b *testing.B) {
	benchDiscover(b, scopedBenchHome(b, 100, false), 0)
}

func benchDiscover(b *testing.B, home string, want int) {
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "bench", Cwd: b.TempDir()},
		Discover: hooks.DiscoverOptions{Home: home}})
	defer e.Close()
	for b.Loop() {
		sum, err := e.LoadChecked()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Installed != want {
			b.Fatalf("installed %d hooks, want %d", sum.Installed, want)
		}
	}
}

// BenchmarkClaudeDiscover_SameHooksInSettings is the baseline: the same 400
// hooks written in one settings.json.
func BenchmarkClaudeDiscover_SameHooksInSettings(b *testing.B) {
	home := b.TempDir()
	group := `{"matcher": "Bash|Edit|Write", "hooks": [{"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/.claude/hooks/guard.sh %d", "timeout": 10}]}`
	stop := `{"hooks": [{"type": "command", "command": "echo done %d"}]}`
	pre, st := "", ""
	for i := range 200 {
		if i > 0 {
			pre, st = pre+",", st+","
		}
		pre += fmt.Sprintf(group, i)
		st += fmt.Sprintf(stop, i)
	}
	doc := fmt.Sprintf(`{"hooks": {"PreToolUse": [%s], "Stop": [%s]}}`, pre, st)
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(doc), 0o644); err != nil {
		b.Fatal(err)
	}
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "bench", Cwd: b.TempDir()},
		Discover: hooks.DiscoverOptions{Home: home}})
	defer e.Close()
	for b.Loop() {
		sum, err := e.LoadChecked()
		if err != nil {
			b.Fatal(err)
		}
		if sum.Installed != 400 {
			b.Fatalf("installed %d hooks, want 400", sum.Installed)
		}
	}
}
