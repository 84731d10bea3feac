package doctor_test

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/hookd/hookd/hooks/claude"
	_ "github.com/hookd/hookd/hooks/codex"
	"github.com/hookd/hookd/hooks/doctor"
	_ "github.com/hookd/hookd/hooks/gemini"
)

// world is a machine with Codex and Claude Code configured and a project
// folder: HOME is set to it for the test.
type world struct {
	home, app string
}

func write(t testing.TB, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

func newWorld(t testing.TB) *world {
	t.Helper()
	root := t.TempDir()
	w := &world{home: filepath.Join(root, "home"), app: filepath.Join(root, "app")}
	for _, v := range []string{"CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME", "QWEN_HOME", "MIND_HOME", "MIRRI_CODE_HOME", "SOONG_AGENT_HOME"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", w.home)
	write(t, filepath.Join(w.app, ".git", "HEAD"), "ref: refs/heads/main\n", 0o644)
	// Codex: three hooks; the first two get reviewed below.
	write(t, filepath.Join(w.home, ".codex", "hooks.json"), `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo reviewed"}]}],
  "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo modified"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "echo unreviewed"}]}]
}}`, 0o644)
	// Claude Code: a case-mismatched matcher, a script that is missing, a
	// program that is not on PATH, a Stop hook that loops; a project that
	// is not trusted.
	write(t, filepath.Join(w.home, ".claude", "settings.json"), `{"hooks": {
  "PreToolUse": [
    {"matcher": "bash", "hooks": [{"type": "command", "command": "echo case"}]},
    {"matcher": "Bash", "hooks": [{"type": "command", "command": "sh /no/such/guard.sh"}]},
    {"matcher": "Edit", "hooks": [{"type": "command", "command": "no-such-program-hookd --check"}]},
    {"matcher": "Write", "hooks": [{"type": "command", "command": "echo fine"}]}
  ],
  "Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\": \"block\"}'"}]}]
}}`, 0o644)
	// Gemini CLI: a hooks file whose only event is one Gemini does not have.
	write(t, filepath.Join(w.home, ".gemini", "settings.json"), `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo x"}]}]}}`, 0o644)
	write(t, filepath.Join(w.app, ".claude", "settings.json"), `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "echo project"}]}]}}`, 0o644)
	return w
}

// review records the current hashes of the codex hooks whose commands are
// named, as hookd trust does, then edits the "modified" one.
func (w *world) review(t testing.TB) {
	t.Helper()
	r, err := doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"codex"}})
	if err != nil {
		t.Fatal(err)
	}
	var cfg strings.Builder
	for _, s := range r.Hosts[0].Sources {
		for _, h := range s.Hooks {
			if h.Command == "echo reviewed" || h.Command == "echo modified" {
				fmt.Fprintf(&cfg, "[hooks.state.'%s']\ntrusted_hash = '%s'\n\n", h.Key, h.Hash)
			}
		}
	}
	write(t, filepath.Join(w.home, ".codex", "config.toml"), cfg.String(), 0o644)
	path := filepath.Join(w.home, ".codex", "hooks.json")
	data, _ := os.ReadFile(path)
	write(t, path, strings.Replace(string(data), "echo modified", "echo modified again", 1), 0o644)
}

func hooksOf(t *testing.T, h doctor.Host) map[string]doctor.Hook {
	t.Helper()
	out := map[string]doctor.Hook{}
	for _, s := range h.Sources {
		for _, k := range s.Hooks {
			out[k.Command] = k
		}
	}
	return out
}

func host(t *testing.T, r *doctor.Report, name string) doctor.Host {
	t.Helper()
	for _, h := range r.Hosts {
		if h.Name == name {
			return h
		}
	}
	t.Fatalf("no host %s in the report", name)
	return doctor.Host{}
}

func TestVerdicts(t *testing.T) {
	w := newWorld(t)
	w.review(t)
	r, err := doctor.Run(doctor.Options{Cwd: w.app})
	if err != nil {
		t.Fatal(err)
	}
	// Only the hosts with a user folder are reported.
	if len(r.Hosts) != 3 || r.Hosts[0].Name != "claude" || r.Hosts[1].Name != "codex" || r.Hosts[2].Name != "gemini" {
		t.Fatalf("hosts = %+v, want claude, codex and gemini", r.Hosts)
	}
	gemini := host(t, r, "gemini")
	if len(gemini.Sources) != 1 || gemini.Sources[0].Read || gemini.Sources[0].Reason != doctor.ReasonBroken ||
		!strings.Contains(gemini.Sources[0].Message, "the nearest it has is BeforeTool") || !gemini.Failing() {
		t.Errorf("gemini with an event it does not have: %+v", gemini.Sources)
	}

	codex := host(t, r, "codex")
	hs := hooksOf(t, codex)
	if k := hs["echo reviewed"]; !k.Runs {
		t.Errorf("reviewed hook: %+v, want it to run", k)
	}
	if k := hs["echo modified again"]; k.Runs || k.Reason != "modified" || k.TrustedHash == "" || k.Hash == k.TrustedHash || !strings.Contains(k.Fix, "hookd trust") {
		t.Errorf("modified hook: %+v", k)
	}
	if k := hs["echo unreviewed"]; k.Runs || k.Reason != "untrusted" || k.Fix != "hookd trust "+k.Key {
		t.Errorf("unreviewed hook: %+v", k)
	}
	if codex.Run != 1 || codex.NotRun != 2 || !codex.Failing() {
		t.Errorf("codex counts: run %d, not %d", codex.Run, codex.NotRun)
	}
	if !strings.HasPrefix(codex.Summary, "codex: 1 of 3 hooks will run") {
		t.Errorf("summary %q", codex.Summary)
	}

	claude := host(t, r, "claude")
	hs = hooksOf(t, claude)
	if k := hs["echo case"]; k.Runs || k.Reason != doctor.ReasonMatcherNever || k.Fix != `edit the matcher to "Bash"` {
		t.Errorf("case matcher: %+v", k)
	}
	if k := hs["sh /no/such/guard.sh"]; k.Runs || k.Reason != doctor.ReasonScriptMissing {
		t.Errorf("missing script: %+v", k)
	}
	if k := hs["no-such-program-hookd --check"]; k.Runs || k.Reason != doctor.ReasonProgramMissing {
		t.Errorf("missing program: %+v", k)
	}
	if k := hs["echo fine"]; !k.Runs || len(k.Notes) != 0 {
		t.Errorf("plain hook: %+v", k)
	}
	stop := hs[`echo '{"decision": "block"}'`]
	if !stop.Runs || len(stop.Notes) != 1 || stop.Notes[0].Rule != "stop-loop" {
		t.Errorf("looping Stop hook: %+v", stop)
	}
	var left *doctor.Source
	for i, s := range claude.Sources {
		if !s.Read {
			left = &claude.Sources[i]
		}
	}
	if left == nil || left.Path != filepath.Join(w.app, ".claude", "settings.json") || left.Reason != "untrustedProject" || !strings.Contains(left.Fix, "hookd trust --project --profile claude") {
		t.Errorf("untrusted project source: %+v", left)
	}
	if claude.LeftOut != 1 || claude.NotRun != 3 {
		t.Errorf("claude counts: left out %d, not run %d", claude.LeftOut, claude.NotRun)
	}
}

func TestHostByName(t *testing.T) {
	w := newWorld(t)
	if err := os.RemoveAll(filepath.Join(w.home, ".gemini")); err != nil {
		t.Fatal(err)
	}
	r, err := doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"gemini"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Hosts) != 1 || r.Hosts[0].Configured || r.Hosts[0].Home != filepath.Join(w.home, ".gemini") || r.Hosts[0].Failing() {
		t.Fatalf("gemini without a user folder: %+v", r.Hosts)
	}
	// $GEMINI_CLI_HOME replaces the home above .gemini.
	base := t.TempDir()
	t.Setenv("GEMINI_CLI_HOME", base)
	write(t, filepath.Join(base, ".gemini", "settings.json"), `{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "echo ok"}]}]}}`, 0o644)
	r, err = doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"gemini"}})
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Hosts[0]; !g.Configured || g.Hooks != 1 || g.Run != 1 {
		t.Fatalf("gemini under $GEMINI_CLI_HOME: %+v", g)
	}
	if _, err := doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"codx"}}); err == nil || !strings.Contains(err.Error(), `did you mean "codex"`) {
		t.Fatalf("unknown host: %v", err)
	}
}

// snapshot is every file and folder under root: mode, size, mtime and
// content hash.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		out[path] = fmt.Sprintf("%v %d %d %s", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestReadOnly(t *testing.T) {
	w := newWorld(t)
	w.review(t)
	root := filepath.Dir(w.home)
	before := snapshot(t, root)
	for range 2 {
		if _, err := doctor.Run(doctor.Options{Cwd: w.app}); err != nil {
			t.Fatal(err)
		}
	}
	after := snapshot(t, root)
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed: %s -> %s", p, v, after[p])
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created", p)
		}
	}
}

// TestFixturePlugins: the plugins in fixtures/ whose hooks Claude Code
// silently never loads are sources not read, each with its reason.
func TestFixturePlugins(t *testing.T) {
	w := newWorld(t)
	var installed, enabled []string
	for _, rel := range []string{"../../fixtures/plugins/symlink-escape", "../../fixtures/profiles/claude/plugins/event-map-root"} {
		dir, err := filepath.Abs(rel)
		if err != nil {
			t.Fatal(err)
		}
		id := filepath.Base(dir) + "@local"
		installed = append(installed, fmt.Sprintf(`%q: [{"scope": "user", "installPath": %q, "version": "1.0.0"}]`, id, dir))
		enabled = append(enabled, fmt.Sprintf(`%q: true`, id))
	}
	write(t, filepath.Join(w.home, ".claude", "plugins", "installed_plugins.json"), `{"version": 2, "plugins": {`+strings.Join(installed, ",")+`}}`, 0o644)
	write(t, filepath.Join(w.home, ".claude", "settings.json"), `{"enabledPlugins": {`+strings.Join(enabled, ",")+`}}`, 0o644)
	r, err := doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"claude"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range r.Hosts[0].Sources {
		if !s.Read {
			got[filepath.Base(filepath.Dir(filepath.Dir(s.Path)))] = s.Reason
		}
	}
	if got["symlink-escape"] != doctor.ReasonPathRefused || got["event-map-root"] != doctor.ReasonBroken {
		t.Fatalf("sources not read: %v; want symlink-escape %s, event-map-root %s", got, doctor.ReasonPathRefused, doctor.ReasonBroken)
	}
}

// TestDuplicate: the same handler in the user's and a trusted project's
// settings runs once in Claude Code; doctor says which one does not.
func TestDuplicate(t *testing.T) {
	w := newWorld(t)
	write(t, filepath.Join(w.home, ".claude.json"), fmt.Sprintf(`{"projects": {%q: {"hasTrustDialogAccepted": true}}}`, w.app), 0o644)
	write(t, filepath.Join(w.app, ".claude", "settings.json"), `{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "echo fine"}]}]}}`, 0o644)
	r, err := doctor.Run(doctor.Options{Cwd: w.app, Hosts: []string{"claude"}})
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for _, s := range r.Hosts[0].Sources {
		for _, k := range s.Hooks {
			if k.Command == "echo fine" {
				verdicts = append(verdicts, fmt.Sprintf("%s %v %s", s.Layer, k.Runs, k.Reason))
			}
		}
	}
	if strings.Join(verdicts, ", ") != "user true , project false duplicate" {
		t.Fatalf("identical handlers: %v", verdicts)
	}
}
