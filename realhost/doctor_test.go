//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// hookd doctor against the real hosts: for each world, what doctor says
// will run is what the real CLI runs, and after the fix doctor gives, the
// real CLI runs it.

// doctorReport runs `hookd doctor --json` for one host with env (the
// host's own HOME and folder variables) in folder work.
func doctorReport(t *testing.T, env []string, work, host string) gjson.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	out, errOut, err := rh.Run(ctx, work, env, "", rh.Hookd(t), "doctor", "--json", "--host", host, "--cwd", work)
	if out == "" {
		t.Fatalf("hookd doctor: %v\n%s", err, errOut)
	}
	return gjson.Parse(out)
}

// doctorHook finds the hook of recorder name in a doctor report.
func doctorHook(r gjson.Result, name string) gjson.Result {
	for _, s := range r.Get("hosts.0.sources").Array() {
		for _, h := range s.Get("hooks").Array() {
			if strings.Contains(h.Get("command").Str, "/"+name+".XXXXXX") {
				return h
			}
		}
	}
	return gjson.Result{}
}

// doctorSays is doctor's verdict for a hook, yes or no, and its reason.
func doctorSays(h gjson.Result) (verdict, reason string) {
	switch {
	case !h.Exists():
		return "no", "not found"
	case h.Get("runs").Bool():
		return "yes", ""
	}
	return "no", h.Get("reason").Str
}

// because is the behaviour's suffix naming doctor's reason.
func because(reason string) string {
	if reason == "" {
		return ""
	}
	return "; doctor: " + reason
}

// runFix runs the hookd command doctor gave as a fix.
func runFix(t *testing.T, env []string, work, fix string) {
	t.Helper()
	fix = strings.TrimPrefix(fix, "review it, then ")
	args := strings.Fields(fix)
	if len(args) < 2 || args[0] != "hookd" {
		t.Fatalf("fix %q is not a hookd command", fix)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	if out, errOut, err := rh.Run(ctx, work, env, "", rh.Hookd(t), args[1:]...); err != nil {
		t.Fatalf("%s: %v\n%s%s", fix, err, out, errOut)
	}
}

// codexExecReviewed runs codex exec without --dangerously-bypass-hook-trust:
// only reviewed hooks run, as for a user.
func codexExecReviewed(t *testing.T, r *codexRun) {
	t.Helper()
	bin, err := hostBinary("@openai/codex", codexVersion, "codex")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(baseEnv(r.home), "CODEX_HOME="+r.home, "OPENAI_API_KEY=sk-realhost", "RUST_LOG=error")
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, "exec", "--skip-git-repo-check", "-C", r.work, "hello")
	if err != nil {
		t.Logf("codex exec: %v\n%s\n%s", err, r.stdout, r.stderr)
	}
}

// TestCodex_DoctorAgrees: a reviewed, an unreviewed and a modified hook.
func TestCodex_DoctorAgrees(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf("UserPromptSubmit", []any{group("-", rec.Cmd("reviewed", "", 0)), group("-", rec.Cmd("modified", "", 0))}),
		say("one"), say("two"))
	env := append(baseEnv(r.home), "CODEX_HOME="+r.home)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	out, errOut, err := rh.Run(ctx, r.work, env, "", rh.Hookd(t), "trust", "--all", "--cwd", r.work)
	cancel()
	if err != nil {
		t.Fatalf("hookd trust --all: %v\n%s%s", err, out, errOut)
	}
	// The "modified" hook changes after its review (its timeout); an
	// "unreviewed" one is added.
	hooksJSON := filepath.Join(r.home, "hooks.json")
	rh.WriteFile(t, hooksJSON, mustJSON(map[string]any{"hooks": hooksOf("UserPromptSubmit", []any{
		group("-", rec.Cmd("reviewed", "", 0)),
		map[string]any{"hooks": []any{map[string]any{"type": "command", "command": rec.Cmd("modified", "", 0), "timeout": 30}}},
		group("-", rec.Cmd("unreviewed", "", 0)),
	})}))

	names := []string{"reviewed", "unreviewed", "modified"}
	seen := map[string]int{}
	check := func(when string) map[string]gjson.Result {
		codexExecReviewed(t, r)
		rep := doctorReport(t, env, r.work, "codex")
		got := map[string]gjson.Result{}
		for _, n := range names {
			h := doctorHook(rep, n)
			got[n] = h
			d, why := doctorSays(h)
			calls := len(rec.Calls(n))
			record(t, "codex", "doctor", fmt.Sprintf("%s hook runs (%s%s)", n, when, because(why)), yesNo(calls > seen[n]), d)
			seen[n] = calls
		}
		return got
	}
	before := check("as found")
	for _, n := range []string{"unreviewed", "modified"} {
		runFix(t, env, r.work, before[n].Get("fix").Str)
	}
	check("after doctor's fixes")
}

// TestClaude_DoctorMatcher: a matcher written "bash" never meets Claude
// Code's Bash tool; "Bash" does. After the edit doctor gives, the hook runs.
func TestClaude_DoctorMatcher(t *testing.T) {
	rec := rh.NewRecorder(t)
	settings := func(lower string) map[string]any {
		return map[string]any{"hooks": hooksOf("PreToolUse", []any{
			group(lower, rec.Cmd("lower", "", 0)), group("Bash", rec.Cmd("exact", "", 0))})}
	}
	r := newClaude(t, rec, settings("bash"),
		callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"),
		callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	env := baseEnv(r.home)
	seen := map[string]int{}
	check := func(when string) gjson.Result {
		r.exec(t, "run it")
		rep := doctorReport(t, env, r.work, "claude")
		for _, n := range []string{"lower", "exact"} {
			d, why := doctorSays(doctorHook(rep, n))
			record(t, "claude", "doctor", fmt.Sprintf("PreToolUse hook, matcher %s, on a Bash call (%s%s)", map[string]string{"lower": `"bash"`, "exact": `"Bash"`}[n], when, because(why)),
				yesNo(len(rec.Calls(n)) > seen[n]), d)
			seen[n] = len(rec.Calls(n))
		}
		return rep
	}
	rep := check("as found")
	fix := doctorHook(rep, "lower").Get("fix").Str
	if fix != `edit the matcher to "Bash"` {
		t.Fatalf("doctor's fix for matcher \"bash\": %q", fix)
	}
	b, _ := json.MarshalIndent(settings("Bash"), "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".claude", "settings.json"), string(b))
	check("after doctor's edit")
}

// TestClaude_DoctorUntrustedProject: an interactive Claude Code (in tmux)
// runs a project's SessionStart hook only when its record trusts the
// folder; doctor says the project's settings are not read otherwise, and
// after the trust command doctor gives, Claude Code runs the hook without
// asking. (claude -p loads the project's settings whatever the record says:
// doctor describes interactive sessions.)
func TestClaude_DoctorUntrustedProject(t *testing.T) {
	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this check needs tmux (apt-get install tmux)")
	}
	home, work := t.TempDir(), t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	rh.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), "{}")
	rh.WriteFile(t, filepath.Join(work, ".claude", "settings.json"), mustJSON(map[string]any{
		"hooks": hooksOf("SessionStart", []any{group("-", "echo ran >> "+ran)})}))
	rh.WriteFile(t, filepath.Join(home, ".claude.json"), mustJSON(map[string]any{
		"hasCompletedOnboarding": true, "theme": "dark", "projects": map[string]any{},
		"customApiKeyResponses": map[string]any{"approved": []string{"sk-ant-realhost"}, "rejected": []string{}}}))
	env := baseEnv(home)
	interactive := func(i int) string {
		os.Remove(ran)
		session := fmt.Sprintf("hookd-doctor-%d-%d", os.Getpid(), i)
		shell := fmt.Sprintf("env -i PATH=%s HOME=%s TERM=xterm-256color IS_SANDBOX=1 ANTHROPIC_API_KEY=sk-ant-realhost ANTHROPIC_BASE_URL=http://127.0.0.1:9 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 %s",
			os.Getenv("PATH"), home, bin)
		if out, err := exec.Command("tmux", "new-session", "-d", "-s", session, "-x", "150", "-y", "40", "-c", work, shell).CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v\n%s", err, out)
		}
		defer killTmux(session)
		// The screen is the only signal an interactive session gives: poll
		// it (bounded) for the trust dialog or the hook's file.
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if _, err := os.Stat(ran); err == nil {
				return "yes"
			}
			screen, _ := exec.Command("tmux", "capture-pane", "-p", "-t", session).Output()
			if strings.Contains(string(screen), "Yes, I trust this folder") {
				return "no"
			}
		}
		return "no answer"
	}
	projectSource := func(rep gjson.Result) gjson.Result {
		for _, s := range rep.Get("hosts.0.sources").Array() {
			if s.Get("path").Str == filepath.Join(work, ".claude", "settings.json") {
				return s
			}
		}
		return gjson.Result{}
	}
	says := func(s gjson.Result) string {
		if s.Get("read").Bool() {
			return "yes"
		}
		return "no"
	}
	host := interactive(0)
	rep := doctorReport(t, env, work, "claude")
	src := projectSource(rep)
	record(t, "claude", "doctor", "project's SessionStart hook runs (interactive): project never trusted"+because(src.Get("reason").Str), host, says(src))
	runFix(t, env, work, src.Get("fix").Str)
	host = interactive(1)
	record(t, "claude", "doctor", "project's SessionStart hook runs (interactive): after doctor's trust command", host, says(projectSource(doctorReport(t, env, work, "claude"))))
}

// doctorPlugin is the source doctor reports for plugin id (read or left
// out).
func doctorPlugin(r gjson.Result, id string) gjson.Result {
	for _, s := range r.Get("hosts.0.sources").Array() {
		if s.Get("plugin").Str == id {
			return s
		}
	}
	return gjson.Result{}
}

// pluginVerdict is doctor's word on the hook of recorder name that plugin
// id holds: left out with the plugin, or the hook's own verdict.
func pluginVerdict(rep gjson.Result, id, name string) (verdict, reason string) {
	if s := doctorPlugin(rep, id); s.Exists() && !s.Get("read").Bool() {
		return "no", s.Get("reason").Str
	}
	return doctorSays(doctorHook(rep, name))
}

// TestCodex_DoctorDisabledPlugin: an installed plugin that config.toml
// does not name, then disables. Codex runs none of its hooks; doctor leaves the plugin out and
// gives the edit. After the edit the hook awaits review in both; after
// doctor's next fix (hookd trust) Codex runs it.
func TestCodex_DoctorDisabledPlugin(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCodex(t, hooksOf(), say("one"), say("two"), say("three"), say("four"))
	root := filepath.Join(r.home, "plugins", "cache", "mkt", "guard", "1.0.0")
	rh.WriteFile(t, filepath.Join(root, ".codex-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`)
	rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), mustJSON(map[string]any{"hooks": hooksOf("UserPromptSubmit", []any{group("-", rec.Cmd("plug", "", 0))})}))
	cfgPath := filepath.Join(r.home, "config.toml")
	cfg, _ := os.ReadFile(cfgPath)
	env := append(baseEnv(r.home), "CODEX_HOME="+r.home)
	seen := 0
	check := func(when string) gjson.Result {
		codexExecReviewed(t, r)
		rep := doctorReport(t, env, r.work, "codex")
		d, why := pluginVerdict(rep, "guard@mkt", "plug")
		record(t, "codex", "doctor", fmt.Sprintf("installed plugin's hook runs (%s%s)", when, because(why)), yesNo(len(rec.Calls("plug")) > seen), d)
		seen = len(rec.Calls("plug"))
		return rep
	}
	check("installed, no [plugins] table in config.toml")
	rh.WriteFile(t, cfgPath, string(cfg)+"\n[plugins.\"guard@mkt\"]\nenabled = false\n")
	rep := check("plugin disabled in config.toml")
	fix := doctorPlugin(rep, "guard@mkt").Get("fix").Str
	if want := `set enabled = true under [plugins."guard@mkt"] in ` + cfgPath; fix != want {
		t.Fatalf("doctor's fix for the disabled plugin: %q, want %q", fix, want)
	}
	now, _ := os.ReadFile(cfgPath)
	rh.WriteFile(t, cfgPath, strings.Replace(string(now), "[plugins.\"guard@mkt\"]\nenabled = false", "[plugins.\"guard@mkt\"]\nenabled = true", 1))
	rep = check("after doctor's edit: enabled, not reviewed")
	runFix(t, env, r.work, doctorHook(rep, "plug").Get("fix").Str)
	check("after doctor's hookd trust")
}

// TestClaude_DoctorDisabledPlugin: an installed plugin that no settings
// file enables, then that the user's settings disable (enabledPlugins
// false). Claude Code runs none of its hooks; doctor leaves the plugin out,
// and after the command doctor gives (Claude Code's own `claude plugin
// enable`) Claude Code runs it.
func TestClaude_DoctorDisabledPlugin(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newClaude(t, rec, map[string]any{}, say("one"), say("two"), say("three"))
	src := filepath.Join(t.TempDir(), "mkt")
	rh.WriteFile(t, filepath.Join(src, ".claude-plugin", "marketplace.json"),
		`{"name":"mkt","owner":{"name":"realhost"},"plugins":[{"name":"guard","source":"./guard","version":"1.0.0"}]}`)
	hooks := mustJSON(map[string]any{"hooks": hooksOf("UserPromptSubmit", []any{group("-", rec.Cmd("plug", "", 0))})})
	plugins := filepath.Join(r.home, ".claude", "plugins")
	cache := filepath.Join(plugins, "cache", "mkt", "guard", "1.0.0")
	for _, root := range []string{filepath.Join(src, "guard"), cache} {
		rh.WriteFile(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0"}`)
		rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), hooks)
	}
	rh.WriteFile(t, filepath.Join(plugins, "known_marketplaces.json"), `{"mkt":{"source":{"source":"directory","path":"`+src+`"},"installLocation":"`+src+`","lastUpdated":"2026-12-01T00:00:00.000Z"}}`)
	rh.WriteFile(t, filepath.Join(plugins, "installed_plugins.json"), `{"version":2,"plugins":{"guard@mkt":[{"scope":"user","installPath":"`+cache+`","version":"1.0.0","installedAt":"2026-12-01T00:00:00.000Z","lastUpdated":"2026-12-01T00:00:00.000Z"}]}}`)
	env := baseEnv(r.home)
	seen := 0
	check := func(when string) gjson.Result {
		r.exec(t, "hello")
		rep := doctorReport(t, env, r.work, "claude")
		d, why := pluginVerdict(rep, "guard@mkt", "plug")
		record(t, "claude", "doctor", fmt.Sprintf("installed plugin's UserPromptSubmit hook runs (%s%s)", when, because(why)), yesNo(len(rec.Calls("plug")) > seen), d)
		seen = len(rec.Calls("plug"))
		return rep
	}
	// Installed, enabled nowhere; then switched off in the user's settings.
	settingsPath := filepath.Join(r.home, ".claude", "settings.json")
	rh.WriteFile(t, settingsPath, "{}")
	check("installed, no enabledPlugins entry")
	rh.WriteFile(t, settingsPath, mustJSON(map[string]any{"enabledPlugins": map[string]bool{"guard@mkt": false}}))
	rep := check("enabledPlugins false in the user's settings")
	fix := doctorPlugin(rep, "guard@mkt").Get("fix").Str
	if fix != "claude plugin enable --scope user guard@mkt" {
		t.Fatalf("doctor's fix for the disabled plugin: %q", fix)
	}
	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	out, errOut, err := rh.Run(ctx, r.work, r.hostEnv(), "", bin, strings.Fields(fix)[1:]...)
	cancel()
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", fix, err, out, errOut)
	}
	check("after doctor's claude plugin enable")
}
