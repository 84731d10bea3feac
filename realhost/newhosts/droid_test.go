//go:build realhost

package newhosts

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/realhost/rh"
)

// Factory Droid: the binary package (the @factory/cli wrapper pins a binary
// version the registry does not serve), run as `droid exec` against a
// custom model on loopback. FACTORY_AIRGAP_ENABLED keeps it from calling
// anything but the model.
var droidVersion = rh.EnvOr("REALHOST_DROID_VERSION", "0.225.2")

type droidRun struct {
	home, work string
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

func (r *droidRun) factory() string { return filepath.Join(r.home, ".factory") }

// newDroid writes ~/.factory/settings.json with the scripted model as the
// only custom model and hooks as its "hooks".
func newDroid(t *testing.T, hooks map[string]any, script ...turn) *droidRun {
	t.Helper()
	r := &droidRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	settings := map[string]any{
		"customModels": []any{map[string]any{"model": "realhost-model", "displayName": "realhost", "baseUrl": r.model.URL() + "/v1",
			"apiKey": "sk-realhost", "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}},
		"hooks": hooks,
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	rh.WriteFile(t, filepath.Join(r.factory(), "settings.json"), string(b))
	return r
}

func (r *droidRun) run(t *testing.T, prompt string) {
	t.Helper()
	bin := npmBin(t, "@factory/cli-linux-x64", droidVersion, "@factory/cli-linux-x64/bin/droid")
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(baseEnv(r.home), "FACTORY_AIRGAP_ENABLED=true")
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, "exec", "--auto", "high", "-m", "custom:realhost-model", "-o", "json", prompt)
	r.took = time.Since(start)
	if err != nil {
		t.Logf("droid: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

func (r *droidRun) hookd(t *testing.T, event, input string) string {
	return hookdRun(t, r.home, r.work, "droid", event, input, "--home", r.factory(), "--project", r.work)
}

// toolResult is the first tool message the model got back.
func (r *droidRun) toolResult() string {
	for _, body := range r.model.Requests() {
		var found string
		gjson.Get(body, "messages").ForEach(func(_, m gjson.Result) bool {
			if m.Get("role").Str == "tool" && found == "" {
				found = contentText(m.Get("content"))
			}
			return true
		})
		if found != "" {
			return found
		}
	}
	return ""
}

var droidShell = callTool("Execute", `{"command":"echo realhost-ran","riskLevel":"low","riskLevelReason":"echo"}`)

// droidVerdict: the tool ran when its output reached the model; a denied
// call's tool message is "Error: <reason>".
func droidVerdict(tool string) string {
	switch {
	case strings.Contains(tool, "rewritten"):
		return "rewritten ran"
	case strings.Contains(tool, "realhost-ran"):
		return "ran"
	case tool == "":
		return "no tool result"
	}
	return "denied: " + strings.TrimSpace(strings.TrimPrefix(tool, "Error: "))
}

func droidHookdVerdict(res string) string {
	if gjson.Get(res, "decision").Str == "deny" {
		return "denied: " + strings.TrimSpace(gjson.Get(res, "reason").Str)
	}
	if strings.Contains(gjson.Get(res, "updatedInput.command").Str, "rewritten") {
		return "rewritten ran"
	}
	if gjson.Get(res, "decision").Exists() {
		return "ran"
	}
	return "no result: " + res
}

func dhook(matcher, command string) map[string]any { return ghook(matcher, command) }

func TestDroid_PreToolUse(t *testing.T) {
	cases := []struct {
		behaviour, out string
		code           int
		stderr         string
	}{
		{"hookSpecificOutput.permissionDecision deny denies", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hso deny"}}`, 0, ""},
		{"top-level decision block does not deny", `{"decision":"block","reason":"top block"}`, 0, ""},
		{"top-level decision deny does not deny", `{"decision":"deny","reason":"top deny"}`, 0, ""},
		{"exit 2 denies with stderr", "", 2, "from stderr"},
		{"exit 2 with a JSON allow on stdout still denies", `{"hookSpecificOutput":{"permissionDecision":"allow"}}`, 2, "exit two"},
		{"JSON deny on exit 1 denies", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"json on 1"}}`, 1, ""},
		{"exit 1 with stderr does not block", "", 1, "oops"},
		{"plain stdout on exit 0 does not block", "all good", 0, ""},
		{"permissionDecision ask does not block", `{"hookSpecificOutput":{"permissionDecision":"ask"}}`, 0, ""},
		{"allow with updatedInput runs the rewritten call", `{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}`, 0, ""},
		{"updatedInput without a decision is applied", `{"hookSpecificOutput":{"updatedInput":{"command":"echo rewritten"}}}`, 0, ""},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			cmd := rec.Cmd("pt", tc.out, tc.code)
			if tc.stderr != "" {
				errFile := filepath.Join(rec.Dir, "pt.err")
				rh.WriteFile(t, errFile, tc.stderr)
				cmd = "cat " + hooks.ShellQuote(errFile) + " >&2; " + cmd
			}
			r := newDroid(t, map[string]any{"PreToolUse": []any{dhook("Execute", cmd)}}, droidShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("pt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstderr:\n%s", r.stderr)
			}
			res := r.hookd(t, "PreToolUse", calls[0].Stdin)
			record(t, "droid", "PreToolUse: "+tc.behaviour, droidVerdict(r.toolResult()), droidHookdVerdict(res))
		})
	}
}

func TestDroid_ProjectBeforeUserFirstDecisionWins(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newDroid(t, map[string]any{"PreToolUse": []any{dhook("Execute",
		rec.Cmd("user", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"user deny"}}`, 0))}}, droidShell, say("ok"))
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{dhook("Execute",
		rec.Cmd("proj", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"project deny"}}`, 0))}}})
	rh.WriteFile(t, filepath.Join(r.work, ".factory", "settings.json"), string(b))
	r.run(t, "run it")
	calls := rec.Calls("proj")
	if len(calls) == 0 {
		t.Fatalf("the project hook did not run\n%s", r.stderr)
	}
	res := r.hookd(t, "PreToolUse", calls[0].Stdin)
	record(t, "droid", "project and user deny: the reason given", droidVerdict(r.toolResult()), droidHookdVerdict(res))
	record(t, "droid", "the user hook runs too", runs(len(rec.Calls("user")) > 0), runs(gjson.Get(res, "hooks.#").Int() == 2))
}

func TestDroid_HooksJSONReplacesSettingsEvent(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newDroid(t, map[string]any{"PreToolUse": []any{dhook("Execute", rec.Cmd("settings", "", 0))}, "PostToolUse": []any{dhook("", rec.Cmd("post", "", 0))}}, droidShell, say("ok"))
	b, _ := json.Marshal(map[string]any{"PreToolUse": []any{dhook("Execute", rec.Cmd("hooksjson", "", 0))}})
	rh.WriteFile(t, filepath.Join(r.factory(), "hooks.json"), string(b))
	local, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{dhook("Execute", rec.Cmd("local", "", 0))}}})
	rh.WriteFile(t, filepath.Join(r.factory(), "settings.local.json"), string(local))
	r.run(t, "run it")
	hj := rec.Calls("hooksjson")
	if len(hj) == 0 {
		t.Fatalf("hooks.json's hook did not run\n%s", r.stderr)
	}
	res := r.hookd(t, "PreToolUse", hj[0].Stdin)
	for _, name := range []string{"settings", "hooksjson", "local"} {
		file := map[string]string{"settings": "settings.json:", "hooksjson": "hooks.json:", "local": "settings.local.json:"}[name]
		record(t, "droid", "PreToolUse hook in "+strings.TrimSuffix(file, ":"), runs(len(rec.Calls(name)) > 0), runs(strings.Contains(res, "/.factory/"+file+"pre_tool_use")))
	}
	post := rec.Calls("post")
	mine := r.hookd(t, "PostToolUse", `{"tool_name":"Execute","tool_input":{"command":"x"}}`)
	record(t, "droid", "settings.json's PostToolUse kept beside hooks.json's PreToolUse", runs(len(post) > 0), runs(strings.Contains(mine, "settings.json:post_tool_use:0:0")))
}

func TestDroid_Matchers(t *testing.T) {
	rec := rh.NewRecorder(t)
	type m struct {
		matcher, commandRegex string
	}
	ms := []m{{"Bash", ""}, {"Exec", ""}, {"execute", ""}, {"Execute", ""}, {"*", ""}, {"^Execute$", ""}, {"Execute", "^echo "}, {"Execute", "^ls"}, {"*", "realhost"}, {"Create|Edit", ""}}
	var groups []any
	for i, x := range ms {
		g := dhook(x.matcher, rec.Cmd(fmt.Sprintf("m%d", i), "", 0))
		if x.commandRegex != "" {
			g["commandRegex"] = x.commandRegex
		}
		groups = append(groups, g)
	}
	r := newDroid(t, map[string]any{"PreToolUse": groups}, droidShell, say("ok"))
	r.run(t, "run it")
	stdin := firstMatcherStdin(t, rec, len(ms), r.stderr)
	res := r.hookd(t, "PreToolUse", stdin)
	for i, x := range ms {
		ran := len(rec.Calls(fmt.Sprintf("m%d", i))) > 0
		name := fmt.Sprintf("matcher %q on Execute", x.matcher)
		if x.commandRegex != "" {
			name += fmt.Sprintf(" with commandRegex %q", x.commandRegex)
		}
		record(t, "droid", name, runs(ran), runs(strings.Contains(res, fmt.Sprintf("pre_tool_use:%d:0", i))))
	}
}

// droidEnvVars are compared between the CLI's hook and hookd's: the
// project variables, the plugin root marker and the input's scalar fields.
var droidEnvVars = []string{"CLAUDE_PROJECT_DIR", "DROID_PROJECT_DIR", "FACTORY_PROJECT_DIR", "DROID_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT",
	"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name", "tool_name", "tool_input"}

func TestDroid_Environment(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newDroid(t, map[string]any{"PreToolUse": []any{dhook("Execute", rec.Cmd("pt", "", 0))},
		"SessionStart": []any{dhook("", rec.Cmd("ss", "", 0))}, "Stop": []any{dhook("", rec.Cmd("stop", "", 0))}}, droidShell, say("ok"))
	r.run(t, "run it")
	for _, ev := range []struct{ name, event string }{{"pt", "PreToolUse"}, {"ss", "SessionStart"}, {"stop", "Stop"}} {
		calls := rec.Calls(ev.name)
		if len(calls) == 0 {
			t.Fatalf("%s did not run\n%s", ev.event, r.stderr)
		}
		real := calls[0]
		r.hookd(t, ev.event, real.Stdin)
		all := rec.Calls(ev.name)
		mine := all[len(all)-1]
		names := append([]string(nil), droidEnvVars...)
		gjson.Parse(real.Stdin).ForEach(func(k, _ gjson.Result) bool {
			if !contains(names, k.Str) {
				names = append(names, k.Str)
			}
			return true
		})
		for _, v := range names {
			record(t, "droid", ev.event+" env "+v, envValue(real.Env, v), envValue(mine.Env, v))
		}
		record(t, "droid", ev.event+" runs in", dirName(real.Env["PWD"], r.work), dirName(mine.Env["PWD"], r.work))
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func envValue(env map[string]string, k string) string {
	v, ok := env[k]
	if !ok {
		return "unset"
	}
	return "= " + v
}

func dirName(pwd, work string) string {
	if pwd == work {
		return "the project folder"
	}
	return pwd
}

func TestDroid_StopContinues(t *testing.T) {
	for _, tc := range []struct {
		behaviour, out string
		code           int
	}{
		{"decision block with a reason continues with it", `{"decision":"block","reason":"keep going please"}`, 0},
		{"exit 2 continues with stderr", "", 2},
		{"decision block without a reason does not continue", `{"decision":"block"}`, 0},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			once := filepath.Join(rec.Dir, "once")
			errFile := filepath.Join(rec.Dir, "stop.err")
			rh.WriteFile(t, errFile, "keep going please")
			cmd := fmt.Sprintf("if [ -e %[1]s ]; then cat > /dev/null; exit 0; fi; touch %[1]s; cat %[2]s >&2; %[3]s", hooks.ShellQuote(once), hooks.ShellQuote(errFile), rec.Cmd("stop", tc.out, tc.code))
			r := newDroid(t, map[string]any{"Stop": []any{dhook("", cmd)}}, say("first answer"), say("second answer"))
			r.run(t, "hello")
			calls := rec.Calls("stop")
			if len(calls) == 0 {
				t.Fatalf("the Stop hook did not run\n%s", r.stderr)
			}
			os.Remove(once)
			res := r.hookd(t, "Stop", calls[0].Stdin)
			host, mine := newTurn(r.model.Requests(), res, "keep going please")
			record(t, "droid", "Stop: "+tc.behaviour, host, mine)
		})
	}
}

func TestDroid_SessionStartContext(t *testing.T) {
	for _, tc := range []struct{ behaviour, out string }{
		{"plain stdout reaches the model", "realhost-context-plain"},
		{"additionalContext reaches the model", `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"realhost-context-json"}}`},
		{"a JSON object without additionalContext adds nothing", `{"systemMessage":"realhost-context-none"}`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newDroid(t, map[string]any{"SessionStart": []any{dhook("", rec.Cmd("ss", tc.out, 0))}}, say("ok"))
			r.run(t, "hello")
			calls := rec.Calls("ss")
			if len(calls) == 0 {
				t.Fatalf("SessionStart did not run\n%s", r.stderr)
			}
			res := r.hookd(t, "SessionStart", calls[0].Stdin)
			reqs := r.model.Requests()
			host := "no context"
			for _, marker := range []string{"realhost-context-plain", "realhost-context-json", "realhost-context-none"} {
				if len(reqs) > 0 && strings.Contains(reqs[0], marker) {
					host = "context " + marker
				}
			}
			mine := "no context"
			if c := gjson.Get(res, "additionalContext.0.text").Str; c != "" {
				mine = "context " + c
			}
			record(t, "droid", "SessionStart: "+tc.behaviour, host, mine)
		})
	}
}

// TestDroid_HookCost compares Droid's own record of a trivial PreToolUse
// hook (hookStartTime and hookEndTime in the session's messages) with
// hookd's hooks/run round trip for the same hook.
func TestDroid_HookCost(t *testing.T) {
	script := []turn{}
	for range 10 {
		script = append(script, droidShell)
	}
	script = append(script, say("ok"))
	r := newDroid(t, map[string]any{"PreToolUse": []any{dhook("Execute", "cat > /dev/null")}}, script...)
	r.run(t, "run it ten times")
	var ds []int
	filepath.Walk(filepath.Join(r.factory(), "sessions"), func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".jsonl") {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		s.Buffer(make([]byte, 1<<20), 16<<20)
		for s.Scan() {
			m := gjson.Get(s.Text(), "message")
			if m.Get("hookEventName").Str == "PreToolUse" && m.Get("hookEndTime").Exists() {
				ds = append(ds, int(m.Get("hookEndTime").Int()-m.Get("hookStartTime").Int()))
			}
		}
		return nil
	})
	init := fmt.Sprintf(`{"profile":"droid","session":{"cwd":%q},"config":{"home":%q,"project":{"root":%q}}}`, r.work, r.factory(), r.work)
	rt := hookdRoundTrip(t, r.home, r.work, init, "PreToolUse", `{"tool_name":"Execute","tool_input":{"command":"echo"}}`, 20)
	t.Logf("droid: CLI hook durations %v ms, hookd round trip median %v, one run %v", ds, rt, r.took)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("droid: CLI's own time per trivial PreToolUse hook (`cat > /dev/null`, hookEndTime - hookStartTime in its session file), median of %d: %d ms; hookd `hooks/run` round trip, median of 20: %.1f ms; one `droid exec` run: %.1f s",
		len(ds), median(ds), float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}

// TestDroid_Subfolder runs Droid in a subfolder of a git repository: the
// project's .factory is read from the repository's root, and the hooks run
// in, and name as the project, the working folder.
func TestDroid_Subfolder(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newDroid(t, map[string]any{}, droidShell, say("ok"))
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	if _, errOut, err := rh.Run(ctx, r.work, baseEnv(r.home), "", "git", "init", "-q"); err != nil {
		t.Skipf("git init: %v %s", err, errOut)
	}
	b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"PreToolUse": []any{dhook("Execute", rec.Cmd("pt", "", 0))}}})
	rh.WriteFile(t, filepath.Join(r.work, ".factory", "settings.json"), string(b))
	root := r.work
	sub := filepath.Join(root, "sub")
	os.MkdirAll(sub, 0o755)
	r.work = sub
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("the project hook did not run from a subfolder\n%s", r.stderr)
	}
	real := calls[0]
	rec.Reset()
	hookdRun(t, r.home, sub, "droid", "PreToolUse", real.Stdin, "--home", r.factory(), "--project", root)
	mc := rec.Calls("pt")
	if len(mc) == 0 {
		t.Fatal("hookd did not run the project hook")
	}
	where := func(p string) string {
		switch p {
		case sub:
			return "the working folder"
		case root:
			return "the repository root"
		}
		return p
	}
	for _, v := range []string{"FACTORY_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "PWD"} {
		record(t, "droid", "from a subfolder: "+v, where(real.Env[v]), where(mc[0].Env[v]))
	}
}
