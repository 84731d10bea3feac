package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/lint"
)

// check writes files under a new folder (paths relative to it; "home/" is
// the user folder, "plugin/" a plugin), discovers them under the profile and
// lints them.
func check(t *testing.T, profile string, files map[string]string) []lint.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".x.sh") {
			mode = 0o755
		}
		body = strings.ReplaceAll(body, "$DIR", dir)
		if err := os.WriteFile(path, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, ok := hooks.LookupProfile(profile)
	if !ok {
		t.Fatalf("no profile %s", profile)
	}
	opts := hooks.Options{Profile: p, Session: hooks.Session{ID: "s", Cwd: dir},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(dir, "home"), DataHome: filepath.Join(dir, "data")}}
	if _, err := os.Stat(filepath.Join(dir, "plugin")); err == nil {
		opts.Discover.Plugins = []hooks.PluginConfig{{Root: filepath.Join(dir, "plugin")}}
	}
	e := hooks.New(opts)
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	list, warnings := e.List("")
	home := filepath.Join(dir, "home")
	return lint.Check(p, list, warnings, []string{filepath.Join(home, "hooks.json"), filepath.Join(home, "settings.json"),
		filepath.Join(dir, "plugin", "hooks", "hooks.json")})
}

func rules(ds []lint.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Severity+" "+d.Rule)
	}
	return out
}

func TestCheck_EachRuleFindsItsMistakeAndOnlyIt(t *testing.T) {
	cases := []struct {
		name    string
		profile string
		files   map[string]string
		want    []string
		// at is the line:col of the first diagnostic, when it matters.
		at string
	}{
		{"clean", "codex", map[string]string{"home/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}`}, nil, ""},
		{"matcher on an event that ignores matchers", "codex", map[string]string{"home/hooks.json": `{"hooks": {"Stop": [{"matcher": "Bash",
 "hooks": [{"type": "command", "command": "true"}]}]}}`}, []string{"warning matcher-ignored"}, "1:33"},
		{"tool name in the wrong case", "codex", map[string]string{"home/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "true"}]}]}}`}, []string{"error tool-case"}, ""},
		{"tool the host does not have", "claude", map[string]string{"home/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Edit|Wirte", "hooks": [{"type": "command", "command": "true"}]}]}}`}, []string{"warning unknown-tool"}, ""},
		{"MCP tools are not checked", "claude", map[string]string{"home/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "mcp__memory__read", "hooks": [{"type": "command", "command": "true"}]}]}}`}, nil, ""},
		{"a stray | matches every tool", "codex", map[string]string{"home/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash|^Edit|", "hooks": [{"type": "command", "command": "true"}]}]}}`}, []string{"warning matches-all"}, ""},
		{"a deliberate .* is not an accident", "codex", map[string]string{"home/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": ".*", "hooks": [{"type": "command", "command": "true"}]}]}}`}, nil, ""},
		{"a plugin root quoted inside an expansion", "claude", map[string]string{
			"plugin/.claude-plugin/plugin.json": `{"name": "p"}`,
			"plugin/hooks/hooks.json":           `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "R=\"${CLAUDE_PLUGIN_ROOT:-${PLUGIN_ROOT:-}}\"; sh \"$R/x.sh\""}]}]}}`}, nil, ""},
		{"a real regex is fine", "codex", map[string]string{"home/hooks.json": `{"hooks": {"PreToolUse": [{"matcher": "^mcp__", "hooks": [{"type": "command", "command": "true"}]}]}}`}, nil, ""},
		{"if on a non-tool event", "claude", map[string]string{"home/settings.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}}`}, []string{"warning if-non-tool"}, ""},
		{"unquoted plugin root", "claude", map[string]string{
			"plugin/.claude-plugin/plugin.json": `{"name": "p"}`,
			"plugin/hooks/a.x.sh":               "#!/bin/sh\n",
			"plugin/hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/a.x.sh"}]}]}}`}, []string{"warning unquoted-var"}, ""},
		{"quoted plugin root, script there", "claude", map[string]string{
			"plugin/.claude-plugin/plugin.json": `{"name": "p"}`,
			"plugin/hooks/a.x.sh":               "#!/bin/sh\n",
			"plugin/hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}/hooks/a.x.sh\" --fast"}]}]}}`}, nil, ""},
		{"script missing", "claude", map[string]string{
			"plugin/.claude-plugin/plugin.json": `{"name": "p"}`,
			"plugin/hooks/hooks.json":           `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "python3 \"${CLAUDE_PLUGIN_ROOT}/hooks/gone.py\""}]}]}}`}, []string{"error script-missing"}, ""},
		{"script not executable", "codex", map[string]string{
			"home/a.sh":       "#!/bin/sh\n",
			"home/hooks.json": `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "$DIR/home/a.sh"}]}]}}`}, []string{"error script-not-exec"}, ""},
		{"script run by its interpreter need not be executable", "codex", map[string]string{
			"home/a.sh":       "#!/bin/sh\n",
			"home/hooks.json": `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "sh $DIR/home/a.sh"}]}]}}`}, nil, ""},
		{"Stop hook that can loop", "codex", map[string]string{
			"home/stop.sh":    "#!/bin/sh\necho '{\"decision\": \"block\", \"reason\": \"run the tests\"}'\n",
			"home/hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh $DIR/home/stop.sh"}]}]}}`}, []string{"warning stop-loop"}, ""},
		{"a script that is a device is not read", "codex", map[string]string{
			"home/hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh /dev/zero"}]}]}}`}, nil, ""},
		{"Stop hook that only says block in a comment", "codex", map[string]string{
			"home/stop.sh":    "#!/bin/sh\n# never block the session from ending\necho done\n",
			"home/hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh $DIR/home/stop.sh"}]}]}}`}, nil, ""},
		{"Stop hook that reads stop_hook_active", "codex", map[string]string{
			"home/stop.sh":    "#!/bin/sh\ngrep -q '\"stop_hook_active\": *true' && exit 0\necho '{\"decision\": \"block\", \"reason\": \"x\"}'\n",
			"home/hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "sh $DIR/home/stop.sh"}]}]}}`}, nil, ""},
		{"timeout above the cap", "codex", map[string]string{"home/hooks.json": `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "true", "timeout": 30}]}]}}`}, []string{"warning timeout-above-cap"}, ""},
		{"events at the top level", "codex", map[string]string{"home/hooks.json": `{"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}`}, []string{"error no-hooks-root", "warning discovery"}, "1:1"},
		{"TOML tables get the same rules, placed where the text is", "codex", map[string]string{"home/config.toml": "model = \"x\"\n[[hooks.PreToolUse]]\nmatcher = \"bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"true\"\ncolour = 1\n"},
			[]string{"error tool-case", "warning discovery"}, "3:11"},
		{"broken JSON has its position", "codex", map[string]string{"home/hooks.json": "{\"hooks\": {\n  \"Stop\": [\n}"}, []string{"error discovery"}, "3:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := check(t, c.profile, c.files)
			got := rules(ds)
			if !slices.Equal(got, c.want) {
				t.Fatalf("rules %q, want %q\n%v", got, c.want, ds)
			}
			if c.at != "" {
				var at string
				if d := ds[0]; d.Line > 0 {
					at = fmt.Sprintf("%d:%d", d.Line, d.Column)
				}
				if at != c.at {
					t.Errorf("first diagnostic at %q, want %q: %v", at, c.at, ds[0])
				}
			}
		})
	}
}

func TestFromLoadError_PlacesEachProblemOfARefusedConfig(t *testing.T) {
	home := t.TempDir()
	conf := "[[hooks]]\nevent = \"Stop\"\ncomand = \"true\"\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := hooks.LookupProfile("mirri")
	e := hooks.New(hooks.Options{Profile: p, Session: hooks.Session{ID: "s", Cwd: home}, Discover: hooks.DiscoverOptions{Home: home}})
	defer e.Close()
	_, err := e.LoadChecked()
	if err == nil {
		t.Fatal("mirri loaded a rule with an unknown field")
	}
	ds := lint.FromLoadError(err)
	var lines []int
	for _, d := range ds {
		if d.File != filepath.Join(home, "config.toml") || d.Severity != hooks.SeverityError {
			t.Errorf("diagnostic %v", d)
		}
		lines = append(lines, d.Line)
	}
	if !slices.Contains(lines, 3) {
		t.Errorf("no diagnostic at line 3 (the unknown field): %v", ds)
	}
}

func TestCheck_UnknownToolSuggestsTheNearestName(t *testing.T) {
	ds := check(t, "claude", map[string]string{"home/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "Bsah", "hooks": [{"type": "command", "command": "true"}]}]}}`})
	if len(ds) != 1 || ds[0].Rule != lint.RuleUnknownTool || !strings.Contains(ds[0].Message, `matcher item "Bsah" names no claude tool (did you mean "Bash"?)`) {
		t.Fatalf("diagnostics %v, want one unknown-tool with a did-you-mean for Bash", ds)
	}
}

// A Copilot CLI event may hold its handlers directly: an entry with no
// "hooks" array runs as one handler there, so it is no "runs nothing"
// mistake; under a host that takes only matcher groups it is.
func TestCheck_AHandlerInPlaceOfAGroup(t *testing.T) {
	file := `{"hooks": {"preToolUse": [{"type": "command", "bash": "echo hi"}], "PreToolUse": [{"type": "command", "command": "echo hi"}]}}`
	if got := rules(check(t, "copilot", map[string]string{"home/settings.json": file})); slices.Contains(got, hooks.SeverityWarning+" "+lint.RuleSchema) {
		t.Errorf("copilot, handlers in place of groups: %q, want no schema warning", got)
	}
	claude := `{"hooks": {"PreToolUse": [{"type": "command", "command": "echo hi"}]}}`
	if got := rules(check(t, "claude", map[string]string{"home/settings.json": claude})); !slices.Contains(got, hooks.SeverityWarning+" "+lint.RuleSchema) {
		t.Errorf("claude, a handler in place of a group: %q, want the schema warning", got)
	}
}
