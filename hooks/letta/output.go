package letta

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Reading Letta Code's results (executeHooks, executeHooksParallel and each
// event's caller in letta.js). Only the exit code decides: 0 allows, 2
// blocks, anything else (a timeout, a signal, a failed start too) is an
// error. stdout and stderr are trimmed. A JSON object on stdout is never
// read for a decision: {"decision":"block"} on exit 0 allows. The runs
// collect feedback lines, in configuration order:
//
//   - exit 2: "[<command>]: <stderr>" when stderr is not empty;
//   - an error: "Hook error: <stderr>", else "Hook error: <what failed>";
//   - exit 0: stdout on UserPromptSubmit and SessionStart (the events that
//     run one after another), hookSpecificOutput.additionalContext or a
//     top-level additionalContext of a JSON stdout on the others.
//
// The events that run one after another stop at the first exit 2.

type result struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Error  string `json:"error,omitempty"`
	// Ok: exit 0, not timed out, no error (PermissionRequest's allow).
	Ok bool `json:"ok"`
}

const outKey = "\x00letta"

func (le *event) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	r := result{Code: 1, Stdout: strings.TrimSpace(raw.Stdout), Stderr: strings.TrimSpace(raw.Stderr)}
	switch {
	case raw.TimedOut:
		r.Error = fmt.Sprintf("Hook timed out after %dms", raw.Timeout.Milliseconds())
	case ended:
		r.Error = "Failed to execute hook: " + o.Error
	case *raw.ExitCode == 0:
		r.Code, r.Ok = 0, true
	case *raw.ExitCode == 2:
		r.Code = 2
	}
	if !ended && r.Code != 0 {
		o.Fail(fmt.Sprintf("hook exited with code %d", *raw.ExitCode))
	}
	if r.Code == 2 && le.serial && !async {
		// Only a run one after another stops at exit 2.
		o.Block, o.Status = true, hooks.StatusBlocked
	}
	if async {
		return o
	}
	b, _ := json.Marshal(r)
	o.Output = map[string]json.RawMessage{outKey: b}
	return o
}

// feedback is one result's line, if it gives one.
func (le *event) feedback(r result, h *hooks.Hook) (string, bool) {
	switch r.Code {
	case 0:
		if r.Stdout == "" {
			return "", false
		}
		if le.serial {
			if le.kind == kindPrompt || le.kind == kindSessionStart {
				return r.Stdout, true
			}
			return "", false
		}
		if !gjson.Valid(r.Stdout) {
			return "", false
		}
		j := gjson.Parse(r.Stdout)
		c := j.Get("hookSpecificOutput.additionalContext")
		if !truthy(c) {
			c = j.Get("additionalContext")
		}
		if !truthy(c) {
			return "", false
		}
		if c.Type == gjson.String {
			return c.Str, true
		}
		return c.Raw, true
	case 2:
		if r.Stderr == "" {
			return "", false
		}
		return "[" + h.Handler.Command + "]: " + r.Stderr, true
	}
	switch {
	case r.Stderr != "":
		return "Hook error: " + r.Stderr, true
	case r.Error != "":
		return "Hook error: " + r.Error, true
	}
	return "", false
}

func truthy(v gjson.Result) bool {
	switch v.Type {
	case gjson.String:
		return v.Str != ""
	case gjson.Number:
		return v.Num != 0
	case gjson.True, gjson.JSON:
		return true
	}
	return false
}

func (le *event) combine(res *hooks.Result, outs []hooks.Outcome) {
	var rs []result
	var keys []string
	var lines []string
	var lineHooks []string
	blocked := false
	for i := range outs {
		o := &outs[i]
		b, ok := o.Output[outKey]
		if !ok {
			continue
		}
		delete(o.Output, outKey)
		if len(o.Output) == 0 {
			o.Output = nil
		}
		var r result
		if json.Unmarshal(b, &r) != nil {
			continue
		}
		rs = append(rs, r)
		keys = append(keys, o.Hook.Key)
		if l, ok := le.feedback(r, o.Hook); ok {
			lines = append(lines, l)
			lineHooks = append(lineHooks, o.Hook.Key)
		}
		if r.Code == 2 {
			blocked = true
		}
	}
	joined := strings.Join(lines, "\n")
	switch le.kind {
	case kindPreTool:
		if blocked {
			res.Decision, res.Reason = hooks.DecisionDeny, or(joined, "Blocked by hook")
		}
	case kindPermission:
		switch {
		case blocked:
			res.Decision, res.Reason = hooks.DecisionDeny, or(joined, "Denied by hook")
			res.Permission = &hooks.Permission{Behavior: hooks.DecisionDeny, Message: res.Reason}
		case anyOk(rs):
			res.Decision = hooks.DecisionAllow
			res.Permission = &hooks.Permission{Behavior: hooks.DecisionAllow}
		}
	case kindFeedback:
		// Letta appends these to the tool's result as "[Hook feedback]:";
		// a block changes nothing else there.
		res.Feedback = joined
	case kindPrompt:
		if blocked {
			res.Decision, res.Reason = hooks.DecisionBlock, or(joined, "Blocked by hook")
			return
		}
		for i, l := range lines {
			res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: lineHooks[i], Text: l})
		}
	case kindStop:
		if blocked {
			// The continuation is every run hook's stderr, not the feedback.
			var errs []string
			for _, r := range rs {
				if r.Stderr != "" {
					errs = append(errs, r.Stderr)
				}
			}
			reason := or(strings.Join(errs, "\n"), "Stop hook blocked")
			res.Decision, res.Reason = hooks.DecisionBlock, reason
			res.Continuation = "<stop-hook>\n" + reason + "\n</stop-hook>"
		}
	case kindCompact:
		if blocked {
			res.Decision, res.Reason = hooks.DecisionBlock, or(joined, "Blocked by hook")
		}
	case kindSessionStart:
		// Every hook's stdout, whatever its exit code.
		for i, r := range rs {
			if r.Stdout != "" {
				res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: keys[i], Text: r.Stdout})
			}
		}
	}
}

func anyOk(rs []result) bool {
	for _, r := range rs {
		if r.Ok {
			return true
		}
	}
	return false
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
