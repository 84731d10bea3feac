package claude

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
)

// Claude Code's prompt and agent handlers need a model, which hookd does not
// have: hookd asks whoever can answer (the host's model/evaluate, or hookd
// run --evaluate) and reads {ok, reason} as Claude Code 2.1.328 does
// (measured; SEMANTICS section 6):
//
//   - ok:false on PreToolUse denies the tool and ends the turn (continue
//     false), unless continueOnBlock, when the model gets the reason and
//     goes on; on PermissionRequest it denies; on Stop and the other
//     blocking events it blocks, the reason becoming the continuation;
//   - the reason reads "[<prompt as written>]: <reason>" for a prompt hook,
//     "Agent hook condition was not met: <reason>" for an agent hook;
//   - nobody to ask is a failure that says so, never a silent pass.

// evalConfig is a prompt or agent handler's own fields.
type evalConfig struct {
	Prompt          string  `json:"prompt"`
	Model           *string `json:"model"`
	ContinueOnBlock bool    `json:"continueOnBlock"`
}

// evalEvents are the events whose hooks may be prompt or agent hooks.
var evalEvents = map[string]bool{
	"PermissionDenied": true, "PermissionRequest": true, "PostToolBatch": true, "PostToolUse": true,
	"PostToolUseFailure": true, "PreToolUse": true, "Stop": true, "SubagentStop": true, "TaskCompleted": true,
	"TaskCreated": true, "TeammateIdle": true, "UserPromptExpansion": true, "UserPromptSubmit": true,
	// Loaded, but they block when they run: Claude Code does not run
	// prompt and agent hooks on a skill's shell command.
	"PreSkillShellCommand": true,
}

// readEval checks a prompt or agent handler's fields when it is read.
func readEval(ev *hooks.EventRules, typ string, raw gjson.Result) (string, bool) {
	if !evalEvents[ev.Name] {
		return fmt.Sprintf("skipping %s hook: %s takes only command, http and mcp_tool handlers", typ, ev.Name), true
	}
	var c evalConfig
	if err := json.Unmarshal([]byte(raw.Raw), &c); err != nil {
		return fmt.Sprintf("skipping %s hook: %s", typ, strings.TrimPrefix(err.Error(), "json: ")), true
	}
	if strings.TrimSpace(c.Prompt) == "" {
		return fmt.Sprintf(`skipping %s hook: missing field "prompt"`, typ), true
	}
	return "", false
}

// evalKind builds the prompt or agent handler kind of one engine.
func evalKind(kind string) func(*hooks.Engine) hooks.HandlerKind {
	return func(e *hooks.Engine) hooks.HandlerKind {
		return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
			timeout := time.Duration(h.Handler.Timeout) * time.Second
			start := time.Now()
			raw := hooks.RawResult{Timeout: timeout}
			var c evalConfig
			if err := json.Unmarshal(h.Handler.Config, &c); err != nil {
				raw.Err = fmt.Errorf("%s hook: %w", kind, err)
				return raw
			}
			if h.Event == "PreSkillShellCommand" {
				code := 0
				raw.ExitCode = &code
				raw.Stdout = evalBlockOutput(h.Event, kind, skillShellNoJudge, true)
				return raw
			}
			ev := e.Evaluator()
			if ev == nil {
				raw.Err = evaluate.ErrNoEvaluator
				return raw
			}
			prompt, err := evaluate.Prompt(c.Prompt, stdin)
			if err != nil {
				raw.Err = err
				return raw
			}
			rctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			answer, err := ev.Evaluate(rctx, evaluate.Request{RunID: hooks.RunIDOf(ctx), Hook: h.Key, Kind: kind,
				Prompt: prompt, Model: c.Model, Input: json.RawMessage(stdin), TimeoutMs: timeout.Milliseconds()})
			raw.Duration = time.Since(start)
			switch {
			case ctx.Err() != nil:
				raw.Cancelled, raw.Err = true, context.Cause(ctx)
				return raw
			case errors.Is(rctx.Err(), context.DeadlineExceeded):
				raw.TimedOut = true
				return raw
			case err != nil:
				raw.Err = fmt.Errorf("%s hook: %w", kind, err)
				return raw
			}
			a, err := evaluate.ParseAnswer(answer)
			if err != nil {
				raw.Err = err
				return raw
			}
			code := 0
			raw.ExitCode = &code
			if !a.OK {
				raw.Stdout = evalBlockOutput(h.Event, kind, evaluate.BlockText(kind, c.Prompt, a.Reason), c.ContinueOnBlock)
			}
			return raw
		})
	}
}

// evalBlockOutput is the hook output an ok:false stands for on event. A
// prompt hook's deny on PreToolUse also ends the turn (unless
// continueOnBlock); an agent hook's deny blocks the tool and the session
// goes on (Claude Code 2.1.332).
func evalBlockOutput(event, kind, reason string, continueOnBlock bool) string {
	var out map[string]any
	switch event {
	case "PreToolUse":
		out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event,
			"permissionDecision": "deny", "permissionDecisionReason": reason}}
		if !continueOnBlock && kind != evaluate.KindAgent {
			out["continue"], out["stopReason"] = false, reason
		}
	case "PermissionRequest":
		out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event,
			"decision": map[string]any{"behavior": "deny", "message": reason}}}
	default:
		out = map[string]any{"decision": "block", "reason": reason}
	}
	b, _ := json.Marshal(out)
	return string(b)
}
