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

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/realhost/rh"
)

// Letta Code 0.25.9 (the newest release that installs on Node 20), run as
// `letta --backend local -p` (its own local backend, no account) against
// the scripted model, connected once per home as a llama.cpp server.
var lettaVersion = rh.EnvOr("REALHOST_LETTA_VERSION", "0.25.9")

type lettaRun struct {
	home, work string
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

func lettaBin(t *testing.T) string {
	return npmBin(t, "@letta-ai/letta-code", lettaVersion, "@letta-ai/letta-code/letta.js")
}

func newLetta(t *testing.T, hooks map[string]any, script ...turn) *lettaRun {
	t.Helper()
	r := &lettaRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	if out, errOut, err := rh.Run(ctx, r.work, r.env(), "", "node", lettaBin(t), "--backend", "local", "connect", "llama-cpp", "--base-url", r.model.URL()+"/v1"); err != nil {
		t.Fatalf("letta connect: %v\n%s\n%s", err, out, errOut)
	}
	r.settings(t, filepath.Join(r.home, ".letta", "settings.json"), hooks)
	return r
}

// settings writes {"hooks": hooks} into a settings file, keeping the
// file's other keys (connect writes the user's).
func (r *lettaRun) settings(t *testing.T, path string, hooks map[string]any) {
	t.Helper()
	doc := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &doc)
	}
	doc["hooks"] = hooks
	b, _ := json.MarshalIndent(doc, "", "  ")
	rh.WriteFile(t, path, string(b))
}

func (r *lettaRun) env(extra ...string) []string {
	return append(append(baseEnv(r.home), "LETTA_CODE_TELEM=0"), extra...)
}

func (r *lettaRun) run(t *testing.T, prompt string, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, r.env(extra...), "", "node", lettaBin(t), "--backend", "local", "-p", prompt, "--new-agent", "-m", "llama-cpp/realhost-model", "--output-format", "json")
	r.took = time.Since(start)
	if err != nil {
		t.Logf("letta: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

func (r *lettaRun) hookd(t *testing.T, event, input string, extra ...string) string {
	return hookdRun(t, r.home, r.work, "letta", event, input, append([]string{"--home", filepath.Join(r.home, ".letta"), "--project", r.work}, extra...)...)
}

// toolResult is the first tool message the model got back.
func (r *lettaRun) toolResult() string {
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

var lettaShell = callTool("Bash", `{"command":"echo realhost-ran","description":"echo"}`)

const lettaBlocked = "Error: Tool execution blocked by hook. "

// lettaVerdict: the tool ran, or was denied with the feedback Letta puts
// after its "blocked by hook" prefix. cmds are replaced by names.
func lettaVerdict(tool string, cmds map[string]string) string {
	switch {
	case strings.HasPrefix(tool, lettaBlocked):
		return "denied: " + names(strings.TrimPrefix(tool, lettaBlocked), cmds)
	case strings.Contains(tool, "realhost-ran"):
		return "ran"
	case tool == "":
		return "no tool result"
	}
	return "other: " + tool
}

func lettaHookdVerdict(res string, cmds map[string]string) string {
	switch gjson.Get(res, "decision").Str {
	case "deny":
		return "denied: " + names(gjson.Get(res, "reason").Str, cmds)
	case "":
		return "no result: " + res
	}
	return "ran"
}

func names(s string, cmds map[string]string) string {
	for name, c := range cmds {
		s = strings.ReplaceAll(s, c, name)
	}
	return s
}

func TestLetta_PreToolUse(t *testing.T) {
	type hk struct {
		out    string
		code   int
		stderr string
	}
	cases := []struct {
		behaviour string
		hooks     []hk
	}{
		{"exit 2 denies with the command and stderr", []hk{{"", 2, "from stderr"}}},
		{"exit 2 without stderr denies with the default text", []hk{{"", 2, ""}}},
		{"a JSON decision block on exit 0 is ignored", []hk{{`{"decision":"block","reason":"json block"}`, 0, ""}}},
		{"hookSpecificOutput deny on exit 0 is ignored", []hk{{`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hso"}}`, 0, ""}}},
		{"a JSON deny with exit 2 denies with stderr only", []hk{{`{"decision":"deny","reason":"json"}`, 2, "the stderr"}}},
		{"exit 1 with stderr does not block", []hk{{"", 1, "oops"}}},
		{"exit 3 does not block", []hk{{"", 3, "three"}}},
		{"an earlier error joins the deny reason", []hk{{"", 1, "first failed"}, {"", 2, "second denies"}}},
		{"the first exit 2 ends the run", []hk{{"", 2, "first denies"}, {"", 2, "second denies"}}},
	}
	for _, tc := range cases {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			cmds := map[string]string{}
			var hs []any
			for i, h := range tc.hooks {
				name := fmt.Sprintf("h%d", i)
				cmd := rec.Cmd(name, h.out, h.code)
				if h.stderr != "" {
					errFile := filepath.Join(rec.Dir, name+".err")
					rh.WriteFile(t, errFile, h.stderr)
					cmd = "cat " + hooks.ShellQuote(errFile) + " >&2; " + cmd
				}
				cmds["<"+name+">"] = cmd
				hs = append(hs, map[string]any{"type": "command", "command": cmd})
			}
			r := newLetta(t, map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": hs}}}, lettaShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("h0")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
			ranSecond := len(rec.Calls("h1")) > 0
			rec.Reset()
			res := r.hookd(t, "PreToolUse", calls[0].Stdin)
			record(t, "letta", "PreToolUse: "+tc.behaviour, lettaVerdict(r.toolResult(), cmds), lettaHookdVerdict(res, cmds))
			if len(tc.hooks) > 1 {
				record(t, "letta", "PreToolUse: "+tc.behaviour+": the second hook", runs(ranSecond), runs(len(rec.Calls("h1")) > 0))
			}
		})
	}
}

func TestLetta_Matchers(t *testing.T) {
	rec := rh.NewRecorder(t)
	ms := []string{"Bash", "bash", "Ba", "Ba.*", "*", "", "Read|Bash", "Bash(", "(Bash)", "B"}
	var groups []any
	for i, m := range ms {
		groups = append(groups, ghook(m, rec.Cmd(fmt.Sprintf("m%d", i), "", 0)))
	}
	// ghook leaves "" out; the "" case needs the key.
	groups[5].(map[string]any)["matcher"] = ""
	r := newLetta(t, map[string]any{"PreToolUse": groups}, lettaShell, say("ok"))
	r.run(t, "run it")
	stdin := firstMatcherStdin(t, rec, len(ms), r.stdout+r.stderr)
	res := r.hookd(t, "PreToolUse", stdin)
	for i, m := range ms {
		ran := len(rec.Calls(fmt.Sprintf("m%d", i))) > 0
		record(t, "letta", fmt.Sprintf("matcher %q on Bash", m), runs(ran), runs(strings.Contains(res, fmt.Sprintf("pre_tool_use:%d:0", i))))
	}
}

func TestLetta_Order(t *testing.T) {
	rec := rh.NewRecorder(t)
	cmds := map[string]string{}
	layer := func(name string) map[string]any {
		errFile := filepath.Join(rec.Dir, name+".err")
		rh.WriteFile(t, errFile, name+" denies")
		cmd := "cat " + hooks.ShellQuote(errFile) + " >&2; " + rec.Cmd(name, "", 2)
		cmds["<"+name+">"] = cmd
		return map[string]any{"PreToolUse": []any{ghook("Bash", cmd)}}
	}
	r := newLetta(t, layer("user"), lettaShell, say("ok"))
	r.settings(t, filepath.Join(r.work, ".letta", "settings.json"), layer("project"))
	r.settings(t, filepath.Join(r.work, ".letta", "settings.local.json"), layer("local"))
	r.run(t, "run it")
	calls := rec.Calls("local")
	if len(calls) == 0 {
		t.Fatalf("the local hook did not run\n%s\n%s", r.stdout, r.stderr)
	}
	ran := map[string]bool{"project": len(rec.Calls("project")) > 0, "user": len(rec.Calls("user")) > 0}
	rec.Reset()
	res := r.hookd(t, "PreToolUse", calls[0].Stdin)
	record(t, "letta", "local, project and user all deny: the reason", lettaVerdict(r.toolResult(), cmds), lettaHookdVerdict(res, cmds))
	for _, n := range []string{"project", "user"} {
		record(t, "letta", "after the local deny, the "+n+" hook", runs(ran[n]), runs(len(rec.Calls(n)) > 0))
	}
}

// lettaFeedback is what Letta appended to the tool's result.
func lettaFeedback(tool string, cmds map[string]string) string {
	_, fb, ok := strings.Cut(tool, "[Hook feedback]:\n")
	if !ok {
		return "no feedback"
	}
	return "feedback: " + names(strings.TrimSpace(fb), cmds)
}

func TestLetta_PostToolUse(t *testing.T) {
	for _, tc := range []struct {
		behaviour, out string
		code           int
		stderr         string
	}{
		{"hookSpecificOutput.additionalContext is feedback", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hso context"}}`, 0, ""},
		{"a top-level additionalContext is feedback", `{"additionalContext":"top context"}`, 0, ""},
		{"plain stdout is not", "plain words", 0, ""},
		{"exit 2 stderr is feedback", "", 2, "post blocked"},
		{"exit 1 stderr is feedback", "", 1, "post failed"},
		{"a JSON decision block is ignored", `{"decision":"block","reason":"json"}`, 0, ""},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			cmd := rec.Cmd("post", tc.out, tc.code)
			if tc.stderr != "" {
				errFile := filepath.Join(rec.Dir, "post.err")
				rh.WriteFile(t, errFile, tc.stderr)
				cmd = "cat " + hooks.ShellQuote(errFile) + " >&2; " + cmd
			}
			cmds := map[string]string{"<post>": cmd}
			r := newLetta(t, map[string]any{"PostToolUse": []any{ghook("Bash", cmd)}}, lettaShell, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("post")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\n%s\n%s", r.stdout, r.stderr)
			}
			res := r.hookd(t, "PostToolUse", calls[0].Stdin)
			mine := "no feedback"
			if f := gjson.Get(res, "feedback").Str; f != "" {
				mine = "feedback: " + names(f, cmds)
			}
			record(t, "letta", "PostToolUse: "+tc.behaviour, lettaFeedback(r.toolResult(), cmds), mine)
		})
	}
}

func TestLetta_Environment(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newLetta(t, map[string]any{"PreToolUse": []any{ghook("", rec.Cmd("pt", "", 0))}}, lettaShell, say("ok"))
	// Set in the CLI's environment and in hookd's: Letta removes them
	// from its hooks' (USER_CWD too, but Letta itself takes it as its
	// working folder, so it is not set here).
	leak := []string{"LETTA_CONVERSATION_ID=leaked", "MEMORY_DIR=/leaked"}
	r.run(t, "run it", leak...)
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s\n%s", r.stdout, r.stderr)
	}
	real := calls[0]
	rec.Reset()
	in := filepath.Join(t.TempDir(), "input.json")
	rh.WriteFile(t, in, real.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	rh.Run(ctx, r.work, append(baseEnv(r.home), leak...), "", rh.Hookd(t), "run", "PreToolUse", "--profile", "letta", "--cwd", r.work, "--input", in, "--home", filepath.Join(r.home, ".letta"), "--project", r.work)
	mc := rec.Calls("pt")
	if len(mc) == 0 {
		t.Fatal("hookd did not run the hook")
	}
	mine := mc[0]
	for _, v := range []string{"LETTA_HOOK_EVENT", "LETTA_WORKING_DIR", "USER_CWD", "LETTA_AGENT_ID", "AGENT_ID", "LETTA_CONVERSATION_ID", "MEMORY_DIR", "CLAUDE_PROJECT_DIR"} {
		record(t, "letta", "PreToolUse env "+v, envValue(real.Env, v), envValue(mine.Env, v))
	}
	record(t, "letta", "PreToolUse runs in", dirName(real.Env["PWD"], r.work), dirName(mine.Env["PWD"], r.work))
	record(t, "letta", "PreToolUse stdin: field names in order", keys(gjson.Parse(real.Stdin)), keys(gjson.Parse(mine.Stdin)))
	// The host's fields without event_type and working_directory: hookd
	// fills them in.
	short := fmt.Sprintf(`{"tool_name":"Bash","tool_input":%s,"tool_call_id":%s,"agent_id":%s}`,
		gjson.Get(real.Stdin, "tool_input").Raw, gjson.Get(real.Stdin, "tool_call_id").Raw, gjson.Get(real.Stdin, "agent_id").Raw)
	rec.Reset()
	r.hookd(t, "PreToolUse", short)
	if mc := rec.Calls("pt"); len(mc) > 0 {
		record(t, "letta", "PreToolUse stdin filled in by hookd", real.Stdin, mc[0].Stdin)
	}
}

func TestLetta_TimeoutIsMilliseconds(t *testing.T) {
	rec := rh.NewRecorder(t)
	cmd := rec.CmdSleep("pt", "", 2, 3)
	r := newLetta(t, map[string]any{"PreToolUse": []any{ghook("Bash", cmd, "timeout", 500)}}, lettaShell, say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("pt")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s\n%s", r.stdout, r.stderr)
	}
	res := r.hookd(t, "PreToolUse", calls[0].Stdin)
	cmds := map[string]string{"<pt>": cmd}
	record(t, "letta", "timeout 500 is milliseconds: a slow exit 2 does not block", lettaVerdict(r.toolResult(), cmds), lettaHookdVerdict(res, cmds))
}

// TestLetta_OnlyToolHooksRunHeadless records what `letta -p` runs: the
// tool events only (Stop, SessionStart and UserPromptSubmit are run by
// its interactive app). hookd runs what the host asks for; the row is the
// CLI's alone.
func TestLetta_OnlyToolHooksRunHeadless(t *testing.T) {
	rec := rh.NewRecorder(t)
	evs := []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "SessionEnd"}
	hs := map[string]any{}
	for _, ev := range evs {
		hs[ev] = []any{ghook("", rec.Cmd(ev, "", 0))}
	}
	r := newLetta(t, hs, lettaShell, say("ok"))
	r.run(t, "run it")
	var ran []string
	for _, ev := range evs {
		if len(rec.Calls(ev)) > 0 {
			ran = append(ran, ev)
		}
	}
	t.Logf("letta -p ran hooks of: %v", ran)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("letta: `letta -p` runs the hooks of %s only (of %s)", strings.Join(ran, ", "), strings.Join(evs, ", ")))
	rowsMu.Unlock()
}

// TestLetta_HookCost compares the duration Letta prints for each hook
// ("⎿ exit 0 (Nms)") with hookd's round trip for the same trivial hook.
func TestLetta_HookCost(t *testing.T) {
	script := []turn{}
	for range 8 {
		script = append(script, lettaShell)
	}
	script = append(script, say("ok"))
	r := newLetta(t, map[string]any{"PreToolUse": []any{ghook("Bash", "cat > /dev/null")}}, script...)
	r.run(t, "run it eight times")
	ds := durations(regexp.MustCompile(`exit 0\S* \((\d+)ms\)`), r.stdout)
	init := fmt.Sprintf(`{"profile":"letta","session":{"cwd":%q},"config":{"home":%q,"project":{"root":%q}}}`, r.work, filepath.Join(r.home, ".letta"), r.work)
	rt := hookdRoundTrip(t, r.home, r.work, init, "PreToolUse", `{"tool_name":"Bash","tool_input":{"command":"echo"}}`, 20)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("letta: CLI's own time per trivial PreToolUse hook (`cat > /dev/null`, the duration it prints), median of %d: %d ms; hookd `hooks/run` round trip, median of 20: %.1f ms; one `letta -p` run: %.1f s",
		len(ds), median(ds), float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}
