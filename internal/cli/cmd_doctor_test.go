package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks/doctor"
)

func runArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestDoctor_FixItGivesMakesTheHookRun: an unreviewed codex hook fails the
// doctor (exit 1) with a trust command; running that command makes the
// next doctor pass.
func TestDoctor_FixItGivesMakesTheHookRun(t *testing.T) {
	root := t.TempDir()
	home, app := filepath.Join(root, "home"), filepath.Join(root, "app")
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "MIND_HOME", "MIRRI_CODE_HOME", "SOONG_AGENT_HOME"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".codex", "hooks.json"), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo '{}'"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, _ := runArgs(t, "doctor", "--cwd", app)
	if code != 1 {
		t.Fatalf("doctor with an unreviewed hook: exit %d, want 1\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; last != "codex: 0 of 1 hooks will run (will not: 1 untrusted)" {
		t.Fatalf("summary line %q\n%s", last, out)
	}
	code, out, _ = runArgs(t, "doctor", "--cwd", app, "--json")
	var r doctor.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || len(r.Hosts) != 1 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	fix := r.Hosts[0].Sources[0].Hooks[0].Fix
	args := strings.Fields(fix)
	if len(args) < 3 || args[0] != "hookd" || args[1] != "trust" || !strings.Contains(fix, "--cwd "+app) {
		t.Fatalf("fix %q: want a hookd trust command naming --cwd", fix)
	}
	if code, out, errs := runArgs(t, args[1:]...); code != 0 {
		t.Fatalf("%s: exit %d\n%s%s", fix, code, out, errs)
	}
	if code, out, _ := runArgs(t, "doctor", "--cwd", app); code != 0 || !strings.HasSuffix(out, "codex: 1 of 1 hooks will run\n") {
		t.Fatalf("doctor after the fix: exit %d\n%s", code, out)
	}
	if code, _, errs := runArgs(t, "doctor", "--host", "codx"); code != 1 || !strings.Contains(errs, `did you mean "codex"`) {
		t.Fatalf("--host codx: exit %d, %s", code, errs)
	}
}

// TestDoctor_ControlCharactersAreShown: a command with a terminal escape
// is printed with it visible, not sent to the terminal.
func TestDoctor_ControlCharactersAreShown(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "MIND_HOME", "MIRRI_CODE_HOME", "SOONG_AGENT_HOME"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo \u001b[2J\u001b]0;owned\u0007"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runArgs(t, "doctor", "--cwd", root, "--host", "claude")
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `echo \x1b[2J\x1b]0;owned\x07`) {
		t.Fatalf("control characters reach the terminal:\n%q", out)
	}
}

// TestDoctor_DisabledPlugin: a Codex plugin the user's config.toml
// disables is printed as a source not read, with its fix, in text and
// --json; it alone does not fail the doctor.
func TestDoctor_DisabledPlugin(t *testing.T) {
	root := t.TempDir()
	home, app := filepath.Join(root, "home"), filepath.Join(root, "app")
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "MIND_HOME", "MIRRI_CODE_HOME", "SOONG_AGENT_HOME"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", home)
	plugin := filepath.Join(home, ".codex", "plugins", "cache", "mkt", "guard", "1.0.0")
	for path, text := range map[string]string{
		filepath.Join(plugin, ".codex-plugin", "plugin.json"): `{"name":"guard"}`,
		filepath.Join(plugin, "hooks", "hooks.json"):          `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo guard"}]}]}}`,
		filepath.Join(home, ".codex", "config.toml"):          "[plugins.\"guard@mkt\"]\nenabled = false\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(app, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runArgs(t, "doctor", "--cwd", app, "--host", "codex")
	want := "   not read  " + plugin + " (plugin guard@mkt): plugin guard@mkt is disabled in " + filepath.Join(home, ".codex", "config.toml")
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, `fix: set enabled = true under [plugins."guard@mkt"]`) ||
		!strings.Contains(out, "1 source(s) not read (1 switched off by the user)") {
		t.Fatalf("exit %d, want 0 and %q\n%s", code, want, out)
	}
	code, out, _ = runArgs(t, "doctor", "--cwd", app, "--host", "codex", "--json")
	var r doctor.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if s := r.Hosts[0].Sources; len(s) != 1 || s[0].Plugin != "guard@mkt" || s[0].Read || s[0].Reason != "pluginDisabled" || !s[0].UserChoice || r.Hosts[0].Off != 1 {
		t.Fatalf("--json sources: %+v", s)
	}
}
