//go:build realhost

package newhosts

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// geminiRun is one `gemini -p` run against a scripted model.
type geminiRun struct {
	home, work string
	env        []string // added to the CLI's environment
	rec        *rh.Recorder
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

// newGemini writes ~/.gemini/settings.json with the hooks (the "hooks"
// object) and an API-key auth that the base URL redirects to the model.
func newGemini(t *testing.T, hooks map[string]any, script ...turn) *geminiRun {
	t.Helper()
	r := &geminiRun{home: t.TempDir(), work: t.TempDir(), rec: rh.NewRecorder(t)}
	r.model = startGemini(t, script...)
	settings := map[string]any{
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"hooks":    hooks,
	}
	b, _ := json.MarshalIndent(settings, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".gemini", "settings.json"), string(b))
	return r
}

func (r *geminiRun) run(t *testing.T, prompt string) {
	t.Helper()
	bin := npmBin(t, "@google/gemini-cli", geminiVersion, ".bin/gemini")
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(baseEnv(r.home), "GEMINI_API_KEY=realhost", "GEMINI_CLI_NO_RELAUNCH=1", "GOOGLE_GEMINI_BASE_URL="+r.model.URL())
	env = append(env, r.env...)
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, "-p", prompt, "--skip-trust", "--yolo", "--output-format", "json", "-m", "gemini-2.5-flash")
	r.took = time.Since(start)
	if err != nil {
		t.Logf("gemini: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

// hookd runs the same settings through hookd run.
func (r *geminiRun) hookd(t *testing.T, event, input string) string {
	return hookdRun(t, r.home, r.work, "gemini", event, input, "--home", filepath.Join(r.home, ".gemini"))
}

// toolResult is what the model got back for its tool call: the
// functionResponse.response of the request after it, as JSON.
func (r *geminiRun) toolResult() string {
	for _, body := range r.model.Requests() {
		var found string
		gjson.Get(body, "contents").ForEach(func(_, c gjson.Result) bool {
			c.Get("parts").ForEach(func(_, p gjson.Result) bool {
				if fr := p.Get("functionResponse.response"); fr.Exists() {
					found = fr.Raw
				}
				return true
			})
			return true
		})
		if found != "" {
			return found
		}
	}
	return ""
}

// hook is one settings handler.
func ghook(matcher, command string, extra ...any) map[string]any {
	h := map[string]any{"type": "command", "command": command}
	for i := 0; i+1 < len(extra); i += 2 {
		h[extra[i].(string)] = extra[i+1]
	}
	g := map[string]any{"hooks": []any{h}}
	if matcher != "" {
		g["matcher"] = matcher
	}
	return g
}

// verdict says what a BeforeTool outcome did to the tool call: "denied: R"
// or "ran".
func geminiVerdict(toolResult string) string {
	if e := gjson.Get(toolResult, "error").Str; strings.HasPrefix(e, "Tool execution blocked: ") {
		return "denied: " + strings.TrimPrefix(e, "Tool execution blocked: ")
	}
	if strings.Contains(toolResult, "Tool execution blocked") {
		return "denied: ?" + toolResult
	}
	return "ran"
}

func hookdVerdict(res string) string {
	switch d := gjson.Get(res, "decision").Str; d {
	case "deny":
		return "denied: " + gjson.Get(res, "reason").Str
	case "":
		return "no result: " + res
	}
	return "ran"
}

var shellCall = callTool("run_shell_command", `{"command":"echo realhost-ran","description":"echo"}`)

func TestGemini_BeforeTool(t *testing.T) {
	cases := []struct {
		behaviour string
		out       string
		code      int
		extra     []any
	}{
		{"JSON deny on exit 0 denies with its reason", `{"decision":"deny","reason":"no shell"}`, 0, nil},
		{"JSON is obeyed on exit 2 (allow)", `{"decision":"allow"}`, 2, nil},
		{"JSON deny on exit 1 denies", `{"decision":"deny","reason":"deny on 1"}`, 1, nil},
		{"plain text on exit 2 denies with the text", "blocked by text", 2, nil},
		{"plain text on exit 3 denies with the text", "exit three", 3, nil},
		{"broken JSON on exit 2 denies with the text", `{"decision":`, 2, nil},
		{"plain text on exit 1 is a warning", "careful", 1, nil},
		{"plain text on exit 0 does not block", "just saying", 0, nil},
		{"exit 2 with no output does not block", "", 2, nil},
		{"Claude Code's permissionDecision is ignored", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, 0, nil},
		{"decision block denies", `{"decision":"block","reason":"blocked"}`, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("run_shell_command", rec.Cmd("bt", tc.out, tc.code), tc.extra...)}}, shellCall, say("ok"))
			r.rec = rec
			r.run(t, "run it")
			calls := rec.Calls("bt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstderr:\n%s", r.stderr)
			}
			host := geminiVerdict(r.toolResult())
			got := hookdVerdict(r.hookd(t, "BeforeTool", calls[0].Stdin))
			record(t, "gemini", "BeforeTool: "+tc.behaviour, host, got)
		})
	}
}

func TestGemini_InputAndEnvironment(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("", rec.Cmd("bt", "", 0))}}, shellCall, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("bt")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s", r.stderr)
	}
	real := gjson.Parse(calls[0].Stdin)
	// hookd gets the event's own fields and the session's, as a host sends them.
	input := fmt.Sprintf(`{"session_id":%s,"transcript_path":%s,"cwd":%s,"tool_name":%s,"tool_input":%s}`,
		real.Get("session_id").Raw, real.Get("transcript_path").Raw, real.Get("cwd").Raw, real.Get("tool_name").Raw, real.Get("tool_input").Raw)
	res := r.hookd(t, "BeforeTool", input)
	if gjson.Get(res, "hooks.#").Int() != 1 {
		t.Fatalf("hookd: %s", res)
	}
	hcalls := rec.Calls("bt")
	mine := gjson.Parse(hcalls[len(hcalls)-1].Stdin)
	record(t, "gemini", "BeforeTool stdin: field names in order", keys(real), keys(mine))
	record(t, "gemini", "timestamp is ISO 8601 UTC", isoShape(real.Get("timestamp").Str), isoShape(mine.Get("timestamp").Str))
	for _, v := range []string{"GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR", "GEMINI_SESSION_ID"} {
		record(t, "gemini", "env "+v, present(calls[0].Env, v), present(hcalls[len(hcalls)-1].Env, v))
	}
	record(t, "gemini", "env GEMINI_SESSION_ID is the stdin session_id",
		fmt.Sprint(calls[0].Env["GEMINI_SESSION_ID"] == real.Get("session_id").Str),
		fmt.Sprint(hcalls[len(hcalls)-1].Env["GEMINI_SESSION_ID"] == mine.Get("session_id").Str))
}

func keys(v gjson.Result) string {
	var k []string
	v.ForEach(func(key, _ gjson.Result) bool { k = append(k, key.Str); return true })
	return strings.Join(k, ",")
}

func isoShape(s string) string {
	if _, err := time.Parse(time.RFC3339Nano, s); err == nil && strings.HasSuffix(s, "Z") {
		return "ISO UTC"
	}
	return "not ISO: " + s
}

func present(env map[string]string, k string) string {
	if _, ok := env[k]; ok {
		return "set"
	}
	return "unset"
}

func TestGemini_Rewrite(t *testing.T) {
	rec := rh.NewRecorder(t)
	out := `{"hookSpecificOutput":{"tool_input":{"command":"echo rewritten-by-hook","description":"echo"}}}`
	r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("run_shell_command", rec.Cmd("bt", out, 0))}}, shellCall, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("bt")
	if len(calls) == 0 {
		t.Fatal("hook did not run")
	}
	host := "original ran"
	if strings.Contains(r.toolResult(), "rewritten-by-hook") {
		host = "rewritten command ran"
	}
	res := r.hookd(t, "BeforeTool", calls[0].Stdin)
	mine := "original ran"
	if strings.Contains(gjson.Get(res, "updatedInput.command").Str, "rewritten-by-hook") {
		mine = "rewritten command ran"
	}
	record(t, "gemini", "BeforeTool: hookSpecificOutput.tool_input replaces the arguments", host, mine)
}

func TestGemini_Matchers(t *testing.T) {
	rec := rh.NewRecorder(t)
	matchers := []string{"run_shell_command", "shell", "Shell", "^run_", "run_shell_command(", " * ", "read_file|run_shell_command", "^shell$"}
	var groups []any
	for i, m := range matchers {
		groups = append(groups, ghook(m, rec.Cmd(fmt.Sprintf("m%d", i), "", 0)))
	}
	r := newGemini(t, map[string]any{"BeforeTool": groups}, shellCall, say("ok"))
	r.run(t, "run it")
	first := rec.Calls("m0")
	if len(first) == 0 {
		t.Fatal("hook did not run")
	}
	ranHost := map[int]bool{}
	for i := range matchers {
		ranHost[i] = len(rec.Calls(fmt.Sprintf("m%d", i))) > 0
	}
	res := r.hookd(t, "BeforeTool", first[0].Stdin)
	for i, m := range matchers {
		mine := strings.Contains(res, fmt.Sprintf("before_tool:%d:0", i))
		record(t, "gemini", fmt.Sprintf("matcher %q on run_shell_command", m), runs(ranHost[i]), runs(mine))
	}
}

func runs(b bool) string {
	if b {
		return "runs"
	}
	return "does not run"
}

func TestGemini_TimeoutIsMilliseconds(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("", rec.CmdSleep("bt", `{"decision":"deny","reason":"late"}`, 0, 3), "timeout", 500)}}, shellCall, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("bt")
	if len(calls) == 0 {
		t.Fatal("hook did not run")
	}
	res := r.hookd(t, "BeforeTool", calls[0].Stdin)
	mine := hookdVerdict(res)
	if s := gjson.Get(res, "hooks.0.status").Str; s != "timedOut" {
		mine += " (" + s + ")"
	}
	record(t, "gemini", "timeout 500 stops a 3 s hook and the tool runs", geminiVerdict(r.toolResult()), mine)
}

func TestGemini_Combining(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{"BeforeTool": []any{
		ghook("", rec.Cmd("a", `{"decision":"allow","reason":"looks fine"}`, 0)),
		ghook("", rec.Cmd("b", `{"decision":"deny","reason":"no way"}`, 0)),
	}}, shellCall, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("a")
	if len(calls) == 0 {
		t.Fatal("hook did not run")
	}
	record(t, "gemini", "allow + deny: deny wins, every reason joined", geminiVerdict(r.toolResult()), hookdVerdict(r.hookd(t, "BeforeTool", calls[0].Stdin)))
}

func TestGemini_AfterAgentAndContexts(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{
		"SessionStart": []any{ghook("startup", rec.Cmd("ss", `{"hookSpecificOutput":{"additionalContext":"ctx-from-session-start"}}`, 0))},
		"BeforeAgent":  []any{ghook("", rec.Cmd("ba", `{"hookSpecificOutput":{"additionalContext":"ctx-from-before-agent"}}`, 0))},
		"AfterAgent":   []any{ghook("", fmt.Sprintf(`in=$(cat); if printf '%%s' "$in" | grep -q '"stop_hook_active":true'; then printf '%%s' "$in" | { %s; }; else printf '%%s' "$in" | { %s; }; fi`, rec.Cmd("aa2", "", 0), rec.Cmd("aa", `{"decision":"deny","reason":"run the tests too"}`, 0)))},
	}, say("first answer"), say("second answer"))
	r.run(t, "hello")
	reqs := r.model.Requests()
	if len(reqs) == 0 {
		t.Fatalf("no model request\n%s", r.stderr)
	}
	first := reqs[0]
	host := fmt.Sprintf("session context %v, prompt context %v", strings.Contains(first, "ctx-from-session-start"), strings.Contains(first, "ctx-from-before-agent"))
	ss, ba := rec.Calls("ss"), rec.Calls("ba")
	if len(ss) == 0 || len(ba) == 0 {
		t.Fatalf("hooks did not run\n%s", r.stderr)
	}
	r1 := r.hookd(t, "SessionStart", ss[0].Stdin)
	r2 := r.hookd(t, "BeforeAgent", ba[0].Stdin)
	mine := fmt.Sprintf("session context %v, prompt context %v", strings.Contains(r1, "ctx-from-session-start"), strings.Contains(r2, "ctx-from-before-agent"))
	record(t, "gemini", "SessionStart and BeforeAgent additionalContext reach the model", host, mine)

	aa := rec.Calls("aa")
	if len(aa) == 0 {
		t.Fatalf("AfterAgent did not run\n%s", r.stderr)
	}
	again, mineAA := newTurn(reqs[1:], r.hookd(t, "AfterAgent", aa[0].Stdin), "run the tests too")
	record(t, "gemini", "AfterAgent deny continues with the reason", again, mineAA)
	aa2 := rec.Calls("aa2")
	record(t, "gemini", "the next AfterAgent has stop_hook_active true", fmt.Sprint(len(aa2) > 0), "true")
}

func TestGemini_BeforeAgentDenyAndSpawnCost(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{"BeforeAgent": []any{ghook("", rec.Cmd("ba", `{"decision":"deny","reason":"not today"}`, 0))}}, say("never"))
	r.run(t, "hello")
	calls := rec.Calls("ba")
	if len(calls) == 0 {
		t.Fatal("hook did not run")
	}
	host := fmt.Sprintf("model requests: %d", len(r.model.Requests()))
	res := r.hookd(t, "BeforeAgent", calls[0].Stdin)
	mine := "model requests: 1"
	if gjson.Get(res, "decision").Str == "block" {
		mine = "model requests: 0"
	}
	record(t, "gemini", "BeforeAgent deny sends no model request", host, mine)
}

// sorted is for set comparisons.
func sorted(s []string) string { sort.Strings(s); return strings.Join(s, ",") }

// TestGemini_SpawnCost compares the CLI's own time for one trivial hook
// (it prints "total duration: Nms" for a hook that fails, here `exit 1`)
// with a hooks/run round trip through hookd serve for the same hook.
func TestGemini_SpawnCost(t *testing.T) {
	trivial := map[string]any{"type": "command", "command": "exit 1"}
	g := map[string]any{"hooks": []any{trivial}}
	r := newGemini(t, map[string]any{"SessionStart": []any{g}, "BeforeAgent": []any{g}, "BeforeTool": []any{g}, "AfterTool": []any{g}, "AfterAgent": []any{g}}, shellCall, say("ok"))
	r.run(t, "run it")
	ds := durations(regexp.MustCompile(`total duration: (\d+)ms`), r.stderr)
	init := fmt.Sprintf(`{"profile":"gemini","session":{"cwd":%q},"config":{"home":%q}}`, r.work, r.home+"/.gemini")
	rt := hookdRoundTrip(t, r.home, r.work, init, "BeforeAgent", `{"prompt":"hi"}`, 20)
	t.Logf("gemini: CLI hook durations %v ms (median %d ms), hookd hooks/run round trip median %v; one gemini -p run took %v", ds, median(ds), rt, r.took)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("gemini: CLI's own time per trivial hook (`exit 1`), median of %d: %d ms; hookd `hooks/run` round trip, median of 20: %.1f ms; one `gemini -p` run: %.1f s",
		len(ds), median(ds), float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}
