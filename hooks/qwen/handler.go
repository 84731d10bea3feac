package qwen

import (
	"context"
	"errors"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/httphook"
)

// Qwen Code's handler kinds (hookRunner.ts):
//
//   - command: bash -c in the session's folder with QWEN_PROJECT_DIR,
//     CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR (the cwd) and
//     QWEN_CODE_SESSION_ID added; bash expands them, the text is not
//     rewritten;
//   - http: POSTs the input JSON to url; the body of a 2xx reply is read as
//     a command's stdout on exit 0, any other reply is a non-blocking error.
//     Header values get $VAR and ${VAR} filled in from hookd's environment,
//     only for names allowedEnvVars lists;
//   - prompt: needs a model. Under hookd it would go to the host through
//     model/evaluate; this build does not have that call, so a prompt hook
//     fails, non-blocking, with a message that says so.

const (
	typeHTTP   = "http"
	typePrompt = "prompt"
)

var handlerKinds = map[string]func(e *hooks.Engine) hooks.HandlerKind{
	hooks.TypeCommand: commandKind,
	typeHTTP:          httpKind,
	typePrompt:        promptKind,
}

// errPrompt is what a prompt hook reports.
var errPrompt = errors.New("prompt hooks need the host's model (model/evaluate), which this hookd build does not provide; the hook did not run")

func commandKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		s := e.Session()
		dir := s.Cwd
		if v := gjson.GetBytes(stdin, "cwd").Str; v != "" {
			dir = v
		}
		id := s.ID
		if v := gjson.GetBytes(stdin, "session_id").Str; v != "" {
			id = v
		}
		run := *h
		run.Env = map[string]string{
			"QWEN_PROJECT_DIR": dir, "CLAUDE_PROJECT_DIR": dir, "GEMINI_PROJECT_DIR": dir,
			"QWEN_CODE_SESSION_ID": id,
		}
		if s.Model != "" {
			run.Env["QWEN_CODE_MODEL"] = s.Model
		}
		if v := gjson.GetBytes(stdin, "prompt_id").Str; v != "" {
			run.Env["QWEN_CODE_PROMPT_ID"] = v
		}
		for k, v := range h.Env {
			if !strings.HasPrefix(k, "\x00") {
				run.Env[k] = v
			}
		}
		return e.RunCommand(ctx, &run, stdin)
	})
}

func promptKind(*hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(_ context.Context, h *hooks.Hook, _ []byte) hooks.RawResult {
		return hooks.RawResult{Err: errPrompt, Timeout: h.Handler.Limit()}
	})
}

func httpKind(*hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		headers := map[string]string{}
		gjson.Parse(h.Env[envHeaders]).ForEach(func(k, v gjson.Result) bool {
			headers[k.Str] = v.String()
			return true
		})
		hd := httphook.Handler{URL: h.Handler.Command, Headers: headers, AllowedEnvVars: jsonStrings(h.Env[envAllowed])}
		return httphook.RunRaw(ctx, nil, hd, httphook.Policy{}, stdin, h.Handler.Limit())
	})
}
