package copilot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/httphook"
	"github.com/hookd/hookd/internal/lazyre"
)

// Copilot CLI's handler kinds (reference/other-hosts.md 2.3, 2.6):
//
//   - command: bash -c in the repository root (or the handler's cwd,
//     relative to it), with COPILOT_PROJECT_DIR and CLAUDE_PROJECT_DIR (the
//     root), COPILOT_HOOK_DIR (the hooks file's folder), COPILOT_CLI=1,
//     FORCE_COLOR=false and the handler's env, whose values have $VAR
//     filled in from the hooks' base environment. A hook written under a PascalCase event gets the
//     snake_case input (vscodeInput);
//   - http: the input POSTed to url (package httphook). HTTPS is required
//     when allowedEnvVars is set and on preToolUse, preMcpToolCall and
//     permissionRequest, unless COPILOT_HOOK_ALLOW_LOCALHOST=1 and the host
//     is the local machine;
//   - prompt: sessionStart only. Its text is submitted as if the user had
//     typed it; hookd hands it to the host in Result.Output.prompts.

const (
	typeHTTP   = "http"
	typePrompt = "prompt"
)

var handlerKinds = map[string]func(e *hooks.Engine) hooks.HandlerKind{
	hooks.TypeCommand: commandKind,
	typeHTTP:          httpKind,
	typePrompt: func(*hooks.Engine) hooks.HandlerKind {
		return hooks.HandlerKindFunc(func(context.Context, *hooks.Hook, []byte) hooks.RawResult {
			zero := 0
			return hooks.RawResult{ExitCode: &zero}
		})
	},
}

func commandKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		root := e.ProjectDir()
		run := *h
		run.Env = map[string]string{
			"COPILOT_PROJECT_DIR": root, "CLAUDE_PROJECT_DIR": root,
			"COPILOT_CLI": "1", "FORCE_COLOR": "false",
		}
		// $VAR in env values expands from the hooks' base environment (the
		// profile's filter applied), never from hookd's own.
		base := e.BaseLookup(ctx)
		for k, v := range h.Env {
			if !strings.HasPrefix(k, "\x00") {
				run.Env[k] = os.Expand(v, func(n string) string { s, _ := base(n); return s })
			}
		}
		if dir := h.Env[envCwd]; dir != "" {
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			run.Handler.Command = "cd " + hooks.ShellQuote(dir) + " && " + h.Handler.Command
		}
		ev := h.Env[envVSCode]
		if ev == "" {
			return e.RunCommand(ctx, &run, stdin)
		}
		raw := e.RunCommand(ctx, &run, vscodeInput(ev, stdin))
		raw.Stdout = liftAnswer(raw.Stdout)
		return raw
	})
}

// secureEvents need an https URL.
var secureEvents = map[string]bool{"preToolUse": true, "preMcpToolCall": true, "permissionRequest": true}

func httpKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		var allowed []string
		_ = json.Unmarshal([]byte(h.Env[envAllowed]), &allowed)
		if _, err := url.Parse(h.Handler.Command); err != nil {
			return hooks.RawResult{Err: fmt.Errorf("http hook: %w", err)}
		}
		policy := httpPolicy(h.Event, allowed)
		headers := map[string]string{}
		gjson.Parse(h.Env[envHeaders]).ForEach(func(k, v gjson.Result) bool {
			headers[k.Str] = v.String()
			return true
		})
		ev := h.Env[envVSCode]
		if ev != "" {
			stdin = vscodeInput(ev, stdin)
		}
		hd := httphook.Handler{URL: h.Handler.Command, Headers: headers, AllowedEnvVars: allowed}
		raw := httphook.RunRaw(ctx, nil, hd, policy, e.HookLookup(ctx, h), stdin, h.Handler.Limit())
		if ev != "" {
			raw.Stdout = liftAnswer(raw.Stdout)
		}
		return raw
	})
}

// httpPolicy is Copilot CLI's https rule as a policy, so that it holds on
// every hop: an https hook redirected to http would send its headers in
// plain text.
func httpPolicy(event string, allowed []string) httphook.Policy {
	secure := len(allowed) > 0 || secureEvents[event]
	return httphook.Policy{Check: func(u *url.URL) error {
		if secure && u.Scheme != "https" && !localAllowed(u) {
			return fmt.Errorf("http hook %s: an https URL is required here (COPILOT_HOOK_ALLOW_LOCALHOST=1 allows http to this machine)", u)
		}
		return nil
	}}
}

func localAllowed(u *url.URL) bool {
	if os.Getenv("COPILOT_HOOK_ALLOW_LOCALHOST") != "1" {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// prepareInput puts sessionId and timestamp (Unix milliseconds) first, as
// Copilot CLI writes them, filling them in when the host left them out.
func prepareInput(_ *hooks.EventRules, input []byte, s hooks.Session) []byte {
	in := gjson.ParseBytes(input)
	id := in.Get("sessionId")
	ts := in.Get("timestamp")
	out := []byte{'{'}
	add := func(k string, raw string) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(hooks.AppendJSONString(out, k), ':')
		out = append(out, raw...)
	}
	if id.Exists() {
		add("sessionId", id.Raw)
	} else {
		add("sessionId", string(hooks.AppendJSONString(nil, s.ID)))
	}
	if ts.Exists() {
		add("timestamp", ts.Raw)
	} else {
		add("timestamp", fmt.Sprint(time.Now().UnixMilli()))
	}
	in.ForEach(func(k, v gjson.Result) bool {
		if k.Str != "sessionId" && k.Str != "timestamp" {
			add(k.Str, v.Raw)
		}
		return true
	})
	return append(out, '}')
}

var upper = lazyre.New(`[A-Z]`)

// snake turns a camelCase key into snake_case.
func snake(k string) string {
	if k == "" || !strings.ContainsFunc(k, unicode.IsUpper) {
		return k
	}
	return upper.ReplaceAllStringFunc(k, func(c string) string { return "_" + strings.ToLower(c) })
}

// vscodeInput is the snake_case ("VS Code compatible") input of a hook
// written under a PascalCase event, in the order Copilot CLI writes it:
// hook_event_name, session_id, an ISO timestamp and cwd first; toolName
// becomes tool_name with Claude Code's name, toolArgs tool_input, and the
// other keys (toolResult's too) snake_case.
func vscodeInput(event string, input []byte) []byte {
	in := gjson.ParseBytes(input)
	out := map[string]any{"hook_event_name": event}
	order := []string{"hook_event_name", "session_id", "timestamp", "cwd"}
	in.ForEach(func(k, v gjson.Result) bool {
		key := snake(k.Str)
		var val any = json.RawMessage(v.Raw)
		switch k.Str {
		case "timestamp":
			if v.Type == gjson.Number {
				val = time.UnixMilli(v.Int()).UTC().Format("2006-01-02T15:04:05.000Z")
			}
		case "toolName":
			if c, ok := claudeNames[v.Str]; ok {
				val = c
			}
		case "toolArgs":
			key = "tool_input"
			if v.Type == gjson.String && gjson.Valid(v.Str) {
				val = json.RawMessage(v.Str)
			}
		case "toolResult":
			m := map[string]json.RawMessage{}
			v.ForEach(func(k2, v2 gjson.Result) bool {
				m[snake(k2.Str)] = json.RawMessage(v2.Raw)
				return true
			})
			val = m
		}
		if !slices.Contains(order, key) {
			order = append(order, key)
		}
		out[key] = val
		return true
	})
	buf := []byte{'{'}
	for _, k := range order {
		v, ok := out[k]
		if !ok {
			continue
		}
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		vb, _ := hooks.MarshalStdin(v)
		buf = append(append(hooks.AppendJSONString(buf, k), ':'), vb...)
	}
	return append(buf, '}')
}

// liftAnswer turns a PascalCase hook's answer into the camelCase form the
// events read: hookSpecificOutput's permissionDecision,
// permissionDecisionReason, additionalContext, updatedInput (as
// modifiedArgs) and decision{behavior, message, interrupt} move to the top
// level, unless the top level already has them. A camelCase hook's
// hookSpecificOutput is not read at all (checked against the CLI).
func liftAnswer(stdout string) string {
	text := strings.TrimSpace(stdout)
	if !strings.HasPrefix(text, "{") || !gjson.Valid(text) {
		return stdout
	}
	hso := gjson.Get(text, "hookSpecificOutput")
	if !hso.IsObject() {
		return stdout
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return stdout
	}
	lift := func(to string, v gjson.Result) {
		if _, has := m[to]; !has && v.Exists() {
			m[to] = json.RawMessage(v.Raw)
		}
	}
	for _, k := range []string{"permissionDecision", "permissionDecisionReason", "additionalContext"} {
		lift(k, hso.Get(k))
	}
	lift("modifiedArgs", hso.Get("updatedInput"))
	lift("behavior", hso.Get("decision.behavior"))
	lift("message", hso.Get("decision.message"))
	lift("interrupt", hso.Get("decision.interrupt"))
	b, err := json.Marshal(m)
	if err != nil {
		return stdout
	}
	return string(b)
}
