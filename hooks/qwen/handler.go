package qwen

import (
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
	"github.com/hookd/hookd/hooks/httphook"
	"github.com/hookd/hookd/internal/lazyre"
)

// Qwen Code's handler kinds (hookRunner.ts):
//
//   - command: bash -c in the session's folder with QWEN_PROJECT_DIR,
//     CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR (the cwd) and
//     QWEN_CODE_SESSION_ID added; bash expands them, the text is not
//     rewritten;
//   - http: POSTs the input JSON to url; the body of a 2xx reply is read as
//     a command's stdout on exit 0, any other reply is a non-blocking error.
//     Header values get $VAR and ${VAR} filled in from the hook's own
//     environment, only for names allowedEnvVars lists;
//   - prompt: needs a model, so hookd asks whoever can answer (the host's
//     model/evaluate, or hookd run --evaluate). $ARGUMENTS in the prompt
//     becomes the input JSON (nothing is appended when it is absent); the
//     answer is Qwen Code's {ok, reason?, additionalContext?}. ok:false
//     blocks as {"continue": false, "decision": "block", "reason": ...}, as
//     Qwen Code's prompt runner does; nobody to ask, a bad answer or a
//     timeout is a non-blocking failure. The timeout is always seconds
//     (default 30).

const (
	typeHTTP   = "http"
	typePrompt = "prompt"
)

var handlerKinds = map[string]func(e *hooks.Engine) hooks.HandlerKind{
	hooks.TypeCommand: commandKind,
	typeHTTP:          httpKind,
	typePrompt:        promptKind,
}

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
		// Qwen Code's shell context: the session's project folder under
		// its home, the model identity when the host's describes the
		// model, the subagent's id ("" outside one).
		if pd := os.Getenv("QWEN_CODE_PROJECT_DIR"); pd != "" {
			run.Env["QWEN_CODE_PROJECT_DIR"] = pd
		} else if home := e.Home(); home != "" {
			run.Env["QWEN_CODE_PROJECT_DIR"] = filepath.Join(home, "projects", projectSlug.ReplaceAllString(dir, "-"))
		}
		run.Env["QWEN_CODE_MODEL_IDENTITY"] = modelIdentity(os.Getenv("QWEN_CODE_MODEL_IDENTITY"), s.Model)
		run.Env["QWEN_CODE_AGENT_ID"] = gjson.GetBytes(stdin, "agent_id").Str
		for k, v := range h.Env {
			if !strings.HasPrefix(k, "\x00") {
				run.Env[k] = v
			}
		}
		return e.RunCommand(ctx, &run, stdin)
	})
}

// projectSlug is what Qwen Code replaces in a project's path to name its
// folder under <home>/projects.
var projectSlug = lazyre.New(`[^a-zA-Z0-9]`)

// modelIdentity is QWEN_CODE_MODEL_IDENTITY as Qwen Code passes it on: the
// identity it was given ("<model>" or "<model>@<8 hex>") when that
// describes the session's model, else "".
func modelIdentity(identity, model string) string {
	if identity == "" || model == "" {
		return ""
	}
	head := identity
	if i := strings.LastIndexByte(identity, '@'); i >= 0 && len(identity)-i-1 == 8 && isLowerHex(identity[i+1:]) {
		head = identity[:i]
	}
	if head != model {
		return ""
	}
	return identity
}

func isLowerHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func promptKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		timeout := h.Handler.Limit()
		start := time.Now()
		raw := hooks.RawResult{Timeout: timeout}
		ev := e.Evaluator()
		if ev == nil {
			raw.Err = evaluate.ErrNoEvaluator
			return raw
		}
		var compact bytes.Buffer
		if err := stdjson.Compact(&compact, stdin); err != nil {
			raw.Err = fmt.Errorf("prompt hook: input is not JSON: %w", err)
			return raw
		}
		prompt := strings.ReplaceAll(h.Handler.Command, "$ARGUMENTS", compact.String())
		var model *string
		if m, ok := h.Env[envModel]; ok {
			model = &m
		}
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		answer, err := ev.Evaluate(rctx, evaluate.Request{RunID: hooks.RunIDOf(ctx), Hook: h.Key, Kind: evaluate.KindPrompt,
			Prompt: prompt, Model: model, Input: stdin, TimeoutMs: timeout.Milliseconds()})
		raw.Duration = time.Since(start)
		switch {
		case ctx.Err() != nil:
			raw.Cancelled = true
			return raw
		case errors.Is(rctx.Err(), context.DeadlineExceeded):
			raw.TimedOut = true
			return raw
		case err != nil:
			raw.Err = fmt.Errorf("prompt hook: %w", err)
			return raw
		}
		out, err := promptOutput(answer)
		if err != nil {
			raw.Err = err
			return raw
		}
		zero := 0
		raw.ExitCode, raw.Stdout = &zero, out
		return raw
	})
}

// promptOutput turns the model's {ok, reason?, additionalContext?} into the
// output Qwen Code's prompt runner makes of it.
func promptOutput(answer []byte) (string, error) {
	a := gjson.ParseBytes(answer)
	ok := a.Get("ok")
	if !a.IsObject() || (ok.Type != gjson.True && ok.Type != gjson.False) {
		return "", errors.New(`prompt hook: the answer is not a JSON object with a boolean "ok"`)
	}
	out := map[string]any{}
	if c := a.Get("additionalContext"); c.Type == gjson.String {
		out["hookSpecificOutput"] = map[string]any{"additionalContext": c.Str}
	}
	reason := a.Get("reason").Str
	if ok.Bool() {
		out["continue"], out["decision"] = true, "allow"
		if reason != "" {
			out["reason"] = reason
		}
	} else {
		if reason == "" {
			reason = "Blocked by prompt hook"
		}
		out["continue"], out["stopReason"], out["decision"], out["reason"] = false, reason, "block", reason
	}
	b, err := stdjson.Marshal(out)
	return string(b), err
}

func httpKind(e *hooks.Engine) hooks.HandlerKind {
	var once onceSet
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		if !once.claim(h) {
			zero := 0
			return hooks.RawResult{ExitCode: &zero, Stdout: `{"continue":true}`, Timeout: h.Handler.Limit()}
		}
		private := e.State().String(stateHTTPPrivate) == "true"
		policy := httpPolicy(e, private)
		lookup := e.HookLookup(ctx, h)
		// Qwen Code's internal secrets are never filled in, listed or not.
		allowedEnv := slices.DeleteFunc(jsonStrings(h.Env[envAllowed]), isInternalSecret)
		target, err := guardURL(ctx, h.Handler.Command, allowedEnv, lookup, private, func(u string) error {
			if !policy.Allows(u) {
				return urlRefused(policy)
			}
			return nil
		})
		if err != nil {
			return hooks.RawResult{Err: err, Timeout: h.Handler.Limit()}
		}
		// The same policy goes with the request: every redirect passes the
		// allowlist and the blocked hosts again, and every address dialled
		// the private and metadata ranges.
		headers := map[string]string{}
		gjson.Parse(h.Env[envHeaders]).ForEach(func(k, v gjson.Result) bool {
			headers[k.Str] = v.String()
			return true
		})
		hd := httphook.Handler{URL: target, Headers: headers, AllowedEnvVars: allowedEnv}
		return httphook.RunRaw(ctx, nil, hd, policy, lookup, stdin, h.Handler.Limit())
	})
}
