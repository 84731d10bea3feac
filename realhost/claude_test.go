//go:build realhost

package realhost

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

var hookErrorPrefix = regexp.MustCompile(`^\w+:\w+ hook error: `)

func handler(kv ...any) map[string]any { return hooksOf(kv...) }

func cgroup(matcher string, handlers ...map[string]any) map[string]any {
	hs := make([]any, len(handlers))
	for i, h := range handlers {
		hs[i] = h
	}
	g := map[string]any{"hooks": hs}
	if matcher != "-" {
		g["matcher"] = matcher
	}
	return g
}

func cmdHandler(command string, kv ...any) map[string]any {
	return handler(append([]any{"type", "command", "command", command}, kv...)...)
}

// toolResult returns the text of the tool_result the model got in request i.
func toolResult(reqs []string, i int) string {
	if i >= len(reqs) {
		return "(no request)"
	}
	c := gjson.Get(reqs[i], `messages.@reverse.0.content.#(type=="tool_result").content`)
	if c.IsArray() {
		var parts []string
		for _, p := range c.Array() {
			parts = append(parts, p.Get("text").Str)
		}
		return strings.Join(parts, "")
	}
	s := c.Str
	if i := strings.Index(s, "\n\n<system-reminder>"); i >= 0 {
		s = s[:i]
	}
	// Claude Code prefixes a hook's reason with "<Event>:<Tool> hook error: ";
	// hookd's result carries the reason the host wraps.
	return hookErrorPrefix.ReplaceAllString(strings.TrimSpace(s), "")
}

// Item 5: "if" rules, read as Claude Code reads a command.
func TestClaude_IfRules(t *testing.T) {
	rec := rh.NewRecorder(t)
	rules := []string{"Bash(rm *)", "Bash(echo hello)", `Bash(echo "hello")`, "Bash(ls *)"}
	hs := []map[string]any{cmdHandler(rec.Cmd("all", "", 0))}
	for i, rule := range rules {
		hs = append(hs, cmdHandler(rec.Cmd(fmt.Sprintf("r%d", i), "", 0), "if", rule))
	}
	cmds := []string{`echo "hello"`, `ls -a && rm -f /tmp/realhost-none`, `FOO=1 rm -f /tmp/realhost-none`}
	var script []turn
	for _, c := range cmds {
		script = append(script, callTool("Bash", fmt.Sprintf(`{"command":%q,"description":"x"}`, c)))
	}
	edit := cmdHandler(rec.Cmd("edit", "", 0), "if", "Edit(*.txt)")
	script = append(script, callTool("Write", `{"file_path":"WORK/a.txt","content":"x"}`), say("finished"))
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("PreToolUse", []any{cgroup("Bash", hs...), cgroup("Write|Edit", edit)})})
	script[3].Args = strings.ReplaceAll(script[3].Args, "WORK", r.work)
	r.model.SetScript(script...)
	r.exec(t, "run it")
	fired := func(cmd string) string {
		var out []string
		for i, rule := range rules {
			for _, c := range rec.Calls(fmt.Sprintf("r%d", i)) {
				if gjson.Get(c.Stdin, "tool_input.command").Str == cmd {
					out = append(out, rule)
				}
			}
		}
		if len(out) == 0 {
			return "none"
		}
		return strings.Join(out, ", ")
	}
	host := map[string]string{}
	for _, c := range cmds {
		host[c] = fired(c)
	}
	hostEdit := yesNo(len(rec.Calls("edit")) > 0)
	inputs := rec.Calls("all")
	rec.Reset()
	for _, c := range inputs {
		r.hookd(t, "PreToolUse", c.Stdin)
	}
	r.hookd(t, "PreToolUse", fmt.Sprintf(`{"tool_name":"Write","tool_input":{"file_path":"%s/a.txt","content":"x"},"tool_use_id":"w1"}`, r.work))
	for _, c := range cmds {
		record(t, "claude", "5", fmt.Sprintf("rules %s that fire for `%s`", strings.Join(rules, " "), c), host[c], fired(c))
	}
	record(t, "claude", "5", "Edit(*.txt) fires for Write a.txt", hostEdit, yesNo(len(rec.Calls("edit")) > 0))
}

// Item 8: a deny without a reason, and the two model-switch events.
func TestClaude_DenyWithoutReasonAndEvents(t *testing.T) {
	rec := rh.NewRecorder(t)
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("PreToolUse", []any{cgroup("Bash", cmdHandler(rec.Cmd("pre", deny, 0)))})},
		callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	r.exec(t, "run it")
	host := toolResult(r.model.Requests(), 1)
	res := r.hookd(t, "PreToolUse", firstCall(t, rec, "pre", "claude").Stdin)
	record(t, "claude", "8", "deny without a reason: the text the model gets", host, gjson.Get(res, "reason").Str)

	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(bin)
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(real), "..", "claude-code-linux-x64", "claude"))
	if data == nil {
		data, _ = os.ReadFile(real)
	}
	for _, ev := range []string{"PreModelSwitch", "PostModelSwitch"} {
		known := strings.Contains(string(data), ev)
		out, _, _ := rh.Run(t.Context(), r.work, baseEnv(r.home), "", rh.Hookd(t), "run", ev, "--profile", "claude", "--home", filepath.Join(r.home, ".claude"), "--cwd", r.work)
		record(t, "claude", "8", ev+" is a known event", yesNo(known), yesNo(gjson.Get(out, "event").Str == ev))
	}
}

// Item 4: the environment of a SessionStart hook and CLAUDE_ENV_FILE.
func TestClaude_SessionStartEnvironment(t *testing.T) {
	rec := rh.NewRecorder(t)
	write := `[ -n "$CLAUDE_ENV_FILE" ] && echo 'export FROM_HOOK=envfile-works' >> "$CLAUDE_ENV_FILE"; ` + rec.Cmd("start", "", 0)
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("SessionStart", []any{cgroup("-", cmdHandler(write))})},
		callTool("Bash", `{"command":"echo \"got:$FROM_HOOK\"","description":"x"}`), say("finished"))
	r.exec(t, "run it")
	host := firstCall(t, rec, "start", "claude")
	vars := func(c rh.Call) string {
		var have []string
		for _, k := range []string{"CLAUDECODE", "CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID", "CLAUDE_ENV_FILE", "PLUGIN_ROOT", "PLUGIN_DATA"} {
			if _, ok := c.Env[k]; ok {
				have = append(have, k)
			}
		}
		return strings.Join(have, " ")
	}
	hostExport := toolResult(r.model.Requests(), 1)
	rec.Reset()
	res := r.hookd(t, "SessionStart", host.Stdin)
	hd := firstCall(t, rec, "start", "hookd: "+res)
	record(t, "claude", "4", "SessionStart hook environment (of CLAUDECODE CLAUDE_PROJECT_DIR CLAUDE_CODE_SESSION_ID CLAUDE_ENV_FILE PLUGIN_ROOT PLUGIN_DATA)", vars(host), vars(hd))
	hdExport := "got:"
	if strings.Contains(res, "envfile-works") {
		hdExport = "got:envfile-works"
	}
	record(t, "claude", "4", "export written to CLAUDE_ENV_FILE reaches a later Bash call (hookd: in the result)", hostExport, hdExport)
}

// Item 6: the order of context from several hooks.
func TestClaude_ContextOrder(t *testing.T) {
	rec := rh.NewRecorder(t)
	// A waits until B's process is gone (reaped by the host), so B has
	// finished first; both loops are bounded.
	done := filepath.Join(rec.Dir, "b.pid")
	a := fmt.Sprintf(`cat >/dev/null; for i in $(seq 400); do [ -s %[1]s ] && break; sleep 0.05; done; for i in $(seq 400); do kill -0 $(cat %[1]s) 2>/dev/null || break; sleep 0.05; done; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx-A"}}'`, done)
	b := fmt.Sprintf(`cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ctx-B"}}'; echo $$ > %s`, done)
	rec2 := cmdHandler(rec.Cmd("in", "", 0))
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("UserPromptSubmit", []any{cgroup("-", cmdHandler(a), cmdHandler(b), rec2)})}, say("finished"))
	r.exec(t, "run it")
	order := func(s string) string {
		ia, ib := strings.Index(s, "ctx-A"), strings.Index(s, "ctx-B")
		switch {
		case ia < 0 || ib < 0:
			return "context missing"
		case ia < ib:
			return "A (configured first) then B"
		default:
			return "B (finished first) then A"
		}
	}
	reqs := r.model.Requests()
	host := "no request"
	if len(reqs) > 0 {
		host = order(gjson.Get(reqs[0], "messages").Raw)
	}
	in := firstCall(t, rec, "in", "claude").Stdin
	os.Remove(done)
	res := r.hookd(t, "UserPromptSubmit", in)
	record(t, "claude", "6", "context from two hooks (B finishes first)", host, order(gjson.Get(res, "additionalContext").Raw))
}

// httpRecorder is a local hook server recording each request.
type httpRecorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	body []string
	srv  *httptest.Server
}

func newHTTPRecorder(t *testing.T, reply string) *httpRecorder {
	h := &httpRecorder{}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.reqs = append(h.reqs, r)
		h.body = append(h.body, string(b))
		h.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *httpRecorder) summary() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.reqs) == 0 {
		return "not requested"
	}
	r := h.reqs[0]
	return fmt.Sprintf("%s %s; X-Allowed=%q X-Other=%q User-Agent=%q; body event=%s", r.Method, r.URL.Path, r.Header.Get("X-Allowed"), r.Header.Get("X-Other"),
		r.Header.Get("User-Agent"), gjson.Get(h.body[0], "hook_event_name").Str)
}

func (h *httpRecorder) reset() {
	h.mu.Lock()
	h.reqs, h.body = nil, nil
	h.mu.Unlock()
}

// Item 1: http handlers.
func TestClaude_HTTPHandlers(t *testing.T) {
	rec := rh.NewRecorder(t)
	deny := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"http says no"}}`
	ok := newHTTPRecorder(t, deny)
	blocked := newHTTPRecorder(t, `{}`)
	blockedURL := strings.Replace(blocked.srv.URL, "127.0.0.1", "localhost", 1) + "/other"
	settings := map[string]any{
		"allowedHttpHookUrls": []string{"http://127.0.0.1:*"},
		"hooks": hooksOf("PreToolUse", []any{cgroup("Bash",
			cmdHandler(rec.Cmd("pre", "", 0)),
			handler("type", "http", "url", ok.srv.URL+"/hook", "headers", map[string]any{"X-Allowed": "$ALLOWED_TOKEN", "X-Other": "${OTHER_TOKEN}"},
				"allowedEnvVars", []string{"ALLOWED_TOKEN"}),
			handler("type", "http", "url", blockedURL),
		)}),
	}
	r := newClaude(t, rec, settings, callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	r.env = []string{"ALLOWED_TOKEN=tok-a", "OTHER_TOKEN=tok-b"}
	r.exec(t, "run it")
	hostReq, hostBlocked := ok.summary(), blocked.summary()
	hostResult := toolResult(r.model.Requests(), 1)
	hostMsg := "no message"
	if strings.Contains(r.stdout, "does not match any pattern in allowedHttpHookUrls") {
		hostMsg = "HTTP hook blocked: … does not match any pattern in allowedHttpHookUrls"
	}
	in := firstCall(t, rec, "pre", "claude").Stdin
	ok.reset()
	blocked.reset()
	res := r.hookd(t, "PreToolUse", in)
	hdMsg := "no message"
	if strings.Contains(res, "does not match any pattern in allowedHttpHookUrls") {
		hdMsg = "HTTP hook blocked: … does not match any pattern in allowedHttpHookUrls"
	}
	record(t, "claude", "1", "http hook: the request it sends", hostReq, ok.summary())
	record(t, "claude", "1", "http hook deny: what the model gets", hostResult, gjson.Get(res, "reason").Str)
	record(t, "claude", "1", "URL outside allowedHttpHookUrls: requested?", hostBlocked, blocked.summary())
	record(t, "claude", "1", "URL outside allowedHttpHookUrls: message", hostMsg, hdMsg)
}

// Item 3: exec form, onFailure and asyncRewake.
func TestClaude_CommandFields(t *testing.T) {
	rec := rh.NewRecorder(t)
	argsFile := filepath.Join(rec.Dir, "args.txt")
	rewakeDone := filepath.Join(rec.Dir, "rewake-done")
	settings := map[string]any{"hooks": hooksOf(
		"PreToolUse", []any{
			cgroup("Bash", cmdHandler(rec.Cmd("pre", "", 0)),
				handler("type", "command", "command", "bash", "args", []string{"-c", `printf '%s\n' "$@" > ` + argsFile, "x", "$HOME", "a b", "*", "${CLAUDE_PROJECT_DIR}"})),
			cgroup("Write", cmdHandler("cat >/dev/null; exit 1", "onFailure", "block")),
		},
		"PostToolUse", []any{cgroup("Bash", handler("type", "command", "command",
			"cat >/dev/null; echo rewake-from-hook >&2; touch "+rewakeDone+"; exit 2", "asyncRewake", true))},
	)}
	r := newClaude(t, rec, settings,
		callTool("Bash", fmt.Sprintf(`{"command":"for i in $(seq 100); do [ -f %s ] && break; sleep 0.05; done; echo ran","description":"x"}`, rewakeDone)),
		callTool("Bash", `{"command":"echo second","description":"x"}`),
		callTool("Write", `{"file_path":"/tmp/realhost-never.txt","content":"x"}`),
		say("finished"))
	r.exec(t, "run it")
	readArgs := func() string {
		b, err := os.ReadFile(argsFile)
		if err != nil {
			return "did not run"
		}
		return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(string(b)), r.work, "<project>"), "\n", " ⏎ ")
	}
	hostArgs := readArgs()
	reqs := r.model.Requests()
	hostRewake := "no"
	for _, q := range reqs[1:] {
		if strings.Contains(q, "exit 2]: rewake-from-hook") {
			hostRewake = "yes"
		}
	}
	hostFail := toolResult(reqs, 3)
	pre := rec.Calls("pre")
	if len(pre) == 0 {
		t.Fatal("pre never ran")
	}
	os.Remove(argsFile)
	rec.Reset()
	r.hookd(t, "PreToolUse", pre[0].Stdin)
	record(t, "claude", "3", "exec form args $HOME, \"a b\", *, ${CLAUDE_PROJECT_DIR}", hostArgs, readArgs())
	resW := r.hookd(t, "PreToolUse", `{"tool_name":"Write","tool_input":{"file_path":"/tmp/realhost-never.txt","content":"x"},"tool_use_id":"w1"}`)
	d := gjson.Get(resW, "decision").Str
	hdFail := yesNo(d == "deny" || d == "block")
	t.Logf("onFailure block text: host %q, hookd %q", hostFail, gjson.Get(resW, "reason").Str)
	record(t, "claude", "3", "onFailure:block on a hook that exits 1: tool blocked", yesNo(strings.Contains(hostFail, `onFailure is "block"`)), hdFail)
	record(t, "claude", "3", "onFailure:block on a hook that exits 1: the text the model gets", hostFail, gjson.Get(resW, "reason").Str)
	// Async results come after hooks/run answers: ask hookd serve.
	_, async := r.hookdServe(t, "PostToolUse", `{"tool_name":"Bash","tool_input":{"command":"echo"},"tool_response":{"stdout":"ran"},"tool_use_id":"p1"}`)
	hdRewake := "no"
	for _, a := range async {
		if strings.HasSuffix(gjson.Get(a, "rewake").Str, "exit 2]: rewake-from-hook") {
			hdRewake = "yes"
		}
	}
	record(t, "claude", "3", "asyncRewake exit 2: \"[<command>]: <stderr>\" reaches the model's next request (hookd: the async result's rewake)", hostRewake, hdRewake)
}

// Item 2: prompt and agent handlers through the host's model.
func TestClaude_PromptAndAgentHandlers(t *testing.T) {
	const reason = "judge says no"
	answer := func(kind string) turn {
		if kind == "agent" {
			return callTool("StructuredOutput", `{"ok":false,"reason":"`+reason+`"}`)
		}
		return say(`{"ok": false, "reason": "` + reason + `"}`)
	}
	for _, tc := range []struct {
		name, event, kind string
		extra             []any
	}{
		{"prompt ok:false on PreToolUse", "PreToolUse", "prompt", nil},
		{"prompt ok:false on PreToolUse with continueOnBlock", "PreToolUse", "prompt", []any{"continueOnBlock", true}},
		{"agent ok:false on PreToolUse with continueOnBlock", "PreToolUse", "agent", []any{"continueOnBlock", true}},
		{"prompt ok:false on Stop", "Stop", "prompt", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			const prompt = "Judge this call: $ARGUMENTS"
			matcher := "Bash"
			if tc.event == "Stop" {
				matcher = "-"
			}
			judge := handler(append([]any{"type", tc.kind, "prompt", prompt}, tc.extra...)...)
			settings := map[string]any{"hooks": hooksOf(tc.event, []any{cgroup(matcher, cmdHandler(rec.Cmd("in", "", 0)), judge)})}
			r := newClaude(t, rec, settings, callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"), say("again"))
			judged := 0
			var arguments string
			r.model.side = func(body string) (turn, bool) {
				if !isJudge(body) {
					return turn{}, false
				}
				judged++
				if judged > 1 {
					return say(`{"ok": true}`), true
				}
				arguments = body
				return answer(tc.kind), true
			}
			r.exec(t, "run it")
			reqs := r.model.Requests()
			var main []string
			for _, q := range reqs {
				if !isJudge(q) {
					main = append(main, q)
				}
			}
			t.Logf("main-loop requests: %d, judge requests: %d", len(main), judged)
			in := firstCall(t, rec, "in", "claude").Stdin
			var host string
			switch {
			case tc.event == "Stop":
				text := "(no further turn)"
				if len(main) > 2 {
					text = gjson.Get(main[2], "messages.@reverse.0.content.#(type==\"text\")#.text|@reverse|0").Str
				}
				// Claude Code puts "Stop hook feedback:\n" before every Stop
				// continuation (command hooks too); hookd's continuation is
				// what follows it.
				host = "next turn: " + strings.TrimPrefix(strings.TrimSpace(text), "Stop hook feedback:\n")
			case len(main) > 1:
				host = fmt.Sprintf("tool blocked; model gets %q", toolResult(main, 1))
			default:
				host = "tool blocked; turn ends"
			}
			if arguments == "" {
				host = "model never asked"
			}
			res := r.hookd(t, tc.event, in, hookdEvaluateFlags(t, tc.kind, reason)...)
			var hd string
			d := gjson.Get(res, "decision").Str
			switch {
			case !strings.Contains(res, reason):
				hd = "model never asked"
			case tc.event == "Stop":
				hd = "next turn: " + gjson.Get(res, "continuation").Str
			case (d == "deny" || d == "block") && gjson.Get(res, "continue").Type == gjson.False:
				hd = "tool blocked; turn ends"
			case d == "deny" || d == "block":
				hd = fmt.Sprintf("tool blocked; model gets %q", gjson.Get(res, "reason").Str)
			default:
				hd = "tool runs"
			}
			record(t, "claude", "2", tc.name, host, hd)
		})
	}
}

// isJudge tells a prompt or agent hook's model request from a main-loop
// one: a prompt hook's request has no tools, an agent hook's has the
// StructuredOutput tool.
func isJudge(body string) bool {
	tools := gjson.Get(body, "tools.#.name").Array()
	if len(tools) == 0 {
		return true
	}
	for _, n := range tools {
		if n.Str == "StructuredOutput" {
			return true
		}
	}
	return false
}

// hookdEvaluateFlags answers prompt and agent hooks offline when hookd run can.
func hookdEvaluateFlags(t *testing.T, kind, reason string) []string {
	if hookdHas(t, "evaluate") {
		return []string{"--evaluate", `{"ok": false, "reason": "` + reason + `"}`}
	}
	return nil
}
