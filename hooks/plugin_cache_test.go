package hooks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/hookd/hookd/plugins"
)

// A session whose plugins come from the load cache has exactly the hooks a
// session reading the files has: the same keys, sources, handlers, hashes,
// trust (one hook trusted by its hash), warnings and summary, under the
// codex and claude profiles.
func TestPluginCache_SessionIsTheFilesSession(t *testing.T) {
	for _, name := range []string{"codex", "claude"} {
		t.Run(name, func(t *testing.T) {
			p, ok := LookupProfile(name)
			if !ok {
				t.Fatalf("profile %s not registered", name)
			}
			home := t.TempDir()
			installed := filepath.Join(home, "plugins", "cache")
			local := t.TempDir()
			files := map[string]string{}
			for i := range 6 {
				v := filepath.Join(installed, "market", fmt.Sprintf("p%d", i), "1.0.0")
				files[filepath.Join(v, ".codex-plugin", "plugin.json")] = fmt.Sprintf(`{"name": "p%d"}`, i)
				files[filepath.Join(v, ".claude-plugin", "plugin.json")] = fmt.Sprintf(`{"name": "p%d"}`, i)
				files[filepath.Join(v, "hooks", "hooks.json")] = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/check.sh", "timeout": 5}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
			}
			files[filepath.Join(local, "broken", ".codex-plugin", "plugin.json")] = `{"name": "broken"}`
			files[filepath.Join(local, "broken", "hooks", "hooks.json")] = `{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}`
			files[filepath.Join(local, "inline", ".claude-plugin", "plugin.json")] = `{"name": "inline", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`
			files[filepath.Join(local, "missing", ".claude-plugin", "plugin.json")] = `{"name": "missing", "hooks": ["./missing.json", 7]}`
			files[filepath.Join(local, "unparsable", ".codex-plugin", "plugin.json")] = `{"name": "unparsable"}`
			files[filepath.Join(local, "unparsable", "hooks", "hooks.json")] = `{"hooks": `
			// Every field a handler can set, under either profile (what
			// one does not take, it warns about), and a Claude Code "if".
			files[filepath.Join(local, "full", ".codex-plugin", "plugin.json")] = `{"name": "full"}`
			files[filepath.Join(local, "full", ".claude-plugin", "plugin.json")] = `{"name": "full"}`
			files[filepath.Join(local, "full", "hooks", "hooks.json")] = fullPluginHooks
			files[filepath.Join(local, "if", ".claude-plugin", "plugin.json")] = `{"name": "if"}`
			files[filepath.Join(local, "if", ".codex-plugin", "plugin.json")] = `{"name": "if"}`
			files[filepath.Join(local, "if", "hooks", "hooks.json")] = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}}`
			for path, body := range files {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			// The cache keeps nothing changed in its last moments.
			time.Sleep(150 * time.Millisecond)
			disc := DiscoverOptions{Home: home, PluginDirs: []string{installed, local}, DataHome: t.TempDir()}
			var wantHooks []*Hook
			session := func(cache string, state []byte) (Summary, []HookInfo, []Warning) {
				t.Helper()
				d := disc
				d.PluginCache, d.StateOverrides = cache, state
				e := New(Options{Profile: p, Session: Session{ID: "s", Cwd: t.TempDir()}, Discover: d})
				defer e.Close()
				sum, err := e.LoadChecked()
				if err != nil {
					t.Fatal(err)
				}
				plugins.WaitCacheWrites()
				list, warns := e.List("")
				// Every hook whole, its matcher and hash's makings too.
				hooks, _ := e.snapshot()
				if wantHooks == nil {
					wantHooks = hooks
				} else if !sameParse(hooks, nil, wantHooks, nil) {
					t.Errorf("the hooks differ from the files' hooks in more than their list shows")
				}
				return sum, list, warns
			}
			_, first, _ := session("", nil)
			if len(first) < 12 {
				t.Fatalf("only %d hooks: the tree is not what the test means", len(first))
			}
			state, err := json.Marshal(map[string]any{first[0].Key: map[string]any{"trusted_hash": first[0].Hash}})
			if err != nil {
				t.Fatal(err)
			}
			wantHooks = nil
			wantSum, want, wantWarns := session("", state)
			if want[0].Trust != TrustTrusted || len(wantWarns) == 0 {
				t.Fatalf("trust %q, %d warnings: the tree is not what the test means", want[0].Trust, len(wantWarns))
			}
			cache := t.TempDir()
			for _, load := range []string{"cold", "warm", "warm again"} {
				hits, _, _ := plugins.CacheStats()
				taken := parsesTaken.Load()
				sum, got, warns := session(cache, state)
				hitsAfter, _, _ := plugins.CacheStats()
				if load != "cold" && hitsAfter-hits != 12 {
					t.Errorf("%s: %d plugin folders from the cache, want all 12", load, hitsAfter-hits)
				}
				// Each plugin's parse too: Codex takes every folder with a
				// manifest of either host (12), Claude Code those with its
				// own (11), but for the one with an "if", whose matcher is
				// more than its text.
				wantTaken := map[string]int64{"codex": 12, "claude": 10}[name]
				if load == "cold" {
					wantTaken = 0
				}
				if n := parsesTaken.Load() - taken; n != wantTaken {
					t.Errorf("%s: %d plugins' parse from the cache, want %d", load, n, wantTaken)
				}
				if !reflect.DeepEqual(sum, wantSum) {
					t.Errorf("%s cache: summary %+v, want %+v", load, sum, wantSum)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s cache: hooks differ:\n got %+v\nwant %+v", load, got, want)
				}
				if !reflect.DeepEqual(warns, wantWarns) {
					t.Errorf("%s cache: warnings differ:\n got %+v\nwant %+v", load, warns, wantWarns)
				}
			}
		})
	}
}

// fullPluginHooks sets every field a handler of each kind can have.
const fullPluginHooks = `{"hooks": {
  "PreToolUse": [
    {"matcher": "Edit|Wri.*", "sequential": true, "hooks": [
      {"type": "command", "command": "${PLUGIN_ROOT}/a.sh", "commandWindows": "a.cmd", "timeout": 7, "async": true,
       "statusMessage": "checking", "additionalContextLimit": 300, "onFailure": "block", "asyncRewake": true, "shell": "bash"},
      {"type": "command", "command": "prog", "args": ["x", "${CLAUDE_PLUGIN_ROOT}/y"]},
      {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"path": "${tool_input.file_path}"}, "timeout": 3},
      {"type": "http", "url": "http://127.0.0.1:9/h", "headers": {"X": "1"}},
      {"type": "prompt", "prompt": "is it fine?"},
      {"type": "command"}
    ]}
  ],
  "Stop": [{"hooks": [{"type": "command", "command": "true", "unknownField": 1}]}],
  "NoSuchEvent": []
}}`
