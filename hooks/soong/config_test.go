package soong

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

const soongOn = "[hooks]\nenabled = true\n"

// soongHome writes a soong user folder: hooks.json holding doc (skipped when
// doc is "") and config.toml holding config (skipped when config is "").
func soongHome(t *testing.T, doc, config string) string {
	t.Helper()
	home := t.TempDir()
	for name, text := range map[string]string{hooks.HooksJSONName: doc, hooks.ConfigTOMLName: config} {
		if text == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func soongDiscovery(t *testing.T, home string, opts hooks.DiscoverOptions) *hooks.Discovery {
	t.Helper()
	opts.Home = home
	if opts.ProjectRoot == "" {
		opts.ProjectRoot = t.TempDir()
	}
	return Profile.Discover(Profile, opts)
}

// keyTails lists each hook's key without the file path.
func keyTails(hooks []*hooks.Hook) string {
	var out []string
	for _, h := range hooks {
		i := strings.Index(h.Key, ".json:")
		out = append(out, h.Key[i+len(".json:"):])
	}
	return strings.Join(out, " ")
}

func TestSoongConfig_ReadingRules(t *testing.T) {
	cmd := `{"type": "command", "command": "true"}`
	for _, tc := range []struct {
		name  string
		doc   string
		keys  string
		warns []string
	}{
		{name: "rules and handlers in order, events in the profile's order",
			doc:  `{"version": 1, "hooks": {"Stop": [{"hooks": [` + cmd + `]}], "PreToolUse": [{"hooks": [` + cmd + `, ` + cmd + `]}, {"matcher": {"tool": "Bash"}, "hooks": [` + cmd + `]}]}}`,
			keys: "pre_tool_use:0:0 pre_tool_use:0:1 pre_tool_use:1:0 stop:0:0"},
		{name: "missing version reads as version 1", doc: `{"hooks": {"Stop": [{"hooks": [` + cmd + `]}]}}`,
			keys: "stop:0:0", warns: []string{`missing field "version"`, "reading it as version 1"}},
		{name: "another version loads nothing", doc: `{"version": 2, "hooks": {"Stop": [{"hooks": [` + cmd + `]}]}}`,
			warns: []string{"unsupported version 2", `(line 1, column 13)`}},
		{name: "a version string is not version 1", doc: `{"version": "1", "hooks": {"Stop": [{"hooks": [` + cmd + `]}]}}`,
			warns: []string{`unsupported version "1"`}},
		{name: "not JSON", doc: `{"version": 1,`, warns: []string{"failed to parse hooks config"}},
		{name: "not an object", doc: `[1]`, warns: []string{"expected a JSON object"}},
		{name: "unknown top-level field", doc: `{"version": 1, "description": "x", "hooks": {}}`, warns: []string{`ignoring unknown field "description"`}},
		{name: "events are exact", doc: `{"version": 1, "hooks": {"pretooluse": [{"hooks": [` + cmd + `]}], "PermissionRequest": [{"hooks": [` + cmd + `]}]}}`,
			warns: []string{`unknown hook event "pretooluse"`, `unknown hook event "PermissionRequest"`, "events: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop"}},
		{name: "an event that is not an array", doc: `{"version": 1, "hooks": {"Stop": {}}}`, warns: []string{"expected an array of rules"}},
		{name: "a string matcher skips its rule", doc: `{"version": 1, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [` + cmd + `]}, {"hooks": [` + cmd + `]}]}}`,
			keys: "pre_tool_use:1:0", warns: []string{`matcher "Bash" must be an object`, "no regex or glob"}},
		{name: "an unknown matcher field skips its rule", doc: `{"version": 1, "hooks": {"PreToolUse": [{"matcher": {"tool": "Bash", "regex": "x"}, "hooks": [` + cmd + `]}]}}`,
			warns: []string{`unknown matcher field "regex"`, "match more than written"}},
		{name: "a matcher value must be a non-empty string", doc: `{"version": 1, "hooks": {"PreToolUse": [{"matcher": {"tag": ["a"]}, "hooks": [` + cmd + `]}, {"matcher": {"pathPrefix": ""}, "hooks": [` + cmd + `]}]}}`,
			warns: []string{`matcher field "tag" must be a non-empty string`, `matcher field "pathPrefix" must be a non-empty string`}},
		{name: "a tool matcher on an event without a tool", doc: `{"version": 1, "hooks": {"Stop": [{"matcher": {"tool": "Bash"}, "hooks": [` + cmd + `]}], "UserPromptSubmit": [{"matcher": {"tag": "x"}, "hooks": [` + cmd + `]}]}}`,
			keys: "user_prompt_submit:0:0", warns: []string{`Stop has no tool, so matcher field "tool" never matches`}},
		{name: "regex-looking values load, compared literally", doc: `{"version": 1, "hooks": {"PreToolUse": [{"matcher": {"tool": "Edit|Write", "pathPrefix": "src/*"}, "hooks": [` + cmd + `]}]}}`,
			keys: "pre_tool_use:0:0", warns: []string{`matcher field "tool" in`, `"Edit|Write" has no regex or glob meaning`, `"src/*" has no regex or glob meaning`}},
		{name: "null and empty matchers match all", doc: `{"version": 1, "hooks": {"PreToolUse": [{"matcher": null, "hooks": [` + cmd + `]}, {"matcher": {}, "hooks": [` + cmd + `]}]}}`,
			keys: "pre_tool_use:0:0 pre_tool_use:1:0"},
		{name: "unknown rule field", doc: `{"version": 1, "hooks": {"Stop": [{"description": "x", "hooks": [` + cmd + `]}]}}`,
			keys: "stop:0:0", warns: []string{`ignoring unknown field "description"`}},
		{name: "command only", doc: `{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}, {"type": "prompt", "prompt": "p"}, ` + cmd + `]}]}}`,
			keys: "stop:0:2", warns: []string{`skipping "mcp_tool" hook`, `skipping "prompt" hook`, "runs command hooks only"}},
		{name: "bad handlers skip themselves", doc: `{"version": 1, "hooks": {"Stop": [{"hooks": [{"command": "x"}, {"type": "command"}, {"type": "command", "command": "  "}, {"type": "command", "command": 3}, {"type": "command", "command": "x", "timeout": -1}, {"type": "command", "command": "x", "timeout": "5"}, 7]}]}}`,
			warns: []string{`missing field "type"`, `missing field "command"`, "skipping empty hook command", `field "command" must be a string`, `field "timeout" must be a non-negative integer`, "expected an object"}},
		{name: "fields Soong does not have are ignored", doc: `{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "async": true, "statusMessage": "s"}]}]}}`,
			keys: "stop:0:0", warns: []string{`ignoring unknown field "async"`, `ignoring unknown field "statusMessage"`}},
		{name: "positions in warnings", doc: "{\n  \"version\": 1,\n  \"hooks\": {\"Stop\": [{\"matcher\": 5, \"hooks\": []}]}\n}",
			warns: []string{"(line 3, column 34)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := soongDiscovery(t, soongHome(t, tc.doc, soongOn), hooks.DiscoverOptions{})
			if got := keyTails(d.Hooks); got != tc.keys {
				t.Errorf("hooks %q, want %q", got, tc.keys)
			}
			text := warningsText(d.Warnings)
			for _, w := range tc.warns {
				if !strings.Contains(text, w) {
					t.Errorf("no warning holding %q in:\n%s", w, text)
				}
			}
			if len(tc.warns) == 0 && text != "" {
				t.Errorf("unexpected warnings:\n%s", text)
			}
		})
	}
}

func TestSoongConfig_HandlerTimeoutAndShape(t *testing.T) {
	doc := `{"version": 1, "hooks": {"PreToolUse": [{"matcher": {"tool": "Bash", "tag": "write"}, "hooks": [
		{"type": "command", "command": "a"}, {"type": "command", "command": "b", "timeout": 0},
		{"type": "command", "command": "c", "timeout": 5}, {"type": "command", "command": "d", "timeout": 601}]}]}}`
	home := soongHome(t, doc, soongOn)
	d := soongDiscovery(t, home, hooks.DiscoverOptions{})
	var got []int
	for _, h := range d.Hooks {
		got = append(got, h.Handler.Timeout)
	}
	if len(got) != 4 || got[0] != 60 || got[1] != 1 || got[2] != 5 || got[3] != 600 {
		t.Fatalf("timeouts %v, want default 60, 0 → 1, 5, capped 600", got)
	}
	if !strings.Contains(warningsText(d.Warnings), "clamping PreToolUse hook timeout to 600s") {
		t.Errorf("no clamp warning: %s", warningsText(d.Warnings))
	}
	h := d.Hooks[0]
	path := filepath.Join(home, "hooks.json")
	if h.Key != path+":pre_tool_use:0:0" || h.Source != (hooks.Source{Layer: hooks.LayerUser, Path: path}) ||
		h.Matcher != `{"tool":"Bash","tag":"write"}` || !h.HasMatcher || h.Trust != hooks.TrustTrusted || !h.Enabled ||
		h.Env["SOONG_AGENT_HOME"] != home || h.Order != 0 || d.Hooks[3].Order != 3 {
		t.Fatalf("hook %+v", h)
	}
}

func TestSoongConfig_HooksRunOnlyWhenEnabled(t *testing.T) {
	doc := `{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`
	for _, tc := range []struct {
		name    string
		config  string
		enabled bool
		warns   []string
	}{
		{"no config.toml: off", "", false, []string{"hooks are off unless enabled: set [hooks] enabled = true in"}},
		{"no [hooks] table: off", "model = \"x\"\n", false, []string{"hooks are off unless enabled"}},
		{"no enabled key: off", "[hooks]\nother = 1\n", false, []string{"hooks are off unless enabled"}},
		{"enabled = false", "[hooks]\nenabled = false\n", false, []string{"turned off by [hooks] enabled = false"}},
		{"enabled = true", soongOn, true, nil},
		{"enabled not a boolean", "[hooks]\nenabled = \"yes\"\n", false, []string{"ignoring hooks.enabled", "expected true or false"}},
		{"hooks not a table", "hooks = 1\n", false, []string{"ignoring hooks in", "expected a table"}},
		{"config.toml not TOML", "[hooks\nenabled = true\n", false, []string{"failed to parse", "(line 1, column", "cannot be read, so hooks stay off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := soongDiscovery(t, soongHome(t, doc, tc.config), hooks.DiscoverOptions{})
			if len(d.Hooks) != 1 || d.Hooks[0].Enabled != tc.enabled {
				t.Fatalf("hooks %+v, want one with enabled=%v", d.Hooks, tc.enabled)
			}
			text := warningsText(d.Warnings)
			for _, w := range tc.warns {
				if !strings.Contains(text, w) {
					t.Errorf("no warning holding %q in:\n%s", w, text)
				}
			}
			if tc.warns == nil && text != "" {
				t.Errorf("unexpected warnings:\n%s", text)
			}
		})
	}
	// No hooks, no nagging about the switch.
	d := soongDiscovery(t, soongHome(t, "", ""), hooks.DiscoverOptions{})
	if len(d.Hooks) != 0 || len(d.Warnings) != 0 {
		t.Fatalf("empty home: %+v", d)
	}
}

func TestSoongConfig_HomeFromEnvironment(t *testing.T) {
	home := soongHome(t, `{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`, soongOn)
	t.Setenv("SOONG_AGENT_HOME", home)
	d := soongDiscovery(t, "", hooks.DiscoverOptions{})
	if len(d.Hooks) != 1 || d.Hooks[0].Source.Path != filepath.Join(home, "hooks.json") {
		t.Fatalf("hooks %+v warnings %v", d.Hooks, d.Warnings)
	}
	t.Setenv("SOONG_AGENT_HOME", "")
	t.Setenv("HOME", home)
	if got := hooks.ResolveHome(Profile, ""); got != filepath.Join(home, ".soong-agent") {
		t.Fatalf("default home %s", got)
	}
}

func TestSoongConfig_NeverAProjectFileNorAnotherSource(t *testing.T) {
	home := soongHome(t, `{"version": 1, "hooks": {}}`, soongOn)
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".soong-agent"), 0o700); err != nil {
		t.Fatal(err)
	}
	projectFile := filepath.Join(project, ".soong-agent", "hooks.json")
	if err := os.WriteFile(projectFile, []byte(`{"version": 1, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d := soongDiscovery(t, home, hooks.DiscoverOptions{
		ProjectRoot: project, ProjectTrusted: true,
		SessionHooks:   []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}`),
		Plugins:        []hooks.PluginConfig{{Root: t.TempDir()}},
		Managed:        filepath.Join(t.TempDir(), "requirements.toml"),
		StateOverrides: []byte(`{}`),
	})
	if len(d.Hooks) != 0 {
		t.Fatalf("hooks from elsewhere: %+v", d.Hooks)
	}
	text := warningsText(d.Warnings)
	for _, w := range []string{"ignoring " + projectFile + ": the soong profile has no project hooks",
		"ignoring session hooks (config.hooks)", "ignoring plugins", "ignoring managed requirements", "ignoring hook state"} {
		if !strings.Contains(text, w) {
			t.Errorf("no warning holding %q in:\n%s", w, text)
		}
	}
}

func TestSoongConfig_AFIFOIsNotRead(t *testing.T) {
	home := t.TempDir()
	if err := mkfifo(filepath.Join(home, "hooks.json")); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	d := soongDiscovery(t, home, hooks.DiscoverOptions{})
	if !strings.Contains(warningsText(d.Warnings), "not a regular file") {
		t.Fatalf("warnings %v", d.Warnings)
	}
}

// warningsText joins the warnings' messages, one a line.
func warningsText(ws []hooks.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Message + "\n")
	}
	return b.String()
}
