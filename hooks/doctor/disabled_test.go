package doctor_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
	_ "github.com/hookd/hookd/hooks/copilot"
	"github.com/hookd/hookd/hooks/doctor"
	_ "github.com/hookd/hookd/hooks/qwen"
)

// A plugin or extension the host's own switch turns off is a source left
// out, with the file that says so and the host's step that turns it on; a
// plugin the user switched off in their own settings is not a failure, one
// switched off by another layer is.

// bare is a machine with only a home and a project folder (a git root).
func bare(t *testing.T) (home, app string) {
	t.Helper()
	root := t.TempDir()
	home, app = filepath.Join(root, "home"), filepath.Join(root, "app")
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "MIND_HOME", "MIRRI_CODE_HOME", "SOONG_AGENT_HOME"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", home)
	write(t, filepath.Join(app, ".git", "HEAD"), "ref: refs/heads/main\n", 0o644)
	return home, app
}

// only runs doctor for one host and returns it.
func only(t *testing.T, app, name string) doctor.Host {
	t.Helper()
	r, err := doctor.Run(doctor.Options{Cwd: app, Hosts: []string{name}})
	if err != nil {
		t.Fatal(err)
	}
	return host(t, r, name)
}

// leftOutPlugin is the source left out for plugin id, failing the test
// when there is none.
func leftOutPlugin(t *testing.T, h doctor.Host, id string) doctor.Source {
	t.Helper()
	for _, s := range h.Sources {
		if s.Plugin == id && !s.Read {
			return s
		}
	}
	t.Fatalf("%s: no source left out for plugin %s in %+v", h.Name, id, h.Sources)
	return doctor.Source{}
}

func hasCommand(h doctor.Host, cmd string) bool {
	for _, s := range h.Sources {
		for _, k := range s.Hooks {
			if k.Command == cmd {
				return true
			}
		}
	}
	return false
}

// claudePlugin installs guard@mkt in Claude Code's cache and
// installed_plugins.json, with one PreToolUse hook.
func claudePlugin(t *testing.T, home string) string {
	t.Helper()
	root := filepath.Join(home, ".claude", "plugins", "cache", "mkt", "guard", "1.0.0")
	write(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`, 0o644)
	write(t, filepath.Join(root, "hooks", "hooks.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo guard"}]}]}}`, 0o644)
	write(t, filepath.Join(home, ".claude", "plugins", "installed_plugins.json"),
		`{"version":2,"plugins":{"guard@mkt":[{"scope":"user","installPath":"`+root+`","version":"1.0.0"}]}}`, 0o644)
	return root
}

func TestDisabledClaudePlugin(t *testing.T) {
	home, app := bare(t)
	root := claudePlugin(t, home)
	settings := filepath.Join(home, ".claude", "settings.json")

	write(t, settings, `{"enabledPlugins": {"guard@mkt": true}}`, 0o644)
	if h := only(t, app, "claude"); !hasCommand(h, "echo guard") || h.LeftOut != 0 || h.Failing() {
		t.Fatalf("enabled plugin: %+v", h)
	}

	write(t, settings, `{"enabledPlugins": {"guard@mkt": false}}`, 0o644)
	h := only(t, app, "claude")
	s := leftOutPlugin(t, h, "guard@mkt")
	if s.Path != root || s.Reason != "pluginDisabled" || !strings.Contains(s.Message, "plugin guard@mkt is disabled in "+settings) ||
		s.Fix != "claude plugin enable --scope user guard@mkt" || !s.UserChoice {
		t.Errorf("plugin disabled in the user's settings: %+v", s)
	}
	if hasCommand(h, "echo guard") || h.LeftOut != 1 || h.Off != 1 || h.Failing() {
		t.Errorf("the user's own switch is reported, not a failure: %+v", h)
	}
	if !strings.Contains(h.Summary, "1 source(s) not read (1 switched off by the user)") {
		t.Errorf("summary %q", h.Summary)
	}

	// Enabled by the user, disabled by a trusted project's settings: what
	// the user asked for does not run.
	write(t, settings, `{"enabledPlugins": {"guard@mkt": true}}`, 0o644)
	write(t, filepath.Join(home, ".claude.json"), `{"projects": {"`+app+`": {"hasTrustDialogAccepted": true}}}`, 0o644)
	project := filepath.Join(app, ".claude", "settings.json")
	write(t, project, `{"enabledPlugins": {"guard@mkt": false}}`, 0o644)
	h = only(t, app, "claude")
	s = leftOutPlugin(t, h, "guard@mkt")
	if !strings.Contains(s.Message, project) || s.Fix != "claude plugin enable --scope project guard@mkt" || s.UserChoice || !h.Failing() {
		t.Errorf("plugin disabled by the project: %+v (failing %v)", s, h.Failing())
	}
}

func TestDisabledCodexPlugin(t *testing.T) {
	home, app := bare(t)
	root := filepath.Join(home, ".codex", "plugins", "cache", "mkt", "guard", "1.0.0")
	write(t, filepath.Join(root, ".codex-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`, 0o644)
	write(t, filepath.Join(root, "hooks", "hooks.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo guard"}]}]}}`, 0o644)
	cfg := filepath.Join(home, ".codex", "config.toml")

	write(t, cfg, "[plugins.\"guard@mkt\"]\nenabled = true\n", 0o644)
	if h := only(t, app, "codex"); !hasCommand(h, "echo guard") || h.LeftOut != 0 {
		t.Fatalf("enabled plugin: %+v", h)
	}
	write(t, cfg, "[plugins.\"guard@mkt\"]\nenabled = false\n", 0o644)
	h := only(t, app, "codex")
	s := leftOutPlugin(t, h, "guard@mkt")
	if s.Path != root || s.Reason != "pluginDisabled" || !strings.Contains(s.Message, "disabled in "+cfg) ||
		s.Fix != `set enabled = true under [plugins."guard@mkt"] in `+cfg || !s.UserChoice {
		t.Errorf("disabled codex plugin: %+v", s)
	}
	if hasCommand(h, "echo guard") || h.Failing() {
		t.Errorf("codex with a plugin the user disabled: %+v", h)
	}
	// Installed and named nowhere: left out too, and a failure.
	write(t, cfg, "", 0o644)
	h = only(t, app, "codex")
	if s := leftOutPlugin(t, h, "guard@mkt"); !strings.Contains(s.Message, "does not enable it") || s.Fix != `add [plugins."guard@mkt"] with enabled = true to `+cfg || s.UserChoice || !h.Failing() {
		t.Errorf("codex plugin enabled nowhere: %+v", s)
	}
	// Not installed: nothing to report.
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if h := only(t, app, "codex"); len(h.Sources) != 0 {
		t.Errorf("disabled and not installed: %+v", h.Sources)
	}
}

// extension installs an extension of Gemini CLI or Qwen Code under
// <folder>/extensions/<name>, with one hook.
func extension(t *testing.T, folder, manifest, name, event string) string {
	t.Helper()
	root := filepath.Join(folder, "extensions", name)
	write(t, filepath.Join(root, manifest), `{"name":"`+name+`","version":"1.0.0"}`, 0o644)
	write(t, filepath.Join(root, "hooks", "hooks.json"), `{"hooks":{"`+event+`":[{"hooks":[{"type":"command","command":"echo `+name+`"}]}]}}`, 0o644)
	return root
}

func TestDisabledGeminiExtension(t *testing.T) {
	home, app := bare(t)
	folder := filepath.Join(home, ".gemini")
	root := extension(t, folder, "gemini-extension.json", "guard", "BeforeTool")
	enablement := filepath.Join(folder, "extensions", "extension-enablement.json")
	if h := only(t, app, "gemini"); !hasCommand(h, "echo guard") {
		t.Fatalf("an extension with no rule is enabled: %+v", h)
	}
	cases := []struct {
		rules string
		off   bool
	}{
		{`["!` + app + `/*"]`, true},
		{`["!` + filepath.Dir(app) + `/*"]`, true},     // a folder above
		{`["!` + app + `/sub/*"]`, false},              // a folder below
		{`["!` + app + `/"]`, true},                    // this folder only
		{`["!` + app + `/*", "` + app + `/*"]`, false}, // the last rule wins
		{`["!` + home + `/*"]`, false},                 // the user scope covers the home only
	}
	for _, c := range cases {
		write(t, enablement, `{"guard": {"overrides": `+c.rules+`}}`, 0o644)
		h := only(t, app, "gemini")
		if !c.off {
			if !hasCommand(h, "echo guard") || h.LeftOut != 0 {
				t.Errorf("rules %s: the extension should load: %+v", c.rules, h)
			}
			continue
		}
		s := leftOutPlugin(t, h, "guard")
		if s.Path != root || !strings.Contains(s.Message, "extension guard is disabled in "+enablement) ||
			s.Fix != "cd "+app+" && gemini extensions enable --scope workspace guard" || !s.UserChoice || h.Failing() || hasCommand(h, "echo guard") {
			t.Errorf("rules %s: %+v", c.rules, s)
		}
	}
}

func TestDisabledQwenExtension(t *testing.T) {
	home, app := bare(t)
	folder := filepath.Join(home, ".qwen")
	extension(t, folder, "qwen-extension.json", "guard", "PreToolUse")
	// Before the store exists: the enablement file's rules.
	write(t, filepath.Join(folder, "extensions", "extension-enablement.json"), `{"guard": {"overrides": ["!`+app+`/*"]}}`, 0o644)
	if s := leftOutPlugin(t, only(t, app, "qwen"), "guard"); s.Fix != "cd "+app+" && qwen extensions enable --scope workspace guard" {
		t.Errorf("qwen, enablement file: %+v", s)
	}
	// The store decides once it exists: the folder's own override, then
	// the path rules, then the default.
	state := filepath.Join(folder, "extension-store", "state.json")
	real, err := filepath.EvalSymlinks(app)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		policy string
		off    bool
	}{
		{`"defaultActivation":"enabled","workspaceOverrides":{}`, false},
		{`"defaultActivation":"disabled","workspaceOverrides":{}`, true},
		{`"defaultActivation":"enabled","workspaceOverrides":{"` + real + `":"disabled"}`, true},
		{`"defaultActivation":"disabled","workspaceOverrides":{"` + real + `":"enabled"}`, false},
		{`"defaultActivation":"enabled","workspaceOverrides":{},"legacyPathRules":["!` + app + `/*"]`, true},
		{`"defaultActivation":"disabled","workspaceOverrides":{"` + real + `":"inherit"}`, true},
	}
	for _, c := range cases {
		write(t, state, `{"version":2,"generation":1,"extensions":{"`+strings.Repeat("a", 64)+`":{"name":"guard",`+c.policy+`}}}`, 0o644)
		h := only(t, app, "qwen")
		if got := !hasCommand(h, "echo guard"); got != c.off {
			t.Errorf("store %s: left out %v, want %v (%+v)", c.policy, got, c.off, h.Sources)
			continue
		}
		if c.off {
			if s := leftOutPlugin(t, h, "guard"); !strings.Contains(s.Message, state) || h.Failing() {
				t.Errorf("store %s: %+v", c.policy, s)
			}
		}
	}
}

func TestDisabledCopilotPlugin(t *testing.T) {
	home, app := bare(t)
	folder := filepath.Join(home, ".copilot")
	root := filepath.Join(folder, "installed-plugins", "_direct", "guard")
	write(t, filepath.Join(root, "hooks.json"), `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"echo guard"}]}}`, 0o644)
	record := func(enabled string) {
		write(t, filepath.Join(folder, "config.json"), "// User settings belong in settings.json.\n// This file is managed automatically.\n"+
			`{"installedPlugins": [{"name": "guard", "marketplace": "", "version": "1.0.0", "cache_path": "`+root+`", "enabled": `+enabled+`}]}`, 0o644)
	}
	record("true")
	if h := only(t, app, "copilot"); !hasCommand(h, "echo guard") {
		t.Fatalf("an installed, enabled plugin loads: %+v", h)
	}
	record("false")
	h := only(t, app, "copilot")
	s := leftOutPlugin(t, h, "guard")
	if s.Path != root || !strings.Contains(s.Message, filepath.Join(folder, "config.json")) || s.Fix != "copilot plugin enable guard" || h.Failing() || hasCommand(h, "echo guard") {
		t.Errorf("disabled copilot plugin: %+v", s)
	}
}

// An event another host has is named by the one this host has at the same
// point, whatever its case (Copilot CLI's camelCase).
func TestNearestEventAcrossHosts(t *testing.T) {
	home, app := bare(t)
	write(t, filepath.Join(home, ".copilot", "hooks", "user.json"), `{"version":1,"hooks":{"BeforeTool":[{"type":"command","bash":"echo x"}]}}`, 0o644)
	write(t, filepath.Join(home, ".qwen", "settings.json"), `{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"echo x"}]}]}}`, 0o644)
	for host, want := range map[string]string{"copilot": "the nearest it has is preToolUse", "qwen": "the nearest it has is PreToolUse"} {
		h := only(t, app, host)
		found := false
		for _, s := range h.Sources {
			found = found || strings.Contains(s.Message, want)
			for _, p := range s.Problems {
				found = found || strings.Contains(p.Message, want)
			}
		}
		if !found {
			t.Errorf("%s: no %q in %+v", host, want, h.Sources)
		}
	}
}

// Qwen Code with folder trust turned on, and Copilot CLI: a project's hooks
// are read only in a folder the host's record trusts; the fix is hookd
// trust --project, which writes that record.
func TestProjectTrustQwenCopilot(t *testing.T) {
	home, app := bare(t)
	write(t, filepath.Join(home, ".qwen", "settings.json"), `{"security": {"folderTrust": {"enabled": true}}}`, 0o644)
	write(t, filepath.Join(app, ".qwen", "settings.json"), `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo qwen"}]}]}}`, 0o644)
	write(t, filepath.Join(app, ".github", "hooks", "repo.json"), `{"version":1,"hooks":{"userPromptSubmitted":[{"type":"command","bash":"echo copilot"}]}}`, 0o644)
	write(t, filepath.Join(home, ".copilot", "config.json"), "// managed by the CLI\n{\"firstLaunchAt\": \"2026-12-01T00:00:00.000Z\"}\n", 0o644)
	for _, c := range []struct{ host, cmd, file string }{
		{"qwen", "echo qwen", filepath.Join(app, ".qwen", "settings.json")},
		{"copilot", "echo copilot", filepath.Join(app, ".github", "hooks", "repo.json")},
	} {
		h := only(t, app, c.host)
		var left *doctor.Source
		for i, s := range h.Sources {
			if s.Path == c.file && !s.Read {
				left = &h.Sources[i]
			}
		}
		if left == nil || left.Reason != "untrustedProject" || left.Fix != "hookd trust --project --profile "+c.host+" "+app || hasCommand(h, c.cmd) || !h.Failing() {
			t.Errorf("%s, folder not trusted: %+v", c.host, h.Sources)
			continue
		}
		p, _ := hooks.LookupProfile(c.host)
		if _, err := p.ProjectTrust.Set(doctor.UserFolder(p), app, true); err != nil {
			t.Fatal(err)
		}
		if h := only(t, app, c.host); !hasCommand(h, c.cmd) || h.Project == nil || !h.Project.Trusted {
			t.Errorf("%s, after trusting the folder: %+v", c.host, h)
		}
	}
	// Qwen Code's record as it writes it; a refusal deeper down wins.
	data, err := os.ReadFile(filepath.Join(home, ".qwen", "trustedFolders.json"))
	if err != nil || !strings.Contains(string(data), `"`+app+`":"TRUST_FOLDER"`) {
		t.Fatalf("trustedFolders.json: %s %v", data, err)
	}
	write(t, filepath.Join(home, ".qwen", "trustedFolders.json"), `{"`+filepath.Dir(app)+`": "TRUST_FOLDER", "`+app+`": "DO_NOT_TRUST"}`, 0o644)
	if h := only(t, app, "qwen"); hasCommand(h, "echo qwen") {
		t.Errorf("qwen: DO_NOT_TRUST on the folder itself still reads it")
	}
	// Folder trust off: every folder's settings load.
	write(t, filepath.Join(home, ".qwen", "settings.json"), `{}`, 0o644)
	if h := only(t, app, "qwen"); !hasCommand(h, "echo qwen") {
		t.Errorf("qwen with folder trust off does not read the project")
	}
	// Copilot CLI keeps its comments and other keys.
	cfg, err := os.ReadFile(filepath.Join(home, ".copilot", "config.json"))
	if err != nil || !strings.HasPrefix(string(cfg), "// managed by the CLI\n{") || !strings.Contains(string(cfg), `"firstLaunchAt"`) ||
		!strings.Contains(string(cfg), `"trustedFolders":["`+app+`"]`) {
		t.Fatalf("copilot config.json: %s %v", cfg, err)
	}
}

// A matcher of Qwen Code or Copilot CLI that no tool of the host meets, as
// the host reads it (an unanchored regex on Qwen's names, an anchored one
// on Copilot's).
func TestMatcherNeverQwenCopilot(t *testing.T) {
	home, app := bare(t)
	write(t, filepath.Join(home, ".qwen", "settings.json"), `{"hooks":{"PreToolUse":[
  {"matcher":"bash","hooks":[{"type":"command","command":"echo lower"}]},
  {"matcher":"shell","hooks":[{"type":"command","command":"echo part"}]},
  {"matcher":"Bash","hooks":[{"type":"command","command":"echo alias"}]}]}}`, 0o644)
	write(t, filepath.Join(home, ".copilot", "hooks", "user.json"), `{"version":1,"hooks":{
  "preToolUse":[{"type":"command","bash":"echo claude-name","matcher":"Bash"},{"type":"command","bash":"echo own","matcher":"bash"}]}}`, 0o644)
	write(t, filepath.Join(home, ".copilot", "hooks", "vscode.json"), `{"version":1,"hooks":{
  "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo pascal"}]}]}}`, 0o644)
	want := map[string]map[string]string{
		"qwen":    {"echo lower": `edit the matcher to "Bash"`, "echo part": "", "echo alias": ""},
		"copilot": {"echo claude-name": `edit the matcher to "bash"`, "echo own": "", "echo pascal": ""},
	}
	for host, cmds := range want {
		hs := hooksOf(t, only(t, app, host))
		for cmd, fix := range cmds {
			k, ok := hs[cmd]
			switch {
			case !ok:
				t.Errorf("%s: no hook %q", host, cmd)
			case fix == "" && !k.Runs:
				t.Errorf("%s: %q should run: %+v", host, cmd, k)
			case fix != "" && (k.Runs || k.Reason != doctor.ReasonMatcherNever || k.Fix != fix):
				t.Errorf("%s: %q: %+v, want matcherNeverMatches with %q", host, cmd, k, fix)
			}
		}
	}
}

// A Claude Code plugin installed and enabled by no settings file runs no
// hook: that is reported, and is a failure (the user installed it to run).
func TestClaudePluginNeverEnabled(t *testing.T) {
	home, app := bare(t)
	claudePlugin(t, home)
	write(t, filepath.Join(home, ".claude", "settings.json"), `{}`, 0o644)
	h := only(t, app, "claude")
	s := leftOutPlugin(t, h, "guard@mkt")
	if !strings.Contains(s.Message, "no settings file enables it") || s.Fix != "claude plugin enable --scope user guard@mkt" || s.UserChoice || !h.Failing() || hasCommand(h, "echo guard") {
		t.Errorf("plugin enabled nowhere: %+v (failing %v)", s, h.Failing())
	}
}
