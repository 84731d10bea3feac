package hooks

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// plgWritePlugin writes a plugin folder: files maps a relative path to content.
func plgWritePlugin(t *testing.T, root string, files map[string]string) string {
	t.Helper()
	for rel, content := range files {
		discWriteFile(t, filepath.Join(root, filepath.FromSlash(rel)), content)
	}
	return root
}

func TestDiscover_PluginHooksComeAfterConfigLayersWithTheirSource(t *testing.T) {
	home := discCodexHome(t)
	discWriteFile(t, filepath.Join(home, "hooks.json"), discStopJSON("user"))
	root := plgWritePlugin(t, filepath.Join(t.TempDir(), "guard"), map[string]string{
		".codex-plugin/plugin.json": `{"name": "guard", "hooks": ["./hooks/hooks.json", "./more.json"]}`,
		"hooks/hooks.json":          discStopJSON(`${PLUGIN_ROOT}/stop.sh`),
		"more.json":                 `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": "b"}]}]}}`,
	})
	data := t.TempDir()
	hooks, warns := Discover(codexProfile(), DiscoverOptions{
		SessionHooks: []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "session"}]}]}`),
		Plugins:      []PluginConfig{{Root: root, Marketplace: "acme"}},
		DataHome:     data,
	})
	cfgWantWarnings(t, warns)
	wantKeys := []string{
		filepath.Join(home, "hooks.json") + ":stop:0:0",
		"session:stop:0:0",
		"guard@acme:hooks/hooks.json:stop:0:0",
		"guard@acme:more.json:pre_tool_use:0:0",
		"guard@acme:more.json:pre_tool_use:0:1",
	}
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, wantKeys) {
		t.Fatalf("keys = %q, want %q", got, wantKeys)
	}
	for i, h := range hooks {
		if h.Order != i {
			t.Errorf("%s: order %d, want %d", h.Key, h.Order, i)
		}
	}
	plugin := hooks[2]
	realRoot, _ := filepath.EvalSymlinks(root)
	if plugin.Source != (Source{Layer: LayerPlugin, Path: filepath.Join(root, "hooks", "hooks.json"), Plugin: "guard", pluginRoot: realRoot}) {
		t.Errorf("source = %+v", plugin.Source)
	}
	if plugin.Handler.Command != "${PLUGIN_ROOT}/stop.sh" {
		t.Errorf("command = %q: it must stay as written (the trust hash is taken from it)", plugin.Handler.Command)
	}
	if plugin.Trust != TrustUntrusted || !plugin.Enabled {
		t.Errorf("trust %q enabled %v: plugin hooks need review like user hooks", plugin.Trust, plugin.Enabled)
	}
	wantEnv := map[string]string{"PLUGIN_ROOT": root, "CLAUDE_PLUGIN_ROOT": root,
		"PLUGIN_DATA": filepath.Join(data, "guard-acme"), "CLAUDE_PLUGIN_DATA": filepath.Join(data, "guard-acme")}
	if !reflect.DeepEqual(plugin.Env, wantEnv) {
		t.Errorf("env = %v, want %v", plugin.Env, wantEnv)
	}
	if hooks[0].Env != nil || hooks[1].Env != nil {
		t.Error("config-layer hooks got plugin variables")
	}
}

func TestDiscover_PluginInlineHooksAndBadFiles(t *testing.T) {
	discCodexHome(t)
	inline := plgWritePlugin(t, filepath.Join(t.TempDir(), "inl"), map[string]string{
		".claude-plugin/plugin.json": `{"name": "inl", "hooks": [
			{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "one"}]}]}},
			{"SessionStart": [{"matcher": "(", "hooks": [{"type": "command", "command": "bad matcher"}]}],
			 "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "two"}]}]}]}`,
	})
	broken := plgWritePlugin(t, filepath.Join(t.TempDir(), "broken"), map[string]string{
		".codex-plugin/plugin.json": `{"name": "broken", "hooks": ["./bad.json", "./good.json"]}`,
		"bad.json":                  `{"hooks": {"Stop": [`,
		"good.json":                 discStopJSON("fine"),
	})
	hooks, warns := Discover(codexProfile(), DiscoverOptions{Plugins: []PluginConfig{{Root: inline}, {Root: broken}}, DataHome: t.TempDir()})
	want := []string{
		"inl@local:plugin.json#hooks[0]:stop:0:0",
		"inl@local:plugin.json#hooks[1]:user_prompt_submit:0:0",
		"broken@local:good.json:stop:0:0",
	}
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, want) {
		t.Errorf("keys = %q, want %q", got, want)
	}
	if hooks[0].Source.Path != filepath.Join(inline, ".claude-plugin", "plugin.json") {
		t.Errorf("inline source path = %q, want the manifest", hooks[0].Source.Path)
	}
	cfgWantWarnings(t, warns,
		`invalid matcher "("`,
		"failed to parse plugin hooks config "+filepath.Join(broken, "bad.json"))
}

func TestDiscover_ProfileWithoutPluginRuleLoadsNoPlugins(t *testing.T) {
	discCodexHome(t)
	root := plgWritePlugin(t, t.TempDir(), map[string]string{".codex-plugin/plugin.json": `{}`, "hooks/hooks.json": discStopJSON("x")})
	prof := *codexProfile()
	prof.Name = "plain"
	prof.PluginRule = 0
	hooks, warns := Discover(&prof, DiscoverOptions{Plugins: []PluginConfig{{Root: root}}})
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, "the plain profile does not load plugin hooks")
}

func TestEngine_PluginHookGetsVariablesAndPlaceholdersAtRunTime(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	home := discCodexHome(t)
	// A user hook that reports CLAUDE_PROJECT_DIR: Codex gives it to no hook.
	discWriteFile(t, filepath.Join(home, "hooks.json"),
		`{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo \"project=${CLAUDE_PROJECT_DIR:-none} plugin=${PLUGIN_ROOT:-none}\""}]}]}}`)
	root := plgWritePlugin(t, filepath.Join(t.TempDir(), "envy"), map[string]string{
		".codex-plugin/plugin.json": `{"name": "envy"}`,
		// Single quotes keep the shell away: only hookd can have filled the
		// braces in. $PLUGIN_DATA without braces is the shell's, from the env.
		"hooks/hooks.json": `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
			"command": "echo 'root=${CLAUDE_PLUGIN_ROOT} same=${PLUGIN_ROOT} plain=$PLUGIN_ROOT' && echo x > \"$PLUGIN_DATA/w\" && echo data=$CLAUDE_PLUGIN_DATA"}]}]}}`,
	})
	project := t.TempDir()
	data := filepath.Join(t.TempDir(), "data-home")
	e := New(Options{
		Profile:     codexProfile(),
		Session:     Session{ID: "s", Cwd: t.TempDir()},
		Discover:    DiscoverOptions{ProjectRoot: project, Plugins: []PluginConfig{{Root: root}}, DataHome: data},
		BypassTrust: true,
	})
	t.Cleanup(e.Close)
	e.Load()
	dataDir := filepath.Join(data, "envy-local")
	if _, err := os.Stat(dataDir); err == nil {
		t.Fatal("the data folder exists before any hook ran")
	}
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt": "hi"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, c := range res.AdditionalContext {
		got = append(got, c.Text)
	}
	want := []string{
		"project=none plugin=none",
		"root=" + root + " same=" + root + " plain=$PLUGIN_ROOT\ndata=" + dataDir,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("contexts:\n got %q\nwant %q", got, want)
	}
	if b, err := os.ReadFile(filepath.Join(dataDir, "w")); err != nil || string(b) != "x\n" {
		t.Errorf("the hook could not write to its data folder: %q %v", b, err)
	}
	list, _ := e.List("UserPromptSubmit")
	if cmd := list[1].Handler.Command; !strings.Contains(cmd, "${CLAUDE_PLUGIN_ROOT}") {
		t.Errorf("the listed command was substituted: %q", cmd)
	}
}
