package plugins

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const stopHooks = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`

// writeTree writes files (path relative to dir → content) under dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// loadOne loads the plugin at root with the Codex rule.
func loadOne(t *testing.T, root string) (*Plugin, []Warning) {
	t.Helper()
	ps, warns := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir(), Rule: CodexRule})
	if len(ps) != 1 {
		t.Fatalf("loaded %d plugins, want 1; warnings %v", len(ps), warns)
	}
	return ps[0], warns
}

func sourceKeys(p *Plugin) []string {
	var keys []string
	for _, s := range p.Sources {
		keys = append(keys, s.Key)
	}
	return keys
}

func messages(warns []Warning) string {
	var ms []string
	for _, w := range warns {
		ms = append(ms, w.Message)
	}
	return strings.Join(ms, "\n")
}

func wantWarning(t *testing.T, warns []Warning, parts ...string) {
	t.Helper()
	for _, w := range warns {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w.Message, p)
		}
		if ok {
			return
		}
	}
	t.Errorf("no warning containing %q in:\n%s", parts, messages(warns))
}

func TestLoad_CodexPluginWithDefaultHooksFile(t *testing.T) {
	root := filepath.Join(t.TempDir(), "demo-dir")
	writeTree(t, root, map[string]string{
		".codex-plugin/plugin.json": `{"name": "demo", "version": "1.0.0"}`,
		"hooks/hooks.json":          stopHooks,
	})
	p, warns := loadOne(t, root)
	if len(warns) != 0 {
		t.Errorf("warnings: %s", messages(warns))
	}
	if p.Name != "demo" || p.Marketplace != "local" || p.ID() != "demo@local" || p.Root != root {
		t.Errorf("plugin = %+v", p)
	}
	if got := sourceKeys(p); !reflect.DeepEqual(got, []string{"demo@local:hooks/hooks.json"}) {
		t.Errorf("keys = %q", got)
	}
	if s := p.Sources[0]; s.Path != filepath.Join(root, "hooks", "hooks.json") || string(s.File) != stopHooks || s.Inline != nil {
		t.Errorf("source = %+v", s)
	}
}

func TestLoad_ManifestLookupOrder(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"codex before claude", map[string]string{
			".codex-plugin/plugin.json":  `{"name": "from-codex"}`,
			".claude-plugin/plugin.json": `{"name": "from-claude"}`}, "from-codex"},
		{"claude before cursor", map[string]string{
			".claude-plugin/plugin.json": `{"name": "from-claude"}`,
			".cursor-plugin/plugin.json": `{"name": "from-cursor"}`}, "from-claude"},
		{"cursor alone", map[string]string{".cursor-plugin/plugin.json": `{"name": "from-cursor"}`}, "from-cursor"},
		{"a byte order mark is fine", map[string]string{".codex-plugin/plugin.json": "\xef\xbb\xbf" + `{"name": "bom"}`}, "bom"},
		{"a root plugin.json of another schema is not a manifest", map[string]string{
			"plugin.json":                `{"name": "other-tool", "$schema": "https://example.com/plugin.json"}`,
			".claude-plugin/plugin.json": `{"name": "from-claude"}`}, "from-claude"},
		{"no name: the folder's", map[string]string{".claude-plugin/plugin.json": `{"version": "1"}`}, "folder"},
		{"a name of the wrong type: the folder's", map[string]string{".claude-plugin/plugin.json": `{"name": 7}`}, "folder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "folder")
			writeTree(t, root, tc.files)
			p, _ := loadOne(t, root)
			if p.Name != tc.want {
				t.Errorf("name = %q, want %q", p.Name, tc.want)
			}
		})
	}
}

func TestLoad_HostNameAndMarketplaceWin(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": "demo"}`, "hooks/hooks.json": stopHooks})
	ps, _ := Load(Options{Plugins: []Config{{Root: root, Name: "renamed", Marketplace: "acme"}}, DataHome: t.TempDir(), Rule: CodexRule})
	if len(ps) != 1 || ps[0].ID() != "renamed@acme" || ps[0].Sources[0].Key != "renamed@acme:hooks/hooks.json" {
		t.Fatalf("plugins = %+v", ps)
	}
}

func TestLoad_AgentPluginsRootManifestLoadsNoHooksAndSaysSo(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"plugin.json":               `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "dual"}`,
		".codex-plugin/plugin.json": `{"name": "dual", "hooks": "./hooks/hooks.json"}`,
		"hooks/hooks.json":          stopHooks,
	})
	p, warns := loadOne(t, root)
	if len(p.Sources) != 0 {
		t.Errorf("sources = %q, want none", sourceKeys(p))
	}
	if p.Name != "dual" || p.Manifest != filepath.Join(root, "plugin.json") {
		t.Errorf("plugin = %+v", p)
	}
	wantWarning(t, warns, "loading no hooks for plugin dual@local", "Agent Plugins manifest", "remove it")
}

func TestLoad_HooksEntryForms(t *testing.T) {
	const other = `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi"}]}]}}`
	cases := []struct {
		name     string
		hooks    string // the manifest's "hooks" value; "" leaves it out
		keys     []string
		inline   []string // the Inline bytes of inline sources, in order
		warnings []string
	}{
		{name: "no entry: the default", keys: []string{"p@local:hooks/hooks.json"}},
		{name: "null: the default", hooks: `null`, keys: []string{"p@local:hooks/hooks.json"}},
		{name: "a path replaces the default", hooks: `"./config/other.json"`, keys: []string{"p@local:config/other.json"}},
		{name: "paths replace the default", hooks: `["./config/other.json", "./hooks/hooks.json"]`,
			keys: []string{"p@local:config/other.json", "p@local:hooks/hooks.json"}},
		{name: "a path is cleaned", hooks: `"./config//./other.json"`, keys: []string{"p@local:config/other.json"}},
		{name: "an inline object", hooks: `{"hooks": {"Stop": []}, "description": "d"}`,
			keys: []string{"p@local:plugin.json#hooks[0]"}, inline: []string{`{"Stop": []}`}},
		{name: "an inline event map", hooks: `{"Stop": []}`,
			keys: []string{"p@local:plugin.json#hooks[0]"}, inline: []string{`{"Stop": []}`}},
		{name: "inline objects", hooks: `[{"hooks": {"Stop": []}}, {"hooks": {}}, {"hooks": {"PreToolUse": []}}]`,
			keys: []string{"p@local:plugin.json#hooks[0]", "p@local:plugin.json#hooks[2]"}, inline: []string{`{"Stop": []}`, `{"PreToolUse": []}`}},
		{name: "an empty object turns the default off", hooks: `{}`},
		{name: "an empty hooks object turns the default off", hooks: `{"hooks": {}}`},
		{name: "an inline object with a stray field", hooks: `{"hooks": {"Stop": []}, "extra": 1}`,
			keys: []string{"p@local:plugin.json#hooks[0]"}, inline: []string{`{"Stop": []}`}, warnings: []string{`unknown field "extra" in inline hooks[0]`}},
		{name: "inline hooks that are not an object", hooks: `{"hooks": "./x.json"}`,
			warnings: []string{`inline hooks[0]`, `must be an object`}},
		{name: "a number warns; the default", hooks: `42`, keys: []string{"p@local:hooks/hooks.json"},
			warnings: []string{"expected a string, string array, object, or object array; found a number"}},
		{name: "a bool warns; the default", hooks: `true`, keys: []string{"p@local:hooks/hooks.json"},
			warnings: []string{"found a boolean"}},
		{name: "a mixed array warns; the default", hooks: `["./config/other.json", {"hooks": {}}]`, keys: []string{"p@local:hooks/hooks.json"},
			warnings: []string{"found an array of string and object"}},
		{name: "an array of numbers warns; the default", hooks: `[1, 2]`, keys: []string{"p@local:hooks/hooks.json"},
			warnings: []string{"found an array of number"}},
		{name: "an empty array: the default", hooks: `[]`, keys: []string{"p@local:hooks/hooks.json"}},
		{name: "a path listed twice loads once", hooks: `["./config/other.json", "./config/./other.json"]`,
			keys: []string{"p@local:config/other.json"}, warnings: []string{"already listed"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			manifest := `{"name": "p"}`
			if tc.hooks != "" {
				manifest = `{"name": "p", "hooks": ` + tc.hooks + `}`
			}
			writeTree(t, root, map[string]string{
				".codex-plugin/plugin.json": manifest,
				"hooks/hooks.json":          stopHooks,
				"config/other.json":         other,
			})
			p, warns := loadOne(t, root)
			if got := sourceKeys(p); !reflect.DeepEqual(got, tc.keys) {
				t.Errorf("keys = %q, want %q", got, tc.keys)
			}
			var inline []string
			for _, s := range p.Sources {
				if s.Inline != nil {
					inline = append(inline, string(s.Inline))
					if s.Path != p.Manifest || s.File != nil {
						t.Errorf("inline source %+v: path should be the manifest", s)
					}
				}
			}
			if !reflect.DeepEqual(inline, tc.inline) {
				t.Errorf("inline = %q, want %q", inline, tc.inline)
			}
			for _, w := range tc.warnings {
				wantWarning(t, warns, w)
			}
			if len(tc.warnings) == 0 && len(warns) != 0 {
				t.Errorf("unexpected warnings:\n%s", messages(warns))
			}
		})
	}
}

func TestLoad_PathRules(t *testing.T) {
	cases := []struct {
		name, hooks string
		keys        []string
		warnings    []string
	}{
		{"no ./ prefix", `"config/other.json"`, []string{"p@local:hooks/hooks.json"},
			[]string{`ignoring hooks path "config/other.json"`, `must start with "./"`, "no valid hooks path", "loading the default ./hooks/hooks.json"}},
		{"escaping with ..", `"./../outside.json"`, []string{"p@local:hooks/hooks.json"},
			[]string{`must not contain ".."`, "no valid hooks path"}},
		{".. that would stay inside is refused too", `"./config/../config/other.json"`, []string{"p@local:hooks/hooks.json"},
			[]string{`must not contain ".."`}},
		{"backslash ..", `".\\..\\x.json"`, []string{"p@local:hooks/hooks.json"}, []string{`must start with "./"`}},
		{"./ alone", `"./"`, []string{"p@local:hooks/hooks.json"}, []string{"must name a file"}},
		{"absolute after ./", `".//etc/passwd"`, []string{"p@local:hooks/hooks.json"}, []string{"must be relative"}},
		{"an absolute path", `"/etc/passwd"`, []string{"p@local:hooks/hooks.json"}, []string{`must start with "./"`}},
		{"one valid path: no default", `["./../x.json", "./config/other.json"]`, []string{"p@local:config/other.json"},
			[]string{`must not contain ".."`}},
		{"a missing file is not invalid: no default", `"./config/missing.json"`, nil,
			[]string{"failed to read plugin hooks config ", filepath.Join("config", "missing.json")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{
				".codex-plugin/plugin.json": `{"name": "p", "hooks": ` + tc.hooks + `}`,
				"hooks/hooks.json":          stopHooks,
				"config/other.json":         stopHooks,
			})
			p, warns := loadOne(t, root)
			if got := sourceKeys(p); !reflect.DeepEqual(got, tc.keys) {
				t.Errorf("keys = %q, want %q", got, tc.keys)
			}
			for _, w := range tc.warnings {
				wantWarning(t, warns, w)
			}
			if strings.Contains(tc.name, "no default") && strings.Contains(messages(warns), "no valid hooks path") {
				t.Errorf("the default applied although a path was valid:\n%s", messages(warns))
			}
		})
	}
}

func TestLoad_SymlinkEscapesAreRefused(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	writeTree(t, outside, map[string]string{"evil.json": stopHooks})

	t.Run("manifest path through a symlinked folder", func(t *testing.T) {
		root := filepath.Join(base, "p1")
		writeTree(t, root, map[string]string{
			".codex-plugin/plugin.json": `{"name": "p", "hooks": "./config/evil.json"}`,
			"hooks/hooks.json":          stopHooks,
		})
		symlink(t, outside, filepath.Join(root, "config"))
		p, warns := loadOne(t, root)
		if got := sourceKeys(p); !reflect.DeepEqual(got, []string{"p@local:hooks/hooks.json"}) {
			t.Errorf("keys = %q: the escaping path must be dropped and the default used", got)
		}
		wantWarning(t, warns, `ignoring hooks path "./config/evil.json"`, "outside the plugin root", "symlink")
	})
	t.Run("default hooks file is a symlink out", func(t *testing.T) {
		root := filepath.Join(base, "p2")
		writeTree(t, root, map[string]string{".claude-plugin/plugin.json": `{"name": "p"}`})
		symlink(t, filepath.Join(outside, "evil.json"), filepath.Join(root, "hooks", "hooks.json"))
		p, warns := loadOne(t, root)
		if len(p.Sources) != 0 {
			t.Errorf("keys = %q, want none", sourceKeys(p))
		}
		wantWarning(t, warns, "ignoring hooks file", "outside the plugin root")
	})
	t.Run("a symlink that stays inside is fine", func(t *testing.T) {
		root := filepath.Join(base, "p3")
		writeTree(t, root, map[string]string{
			".codex-plugin/plugin.json": `{"name": "p", "hooks": "./current/hooks.json"}`,
			"v2/hooks.json":             stopHooks,
		})
		symlink(t, "v2", filepath.Join(root, "current"))
		p, warns := loadOne(t, root)
		if got := sourceKeys(p); !reflect.DeepEqual(got, []string{"p@local:current/hooks.json"}) || len(warns) != 0 {
			t.Errorf("keys = %q warnings %s", got, messages(warns))
		}
	})
	t.Run("a symlinked plugin root is resolved first", func(t *testing.T) {
		real := filepath.Join(base, "real")
		writeTree(t, real, map[string]string{".codex-plugin/plugin.json": `{"name": "p"}`, "hooks/hooks.json": stopHooks})
		link := filepath.Join(base, "linked")
		symlink(t, real, link)
		p, warns := loadOne(t, link)
		if p.Root != link || len(p.Sources) != 1 || len(warns) != 0 {
			t.Errorf("plugin %+v warnings %s", p, messages(warns))
		}
	})
}

func TestLoad_BadFiles(t *testing.T) {
	t.Run("malformed manifest: the plugin is skipped", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": `, "hooks/hooks.json": stopHooks})
		ps, warns := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir(), Rule: CodexRule})
		if len(ps) != 0 {
			t.Errorf("plugins = %+v", ps)
		}
		wantWarning(t, warns, "failed to parse plugin manifest "+filepath.Join(root, ".codex-plugin", "plugin.json"))
	})
	t.Run("manifest that is not an object", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `[]`})
		ps, warns := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir(), Rule: CodexRule})
		if len(ps) != 0 {
			t.Errorf("plugins = %+v", ps)
		}
		wantWarning(t, warns, "expected a JSON object")
	})
	t.Run("empty hooks file: skipped without a word", func(t *testing.T) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{}`, "hooks/hooks.json": "  \n"})
		p, warns := loadOne(t, root)
		if len(p.Sources) != 0 || len(warns) != 0 {
			t.Errorf("sources %q warnings %s", sourceKeys(p), messages(warns))
		}
	})
	t.Run("missing root", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "nope")
		ps, warns := Load(Options{Plugins: []Config{{Root: missing}}, Rule: CodexRule})
		if len(ps) != 0 {
			t.Errorf("plugins = %+v", ps)
		}
		wantWarning(t, warns, "skipping plugin "+missing, "no such file or directory")
	})
	t.Run("empty root", func(t *testing.T) {
		ps, warns := Load(Options{Plugins: []Config{{Root: " "}}, Rule: CodexRule})
		if len(ps) != 0 {
			t.Errorf("plugins = %+v", ps)
		}
		wantWarning(t, warns, "without a root folder")
	})
	t.Run("no manifest: hooks/hooks.json under the folder's name", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "bare")
		writeTree(t, root, map[string]string{"hooks/hooks.json": stopHooks})
		p, warns := loadOne(t, root)
		if p.Name != "bare" || p.Manifest != "" || !reflect.DeepEqual(sourceKeys(p), []string{"bare@local:hooks/hooks.json"}) || len(warns) != 0 {
			t.Errorf("plugin %+v warnings %s", p, messages(warns))
		}
	})
	t.Run("no manifest and no hooks file", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "nothing")
		writeTree(t, root, map[string]string{"README.md": "hi"})
		_, warns := loadOne(t, root)
		wantWarning(t, warns, "has no manifest", "it has no hooks")
	})
}

func TestLoad_ClaudeRuleAddsToTheDefault(t *testing.T) {
	load := func(t *testing.T, hooks string) (*Plugin, []Warning) {
		root := t.TempDir()
		writeTree(t, root, map[string]string{
			".claude-plugin/plugin.json": `{"name": "c", "hooks": ` + hooks + `}`,
			"hooks/hooks.json":           stopHooks,
			"extra.json":                 stopHooks,
		})
		ps, warns := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir(), Rule: ClaudeRule})
		if len(ps) != 1 {
			t.Fatalf("plugins %+v warnings %s", ps, messages(warns))
		}
		return ps[0], warns
	}
	p, _ := load(t, `"./extra.json"`)
	if got := sourceKeys(p); !reflect.DeepEqual(got, []string{"c@local:hooks/hooks.json", "c@local:extra.json"}) {
		t.Errorf("keys = %q", got)
	}
	p, _ = load(t, `{}`)
	if got := sourceKeys(p); !reflect.DeepEqual(got, []string{"c@local:hooks/hooks.json"}) {
		t.Errorf(`"hooks": {} under the Claude rule: keys = %q, want the default`, got)
	}
	p, warns := load(t, `["./extra.json", "./hooks/hooks.json"]`)
	if len(p.Sources) != 0 {
		t.Errorf("naming the default again: keys = %q, want none", sourceKeys(p))
	}
	wantWarning(t, warns, "Duplicate hooks file detected", "loading no hooks for plugin c@local")
}

func TestLoad_NoPluginsRuleIsCodexInLoad(t *testing.T) {
	// Load itself treats the zero Rule like Codex's; the caller decides
	// whether a profile loads plugins at all.
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"hooks": {}}`, "hooks/hooks.json": stopHooks})
	ps, _ := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir()})
	if len(ps) != 1 || len(ps[0].Sources) != 0 {
		t.Errorf("plugins %+v", ps)
	}
}

func TestLoad_DisabledPluginLoadsNothing(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": "off", "hooks": 42}`, "hooks/hooks.json": stopHooks})
	no := false
	ps, warns := Load(Options{Plugins: []Config{{Root: root, Enabled: &no}}, Rule: CodexRule})
	if len(ps) != 0 || len(warns) != 0 {
		t.Errorf("plugins %+v warnings %s", ps, messages(warns))
	}
}

func TestLoad_DataDir(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": "fmt"}`})
	home := t.TempDir()
	ps, _ := Load(Options{Plugins: []Config{{Root: root, Marketplace: "acme.tools"}}, DataHome: home, Rule: CodexRule})
	if want := filepath.Join(home, "fmt-acme-tools"); ps[0].DataDir != want {
		t.Errorf("data dir = %q, want %q", ps[0].DataDir, want)
	}
	given := filepath.Join(t.TempDir(), "mine")
	ps, _ = Load(Options{Plugins: []Config{{Root: root, DataDir: given}}, DataHome: home, Rule: CodexRule})
	if ps[0].DataDir != given {
		t.Errorf("host data dir = %q, want %q", ps[0].DataDir, given)
	}
	if _, err := os.Stat(given); err == nil {
		t.Error("Load created the data dir; it must only be created when a hook runs")
	}
	env := ps[0].Env()
	want := map[string]string{"PLUGIN_ROOT": root, "CLAUDE_PLUGIN_ROOT": root, "PLUGIN_DATA": given, "CLAUDE_PLUGIN_DATA": given}
	if !reflect.DeepEqual(env, want) {
		t.Errorf("env = %v", env)
	}
	t.Setenv("XDG_DATA_HOME", "/ignored-after-init")
	if DefaultDataHome() == "" || !strings.HasSuffix(DefaultDataHome(), filepath.Join("hookd", "plugins", "data")) {
		t.Errorf("DefaultDataHome() = %q", DefaultDataHome())
	}
}

func TestLoad_ScanFolders(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		// a plugin folder
		"alpha/.codex-plugin/plugin.json": `{"name": "alpha"}`,
		"alpha/hooks/hooks.json":          stopHooks,
		// install cache: acme/beta has three versions
		"acme/beta/1.9.0/.codex-plugin/plugin.json":       `{"name": "beta", "version": "1.9.0"}`,
		"acme/beta/1.10.0/.codex-plugin/plugin.json":      `{"name": "beta", "version": "1.10.0"}`,
		"acme/beta/1.10.0-rc.1/.codex-plugin/plugin.json": `{"name": "beta"}`,
		"acme/beta/1.10.0/hooks/hooks.json":               stopHooks,
		// an orphaned newer version loses to the current one
		"acme/gamma/2.0.0/.claude-plugin/plugin.json": `{"name": "gamma"}`,
		"acme/gamma/2.0.0/.orphaned_at":               "1700000000",
		"acme/gamma/1.0.0/.claude-plugin/plugin.json": `{"name": "gamma"}`,
		// a version folder without a manifest is not a version
		"acme/gamma/9.9.9/README.md": "",
		// hidden folders are not scanned
		".git/x/.codex-plugin/plugin.json": `{"name": "hidden"}`,
		// a plugin without a version folder under a marketplace
		"acme/delta/.codex-plugin/plugin.json": `{}`,
		"notes.txt":                            "",
	})
	ps, warns := Load(Options{Dirs: []string{dir, filepath.Join(dir, "missing")}, DataHome: t.TempDir(), Rule: CodexRule})
	if len(warns) != 0 {
		t.Errorf("warnings: %s", messages(warns))
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.ID()+" "+filepath.Base(p.Root))
	}
	want := []string{"beta@acme 1.10.0", "delta@acme delta", "gamma@acme 1.0.0", "alpha@local alpha"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plugins = %q, want %q", got, want)
	}
	if k := sourceKeys(ps[0]); !reflect.DeepEqual(k, []string{"beta@acme:hooks/hooks.json"}) {
		t.Errorf("the version is not in the key: %q", k)
	}
}

func TestLoad_ScanPicksNewestOfNonVersionsByTime(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"mp/p/aaaaaaa/.claude-plugin/plugin.json": `{"name": "p"}`,
		"mp/p/bbbbbbb/.claude-plugin/plugin.json": `{"name": "p"}`,
	})
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "mp/p/bbbbbbb"), old, old); err != nil {
		t.Fatal(err)
	}
	ps, _ := Load(Options{Dirs: []string{dir}, DataHome: t.TempDir(), Rule: CodexRule})
	if len(ps) != 1 || filepath.Base(ps[0].Root) != "aaaaaaa" {
		t.Errorf("plugins %+v, want the recently modified aaaaaaa", ps)
	}
}

func TestLoad_ExplicitEntriesComeFirstAndShadowScans(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"one/.codex-plugin/plugin.json":   `{"name": "one"}`,
		"two/.codex-plugin/plugin.json":   `{"name": "two"}`,
		"three/.codex-plugin/plugin.json": `{"name": "three"}`,
		"four/.codex-plugin/plugin.json":  `{"name": "four", "hooks": 42}`,
	})
	other := t.TempDir()
	writeTree(t, other, map[string]string{".codex-plugin/plugin.json": `{"name": "three"}`})
	no := false
	ps, warns := Load(Options{
		Plugins: []Config{
			{Root: filepath.Join(dir, "two")},               // explicit: first
			{Root: filepath.Join(dir, "one"), Enabled: &no}, // disabled by root
			{Root: "/nowhere", Name: "four", Enabled: &no},  // disabled by id
			{Root: other}, // three@local from elsewhere
		},
		Dirs: []string{dir}, DataHome: t.TempDir(), Rule: CodexRule,
	})
	var got []string
	for _, p := range ps {
		got = append(got, p.ID())
	}
	if want := []string{"two@local"}; !reflect.DeepEqual(got, want) {
		t.Errorf("plugins = %q, want %q", got, want)
	}
	// two is found again by the scan at the same root: no warning. three is
	// claimed by two folders: neither loads, and the warning names both.
	// four is disabled: no warning about its bad hooks entry.
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "loading neither plugin three@local") {
		t.Errorf("warnings: %s", messages(warns))
	}
}

func TestLoad_IDClaimedByTwoFoldersLoadsNeither(t *testing.T) {
	// The scan finds "a-evil" before "guard": were the first one found to
	// win, a folder that sorts earlier would shadow the real plugin.
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a-evil/.codex-plugin/plugin.json": `{"name": "guard"}`,
		"a-evil/hooks/hooks.json":          stopHooks,
		"guard/.codex-plugin/plugin.json":  `{"name": "guard"}`,
		"guard/hooks/hooks.json":           stopHooks,
		"other/.codex-plugin/plugin.json":  `{"name": "other"}`,
	})
	explicit := filepath.Join(dir, "guard")
	for name, opts := range map[string]Options{
		"both scanned":           {Dirs: []string{dir}},
		"one named, one scanned": {Plugins: []Config{{Root: explicit}}, Dirs: []string{dir}},
	} {
		t.Run(name, func(t *testing.T) {
			opts.DataHome, opts.Rule = t.TempDir(), CodexRule
			ps, warns := Load(opts)
			if len(ps) != 1 || ps[0].ID() != "other@local" {
				t.Errorf("plugins %+v, want only other@local", ps)
			}
			wantWarning(t, warns, "loading neither plugin guard@local", filepath.Join(dir, "a-evil"), explicit)
		})
	}
}

func TestLoad_InstallCachePluginsAreThoseInTheFolderTheirIDNames(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(home, "plugins", "cache")
	writeTree(t, cache, map[string]string{
		"acme/guard/1.0.0/.codex-plugin/plugin.json": `{"name": "guard"}`,
		// The manifest claims another name than its folder: not vouched for.
		"acme/fmt/1.0.0/.codex-plugin/plugin.json": `{"name": "lint"}`,
	})
	elsewhere := t.TempDir()
	writeTree(t, elsewhere, map[string]string{".codex-plugin/plugin.json": `{"name": "solo"}`})
	ps, warns := Load(Options{
		Plugins:      []Config{{Root: elsewhere, Marketplace: "acme"}},
		Dirs:         []string{cache},
		DataHome:     t.TempDir(),
		Rule:         CodexRule,
		InstallCache: cache,
	})
	got := map[string]bool{}
	for _, p := range ps {
		got[p.ID()] = p.InstallCache
		if p.RealRoot == "" {
			t.Errorf("%s: no resolved root", p.ID())
		}
	}
	if want := map[string]bool{"guard@acme": true, "lint@acme": false, "solo@acme": false}; !reflect.DeepEqual(got, want) {
		t.Errorf("install cache = %v, want %v (warnings %s)", got, want, messages(warns))
	}
}

func TestExpand_BraceFormsOnly(t *testing.T) {
	env := Env("/p/root", "/p/data")
	cases := map[string]string{
		`"${CLAUDE_PLUGIN_ROOT}/scripts/x.sh" --data ${CLAUDE_PLUGIN_DATA}`: `"/p/root/scripts/x.sh" --data /p/data`,
		`${PLUGIN_ROOT}/a ${PLUGIN_DATA}/b`:                                 `/p/root/a /p/data/b`,
		`echo $PLUGIN_ROOT $CLAUDE_PLUGIN_DATA`:                             `echo $PLUGIN_ROOT $CLAUDE_PLUGIN_DATA`,
		`echo ${HOME} ${PLUGIN_ROOTS} ${user_config.x}`:                     `echo ${HOME} ${PLUGIN_ROOTS} ${user_config.x}`,
		`${PLUGIN_ROOT}${PLUGIN_ROOT}`:                                      `/p/root/p/root`,
	}
	for in, want := range cases {
		if got, err := Expand(in, env); got != want || err != nil {
			t.Errorf("Expand(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	if got, err := Expand("${PLUGIN_ROOT}", nil); got != "${PLUGIN_ROOT}" || err != nil {
		t.Errorf("without plugin env: %q %v", got, err)
	}
	// A value holding shell syntax is never pasted.
	if got, err := Expand(`"${PLUGIN_ROOT}/x"`, Env("/p/x$(touch PWNED)", "/d")); err == nil || got != `"${PLUGIN_ROOT}/x"` {
		t.Errorf("shell syntax pasted: %q %v", got, err)
	}
}

func TestLoad_OnlyRegularFilesAreRead(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": "fifo", "hooks": "./pipe.json"}`})
	if err := mkfifo(filepath.Join(root, "pipe.json")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := mkfifo(filepath.Join(root, "plugin.json")); err != nil {
		t.Fatal(err)
	}
	// Reading either FIFO would block forever; Load must return.
	p, warns := loadOne(t, root)
	if len(p.Sources) != 0 {
		t.Errorf("sources %q", sourceKeys(p))
	}
	wantWarning(t, warns, "failed to read plugin hooks config", "pipe.json", "not a regular file")
}

func TestLoad_HugeHooksFileIsRefused(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".codex-plugin/plugin.json": `{"name": "big"}`, "hooks/hooks.json": ""})
	// A sparse file: large to stat, free to make.
	if err := os.Truncate(filepath.Join(root, "hooks", "hooks.json"), maxFileSize+1); err != nil {
		t.Fatal(err)
	}
	p, warns := loadOne(t, root)
	if len(p.Sources) != 0 {
		t.Errorf("sources %q", sourceKeys(p))
	}
	wantWarning(t, warns, "failed to read plugin hooks config", "larger than 16 MiB")
}

func TestLoad_ScannedFolderThatIsAPluginLoadsAsOne(t *testing.T) {
	root := filepath.Join(t.TempDir(), "solo")
	writeTree(t, root, map[string]string{".claude-plugin/plugin.json": `{}`, "hooks/hooks.json": stopHooks})
	ps, warns := Load(Options{Dirs: []string{root}, DataHome: t.TempDir(), Rule: CodexRule})
	if len(ps) != 1 || ps[0].ID() != "solo@local" || len(ps[0].Sources) != 1 || len(warns) != 0 {
		t.Errorf("plugins %+v warnings %s", ps, messages(warns))
	}
}

func TestCheckExpand_RefusesRootsTheShellWouldRead(t *testing.T) {
	cmd := `sh "${CLAUDE_PLUGIN_ROOT}/hooks/fmt.sh" --data ${PLUGIN_DATA}`
	bad := []string{"/p/x$(touch PWNED)y", "/p/x`id`", `/p/q"; id; "`, "/p/it's", "/p/a;b", "/p/a|b", "/p/a&b", "/p/a>b",
		"/p/a\nb", "/p/a*", "/p/a?", "/p/[ab]", "/p/{a,b}", "/p/a#b", "/p/50%", "/p/a!b", "/p/a=b", "/p/a\tb"}
	for _, root := range bad {
		if err := CheckExpand(cmd, Env(root, "/d")); err == nil || !strings.Contains(err.Error(), "${CLAUDE_PLUGIN_ROOT}") {
			t.Errorf("root %q: err %v, want a refusal naming ${CLAUDE_PLUGIN_ROOT}", root, err)
		}
	}
	if err := CheckExpand(cmd, Env("/p/ok", "/d/x$(id)")); err == nil || !strings.Contains(err.Error(), "${PLUGIN_DATA}") {
		t.Errorf("data folder: err %v, want a refusal naming ${PLUGIN_DATA}", err)
	}
	good := []string{"/home/u/.codex/plugins/cache/acme/fmt/1.2.0+build.7", "/Users/Jo Smith/Library/Application Support/x",
		"/home/józef/wtyczki/ünïcode", "/srv/a,b:c@d_e-f"}
	for _, root := range good {
		if err := CheckExpand(cmd, Env(root, root)); err != nil {
			t.Errorf("root %q: %v", root, err)
		}
	}
	// Nothing is pasted where the command names no brace form: the shell
	// reads $CLAUDE_PLUGIN_ROOT from the environment, safely quoted.
	for _, c := range []string{`sh "$CLAUDE_PLUGIN_ROOT/x.sh"`, "echo ${HOME}", "true"} {
		if err := CheckExpand(c, Env("/p/x$(id)", "/d/`id`")); err != nil {
			t.Errorf("%q: %v", c, err)
		}
	}
}

func TestLoad_ManifestSymlinkedOutsideThePluginIsRefused(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"plugin.json": `{"name": "borrowed"}`})
	root := t.TempDir()
	writeTree(t, root, map[string]string{"hooks/hooks.json": stopHooks})
	symlink(t, filepath.Join(outside, "plugin.json"), filepath.Join(root, ".claude-plugin", "plugin.json"))
	ps, warns := Load(Options{Plugins: []Config{{Root: root}}, DataHome: t.TempDir(), Rule: ClaudeRule})
	if len(ps) != 0 {
		t.Errorf("loaded %+v through a manifest outside the plugin", ps[0])
	}
	wantWarning(t, warns, "skipping plugin "+root, "failed to read plugin manifest", "outside the plugin root")

	// Inside the plugin a symlinked manifest is fine, relative or absolute.
	for _, absolute := range []bool{false, true} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{"manifest.json": `{"name": "linked"}`, "hooks/hooks.json": stopHooks})
		target := filepath.Join("..", "manifest.json")
		if absolute {
			target = filepath.Join(root, "manifest.json")
		}
		symlink(t, target, filepath.Join(root, ".claude-plugin", "plugin.json"))
		p, warns := loadOne(t, root)
		if p.Name != "linked" || len(p.Sources) != 1 || len(warns) != 0 {
			t.Errorf("symlink to %s: plugin %+v warnings %s", target, p, messages(warns))
		}
	}
}

func TestReadInRoot_ChecksTheFileItOpened(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"plugin.json": `{"name": "a"}`, "other.json": `{"name": "b"}`})
	path := filepath.Join(root, "plugin.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if err := sameFileInside(root, "", path, opened); err != nil {
		t.Fatalf("unchanged file: %v", err)
	}
	// Swapped after the open: what is at the path now is not what was read.
	if err := os.Rename(filepath.Join(root, "other.json"), path); err != nil {
		t.Fatal(err)
	}
	if err := sameFileInside(root, "", path, opened); err == nil || !strings.Contains(err.Error(), "changed while being read") {
		t.Errorf("swapped file: err %v", err)
	}
}

// A root resolved once per load and passed down is what files are checked
// against: when the root's symlink points elsewhere by the time a file is
// read, the file is refused, not read from the new place.
func TestReadInRoot_ChecksAgainstTheRootResolvedBefore(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	writeTree(t, first, map[string]string{"plugin.json": `{"name": "a"}`})
	writeTree(t, second, map[string]string{"plugin.json": `{"name": "b"}`})
	root := filepath.Join(dir, "root")
	if err := os.Symlink(first, root); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := readInRoot(root, resolved, filepath.Join(root, "plugin.json")); err != nil || !strings.Contains(string(data), `"a"`) {
		t.Fatalf("unchanged root: %q, %v", data, err)
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(second, root); err != nil {
		t.Fatal(err)
	}
	if data, err := readInRoot(root, resolved, filepath.Join(root, "plugin.json")); err == nil || !strings.Contains(err.Error(), "outside the plugin root") {
		t.Errorf("swapped root: read %q, err %v", data, err)
	}
	if err := escapes(root, resolved, "plugin.json"); err == nil {
		t.Error("swapped root: escapes found nothing")
	}
}

// A Claude plugin given inline (no marketplace: Claude Code's --plugin-dir)
// has its data folder named <name>-inline, as Claude Code names it; under
// the codex rule it stays <name>-local.
func TestLoad_InlineClaudePluginDataDir(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".claude-plugin/plugin.json": `{"name": "fmt"}`})
	home := t.TempDir()
	ps, _ := Load(Options{Plugins: []Config{{Root: root}}, DataHome: home, Rule: ClaudeRule})
	if want := filepath.Join(home, "fmt-inline"); len(ps) != 1 || ps[0].DataDir != want {
		t.Fatalf("claude inline data dir = %+v, want %q", ps, want)
	}
	ps, _ = Load(Options{Plugins: []Config{{Root: root, Marketplace: "acme"}}, DataHome: home, Rule: ClaudeRule})
	if want := filepath.Join(home, "fmt-acme"); ps[0].DataDir != want {
		t.Errorf("claude marketplace data dir = %q, want %q", ps[0].DataDir, want)
	}
	ps, _ = Load(Options{Plugins: []Config{{Root: root}}, DataHome: home, Rule: CodexRule})
	if want := filepath.Join(home, "fmt-local"); ps[0].DataDir != want {
		t.Errorf("codex data dir = %q, want %q", ps[0].DataDir, want)
	}
}

// A folder named with --plugin that discovery also lists under its
// marketplace id loads once, as the hosts run it once: the named one wins.
func TestLoad_SameFolderUnderTwoIDsLoadsOnce(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{".claude-plugin/plugin.json": `{"name": "guard"}`, "hooks/hooks.json": `{"hooks": {}}`})
	for _, rule := range []Rule{CodexRule, ClaudeRule} {
		ps, _ := Load(Options{Plugins: []Config{{Root: root}, {Root: root, Name: "guard", Marketplace: "mkt"}}, DataHome: t.TempDir(), Rule: rule})
		if len(ps) != 1 || ps[0].ID() != "guard@local" {
			var ids []string
			for _, p := range ps {
				ids = append(ids, p.ID())
			}
			t.Errorf("rule %d: loaded %v, want [guard@local]", rule, ids)
		}
	}
}
