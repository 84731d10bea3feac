//go:build realhost

package newhosts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"

	"github.com/hookd/hookd/hooks"
)

// copilotRun is one `copilot -p` run with a BYOK provider pointed at the
// scripted model, offline, in a git repository whose .github/hooks holds
// the hooks file.
type copilotRun struct {
	home, work string
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

func newCopilot(t *testing.T, hooks map[string]any, script ...turn) *copilotRun {
	t.Helper()
	r := &copilotRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	if out, err := exec.Command("git", "init", "-q", r.work).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	b, _ := json.MarshalIndent(map[string]any{"version": 1, "hooks": hooks}, "", "  ")
	rh.WriteFile(t, filepath.Join(r.work, ".github", "hooks", "realhost.json"), string(b))
	return r
}

func (r *copilotRun) run(t *testing.T, prompt string) {
	t.Helper()
	bin := npmBin(t, "@github/copilot", copilotVersion, ".bin/copilot")
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(baseEnv(r.home),
		"COPILOT_PROVIDER_BASE_URL="+r.model.URL()+"/v1", "COPILOT_PROVIDER_API_KEY=sk-realhost",
		"COPILOT_MODEL=realhost-model", "COPILOT_OFFLINE=true", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true",
		// The runtime (~235 MB) unpacks here once, not once per run.
		"XDG_CACHE_HOME="+filepath.Join(cacheDir(t), "copilot-xdg"))
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, "-p", prompt, "--allow-all-tools", "--output-format", "json")
	r.took = time.Since(start)
	if err != nil {
		t.Logf("copilot: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

func (r *copilotRun) hookd(t *testing.T, event, input string) string {
	return hookdRun(t, r.home, r.work, "copilot", event, input, "--home", filepath.Join(r.home, ".copilot"), "--project", r.work, "--trust-project")
}

func (r *copilotRun) toolResult() string {
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

func chook(matcher, command string, extra ...any) map[string]any {
	h := map[string]any{"type": "command", "bash": command}
	if matcher != "" {
		h["matcher"] = matcher
	}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i].(string)] = extra[i+1]
	}
	return h
}

var copilotShell = callTool("bash", `{"command":"echo realhost-ran","description":"echo"}`)

var deniedBy = regexp.MustCompile(`^Denied by preToolUse hook(?: from "[^"]*")?(?::| \(hook errored\))\s*`)

// copilotVerdict: "ran", or "denied: <reason>" with the CLI's prefix cut
// ("errored" when the CLI says the hook errored).
func copilotVerdict(tool string) string {
	switch {
	case strings.Contains(tool, "realhost-ran"):
		return "ran"
	case strings.Contains(tool, "rewritten"):
		return "rewritten ran"
	case strings.Contains(tool, "(hook errored)"):
		return "denied: errored"
	case deniedBy.MatchString(tool):
		return "denied: " + deniedBy.ReplaceAllString(tool, "")
	}
	return "other: " + tool
}

func copilotHookdVerdict(res string) string {
	v := hookdVerdict(res)
	if strings.HasPrefix(v, "denied: hook errored") {
		return "denied: errored"
	}
	if v == "ran" && gjson.Get(res, "updatedInput").Exists() {
		return "rewritten ran"
	}
	return v
}

func TestCopilot_PreToolUse(t *testing.T) {
	cases := []struct {
		behaviour, out string
		code           int
		extra          []any
	}{
		{"top-level permissionDecision deny denies", `{"permissionDecision":"deny","permissionDecisionReason":"no shell"}`, 0, nil},
		{"modifiedArgs replaces the arguments", `{"permissionDecision":"allow","modifiedArgs":{"command":"echo rewritten","description":"echo"}}`, 0, nil},
		{"plain stdout on exit 0 is ignored", "just text", 0, nil},
		{"exit 2 denies", "", 2, nil},
		{"exit 1 denies (hook errored)", "", 1, nil},
		{"exit 1 with an allow on stdout denies", `{"permissionDecision":"allow"}`, 1, nil},
		{"exit 3 denies", "", 3, nil},
		{"invalid JSON on exit 0", `{"permissionDecision": deny`, 0, nil},
		{"hookSpecificOutput.permissionDecision deny in the camelCase form", `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"hso"}}`, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newCopilot(t, map[string]any{"preToolUse": []any{chook("", rec.Cmd("pt", tc.out, tc.code), tc.extra...)}}, copilotShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("pt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstderr:\n%s", r.stderr)
			}
			record(t, "copilot", "preToolUse: "+tc.behaviour, copilotVerdict(r.toolResult()), copilotHookdVerdict(r.hookd(t, "preToolUse", calls[0].Stdin)))
		})
	}
}

func TestCopilot_TimeoutFailsOpen(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{"preToolUse": []any{chook("", rec.CmdSleep("pt", `{"permissionDecision":"deny","permissionDecisionReason":"late"}`, 0, 4), "timeoutSec", 1)}}, copilotShell, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatal("hook did not run")
	}
	record(t, "copilot", "timeoutSec 1 on a 4 s hook: the tool runs", copilotVerdict(r.toolResult()), copilotHookdVerdict(r.hookd(t, "preToolUse", calls[0].Stdin)))
}

func TestCopilot_Matchers(t *testing.T) {
	rec := rh.NewRecorder(t)
	matchers := []string{"bash", "b.*", ".*", "view|bash", "", "Bash", "ba", "*", "view", "BASH"}
	var hs []any
	for i, m := range matchers {
		hs = append(hs, chook(m, rec.Cmd(fmt.Sprintf("m%d", i), "", 0)))
	}
	r := newCopilot(t, map[string]any{"preToolUse": hs}, copilotShell, say("ok"))
	r.run(t, "run it")
	stdin := firstMatcherStdin(t, rec, len(matchers), r.stderr)
	res := r.hookd(t, "preToolUse", stdin)
	for i, m := range matchers {
		ran := len(rec.Calls(fmt.Sprintf("m%d", i))) > 0
		record(t, "copilot", fmt.Sprintf("matcher %q on bash", m), runs(ran), runs(strings.Contains(res, fmt.Sprintf("pre_tool_use:%d:0", i))))
	}
}

func TestCopilot_InputEnvironmentAndOrder(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{"preToolUse": []any{
		chook("", rec.Cmd("a", `{"permissionDecision":"deny","permissionDecisionReason":"first deny"}`, 0)),
		chook("", rec.Cmd("b", `{"permissionDecision":"deny","permissionDecisionReason":"second deny"}`, 0)),
	}}, copilotShell, say("ok"))
	r.run(t, "run it")
	a, b := rec.Calls("a"), rec.Calls("b")
	if len(a) == 0 {
		t.Fatalf("hook did not run\n%s", r.stderr)
	}
	real := gjson.Parse(a[0].Stdin)
	res := r.hookd(t, "preToolUse", a[0].Stdin)
	record(t, "copilot", "two denies: the reason given", copilotVerdict(r.toolResult()), copilotHookdVerdict(res))
	ranSecond := false
	gjson.Get(res, "hooks").ForEach(func(_, h gjson.Result) bool {
		ranSecond = ranSecond || strings.HasSuffix(h.Get("key").Str, "pre_tool_use:1:0")
		return true
	})
	record(t, "copilot", "the second hook runs after a deny", fmt.Sprint(len(b) > 0), fmt.Sprint(ranSecond))
	// The host's own fields, without those hookd fills in.
	input := fmt.Sprintf(`{"sessionId":%s,"cwd":%s,"toolName":%s,"toolArgs":%s}`, real.Get("sessionId").Raw, real.Get("cwd").Raw, real.Get("toolName").Raw, real.Get("toolArgs").Raw)
	r.hookd(t, "preToolUse", input)
	ha := rec.Calls("a")
	mine := gjson.Parse(ha[len(ha)-1].Stdin)
	record(t, "copilot", "preToolUse stdin: field names in order", keys(real), keys(mine))
	record(t, "copilot", "timestamp is Unix milliseconds", msShape(real.Get("timestamp")), msShape(mine.Get("timestamp")))
	record(t, "copilot", "toolArgs is an object", fmt.Sprint(real.Get("toolArgs").IsObject()), fmt.Sprint(mine.Get("toolArgs").IsObject()))
	for _, v := range []string{"COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "COPILOT_HOOK_DIR", "COPILOT_CLI", "COPILOT_PROVIDER_BASE_URL", "COPILOT_OFFLINE"} {
		record(t, "copilot", "env "+v, present(a[0].Env, v), present(ha[len(ha)-1].Env, v))
	}
}

func msShape(v gjson.Result) string {
	if v.Type == gjson.Number && v.Int() > 1_600_000_000_000 {
		return "ms"
	}
	return "not ms: " + v.Raw
}

func TestCopilot_VSCodeForm(t *testing.T) {
	rec := rh.NewRecorder(t)
	out := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"vscode deny"}}`
	r := newCopilot(t, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": rec.Cmd("pt", out, 0)}}}}}, copilotShell, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("hook did not run\n%s", r.stderr)
	}
	real := gjson.Parse(calls[0].Stdin)
	// hookd gets the camelCase input a host sends for preToolUse.
	input := fmt.Sprintf(`{"sessionId":%s,"cwd":%s,"toolName":"bash","toolArgs":%s}`, real.Get("session_id").Raw, real.Get("cwd").Raw, real.Get("tool_input").Raw)
	res := r.hookd(t, "preToolUse", input)
	hc := rec.Calls("pt")
	mine := gjson.Parse(hc[len(hc)-1].Stdin)
	record(t, "copilot", "PascalCase PreToolUse: deny obeyed", copilotVerdict(r.toolResult()), copilotHookdVerdict(res))
	record(t, "copilot", "PascalCase PreToolUse stdin: field names in order", keys(real), keys(mine))
	record(t, "copilot", "PascalCase stdin: tool_name", real.Get("tool_name").Str, mine.Get("tool_name").Str)
}

func TestCopilot_ContextsAndStop(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{
		"sessionStart":        []any{chook("", rec.Cmd("ss", `{"additionalContext":"ctx-session-start"}`, 0))},
		"userPromptSubmitted": []any{chook("", rec.Cmd("ups", `{"additionalContext":"ctx-user-prompt"}`, 0))},
		"postToolUse":         []any{chook("", rec.Cmd("post", `{"additionalContext":"ctx-post-tool"}`, 0))},
		"agentStop": []any{chook("", fmt.Sprintf(`in=$(cat); if printf '%%s' "$in" | grep -q '"stop_hook_active":true'; then printf '%%s' "$in" | { %s; }; else printf '%%s' "$in" | { %s; }; fi`,
			rec.Cmd("stop2", "", 0), rec.Cmd("stop", `{"decision":"block","reason":"also run the linter"}`, 0)))},
	}, copilotShell, say("first"), say("second"))
	r.run(t, "hello")
	reqs := r.model.Requests()
	ss, ups, post, stop := rec.Calls("ss"), rec.Calls("ups"), rec.Calls("post"), rec.Calls("stop")
	if len(reqs) == 0 || len(ss) == 0 || len(ups) == 0 || len(post) == 0 || len(stop) == 0 {
		t.Fatalf("requests %d, hooks %d %d %d %d\n%s", len(reqs), len(ss), len(ups), len(post), len(stop), r.stderr)
	}
	for _, c := range []struct {
		name, event, stdin, text, where string
	}{
		{"sessionStart", "sessionStart", ss[0].Stdin, "ctx-session-start", reqs[0]},
		{"userPromptSubmitted", "userPromptSubmitted", ups[0].Stdin, "ctx-user-prompt", reqs[0]},
		{"postToolUse", "postToolUse", post[0].Stdin, "ctx-post-tool", r.toolResult()},
	} {
		record(t, "copilot", c.name+" additionalContext reaches the model", fmt.Sprint(strings.Contains(c.where, c.text)),
			fmt.Sprint(strings.Contains(r.hookd(t, c.event, c.stdin), `"text": "`+c.text+`"`)))
	}
	host, mine := newTurn(reqs, r.hookd(t, "agentStop", stop[0].Stdin), "also run the linter")
	record(t, "copilot", "agentStop block continues with the reason", host, mine)
	record(t, "copilot", "the next agentStop has stop_hook_active true", fmt.Sprint(len(rec.Calls("stop2")) > 0), "true")
}

// TestCopilot_SpawnCost compares what Copilot CLI's logs say of a trivial
// hook's time, when they say it, with a hooks/run round trip through hookd.
func TestCopilot_SpawnCost(t *testing.T) {
	h := chook("", "true")
	r := newCopilot(t, map[string]any{"sessionStart": []any{h}, "userPromptSubmitted": []any{h}, "preToolUse": []any{h}, "postToolUse": []any{h}, "agentStop": []any{h}}, copilotShell, say("ok"))
	r.run(t, "run it")
	// Its logs (~/.copilot/logs) are the only place the CLI could report
	// a hook's time.
	logs := grepTree(filepath.Join(r.home, ".copilot", "logs"), "ook")
	t.Logf("copilot hook log lines:\n%s", logs)
	ds := durations(regexp.MustCompile(`(?i)hook[^\n]*?(\d+)\s?ms`), logs)
	init := fmt.Sprintf(`{"profile":"copilot","session":{"cwd":%q},"config":{"home":%q,"project":{"root":%q,"trusted":true}}}`, r.work, r.home+"/.copilot", r.work)
	rt := hookdRoundTrip(t, r.home, r.work, init, "userPromptSubmitted", `{"prompt":"hi"}`, 20)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("copilot: CLI's own time per trivial hook (`true`) from its logs, median of %d: %d ms (-1: the logs give none); hookd `hooks/run` round trip, median of 20: %.1f ms; one `copilot -p` run: %.1f s",
		len(ds), median(ds), float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}

// TestCopilot_UserFolderAndShell settles two points the reference leaves
// open: whether ~/.copilot/hooks/*.json is read, and whether hooks run in a
// login shell.
func TestCopilot_UserFolderAndShell(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{}, copilotShell, say("ok"))
	shell := filepath.Join(rec.Dir, "shell")
	cmd := `{ if shopt -q login_shell; then echo login; else echo nonlogin; fi; } > ` + hooks.ShellQuote(shell) + `.$$; ` + rec.Cmd("user", "", 0)
	b, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{"preToolUse": []any{chook("", cmd)}}})
	rh.WriteFile(t, filepath.Join(r.home, ".copilot", "hooks", "user.json"), string(b))
	r.run(t, "run it")
	calls := rec.Calls("user")
	host := "not read"
	if len(calls) > 0 {
		host = "read"
	}
	hostShell := readShells(shell)
	if files, _ := filepath.Glob(shell + ".*"); len(files) > 0 {
		for _, f := range files {
			os.Remove(f)
		}
	}
	input := `{"toolName":"bash","toolArgs":{"command":"echo x"}}`
	if len(calls) > 0 {
		input = calls[0].Stdin
	}
	r.hookd(t, "preToolUse", input)
	mine := "not read"
	if len(rec.Calls("user")) > len(calls) {
		mine = "read"
	}
	record(t, "copilot", "~/.copilot/hooks/*.json is read", host, mine)
	if hostShell != "" {
		record(t, "copilot", "hooks run in a login shell", hostShell, readShells(shell))
	}
}

// readShells joins what the shell.<pid> files say, sorted.
func readShells(prefix string) string {
	files, _ := filepath.Glob(prefix + ".*")
	var out []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		out = append(out, strings.TrimSpace(string(b)))
	}
	return sorted(out)
}

// TestCopilot_SettingsHooks checks the inline "hooks" of the user's
// ~/.copilot/settings.json and the repository's .github/copilot/settings.json.
func TestCopilot_SettingsHooks(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCopilot(t, map[string]any{}, copilotShell, say("ok"))
	for _, f := range []struct{ name, path string }{
		{"usersettings", filepath.Join(r.home, ".copilot", "settings.json")},
		{"reposettings", filepath.Join(r.work, ".github", "copilot", "settings.json")},
		{"repolocal", filepath.Join(r.work, ".github", "copilot", "settings.local.json")},
	} {
		b, _ := json.Marshal(map[string]any{"hooks": map[string]any{"preToolUse": []any{chook("", rec.Cmd(f.name, "", 0))}}})
		rh.WriteFile(t, f.path, string(b))
	}
	r.run(t, "run it")
	var input string
	host := map[string]bool{}
	for _, n := range []string{"usersettings", "reposettings", "repolocal"} {
		if c := rec.Calls(n); len(c) > 0 {
			host[n] = true
			input = c[0].Stdin
		}
	}
	if input == "" {
		input = `{"toolName":"bash","toolArgs":{"command":"echo x"}}`
	}
	res := r.hookd(t, "preToolUse", input)
	for _, n := range []string{"usersettings", "reposettings", "repolocal"} {
		mine := false
		gjson.Get(res, "hooks").ForEach(func(_, h gjson.Result) bool {
			k := h.Get("key").Str
			mine = mine || (n == "usersettings" && strings.Contains(k, ".copilot/settings.json")) ||
				(n == "reposettings" && strings.Contains(k, ".github/copilot/settings.json")) ||
				(n == "repolocal" && strings.Contains(k, "settings.local.json"))
			return true
		})
		record(t, "copilot", "inline hooks in "+map[string]string{"usersettings": "~/.copilot/settings.json", "reposettings": ".github/copilot/settings.json", "repolocal": ".github/copilot/settings.local.json"}[n]+" run", runs(host[n]), runs(mine))
	}
}
