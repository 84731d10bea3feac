package mirri

import (
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Mirri Code CLI's events (spec 001: the event table and the payload details),
// one row each. A row says what the matcher is tested against, which payload
// fields follow the base ones, and what a hook's answer can do. Three kinds:
//
//   - blocking (UserPromptSubmit, PreToolUse, Stop): exit 2 or
//     hookSpecificOutput.permissionDecision "deny" blocks, and failClosed
//     turns a crash, timeout or invalid JSON into a block;
//   - rewriting (RewriteToolInput): updatedInput replaces the tool input,
//     nothing blocks;
//   - observing (the other fifteen): fire and forget, the output is never
//     read and the outcome is always "none".
//
// PreToolUse also rewrites: the v2 hook engine moved updatedInput there. Whether
// a rewrite counts is decided per session (mirri.go), since it depends
// on the experimental flag and on the host's engine.

// mirriRow is one event of the spec's table.
type mirriRow struct {
	name, label string
	// target is the payload field the matcher is tested against; "" means
	// the spec's "空字符串": the matcher sees the empty string.
	target string
	// fields are the payload fields after hook_event_name, session_id, cwd.
	fields []string
	tool   bool
	// blocks: exit 2 and permissionDecision "deny" block, and the result
	// decision is blockDecision; continues marks Stop, whose block reason is
	// the continuation prompt.
	blocks        bool
	blockDecision string
	continues     bool
	// context: hookSpecificOutput.message (or top-level message) is context
	// for the model. rewrites: hookSpecificOutput.updatedInput is read.
	context  bool
	rewrites bool
	// after runs in AfterCombine with the session's State (turn tracking,
	// the Stop continuation cap, rewrite gating); nil does nothing.
	after func(st *hooks.State, input []byte, res *hooks.Result)
}

// mirriBase are the fields every Mirri payload starts with, in its order.
var mirriBase = []string{"hook_event_name", "session_id", "cwd"}

// mirriRows is the event table, in the spec's order. turn_id on Stop is
// hookd's: it is written only when the host gives a turn id, so that the
// once-per-turn continuation rule can key on it.
var mirriRows = []*mirriRow{
	{name: "UserPromptSubmit", label: "user_prompt_submit", target: "prompt",
		fields: []string{"prompt"},
		blocks: true, blockDecision: hooks.DecisionBlock, context: true, after: mirriTurnBoundary},
	{name: "PreToolUse", label: "pre_tool_use", target: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_call_id"},
		blocks: true, blockDecision: hooks.DecisionDeny, rewrites: true, after: mirriGateRewrite},
	{name: "Stop", label: "stop",
		fields: []string{"turn_id", "stop_hook_active", "last_assistant_message"},
		blocks: true, blockDecision: hooks.DecisionBlock, continues: true, after: mirriCapStop},
	{name: "PostToolUse", label: "post_tool_use", target: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_call_id", "tool_output"}},
	{name: "PostToolUseFailure", label: "post_tool_use_failure", target: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_call_id", "error"}},
	{name: "PermissionRequest", label: "permission_request", target: "tool_name", tool: true,
		fields: []string{"turn_id", "tool_call_id", "tool_name", "action", "tool_input", "display"}},
	{name: "PermissionResult", label: "permission_result", target: "tool_name", tool: true,
		fields: []string{"turn_id", "tool_call_id", "tool_name", "action", "decision", "scope", "error"}},
	{name: "SessionStart", label: "session_start", target: "source",
		fields: []string{"source"}, after: mirriTurnBoundary},
	{name: "SessionEnd", label: "session_end", target: "reason",
		fields: []string{"reason"}, after: mirriTurnBoundary},
	{name: "SubagentStart", label: "subagent_start", target: "agent_name",
		fields: []string{"agent_name", "prompt", "model_alias"}},
	{name: "SubagentStop", label: "subagent_stop", target: "agent_name",
		fields: []string{"agent_name", "response", "duration_ms"}},
	{name: "StopFailure", label: "stop_failure", target: "error_type",
		fields: []string{"error_type", "error_message"}, after: mirriTurnBoundary},
	{name: "Interrupt", label: "interrupt",
		fields: []string{"turn_id", "reason"}, after: mirriTurnBoundary},
	{name: "PreCompact", label: "pre_compact", target: "trigger",
		fields: []string{"trigger", "token_count", "context_window_size"}},
	{name: "PostCompact", label: "post_compact", target: "trigger",
		fields: []string{"trigger", "estimated_token_count"}},
	{name: "Notification", label: "notification", target: "notification_type",
		fields: []string{"sink", "notification_type", "title", "body", "severity", "source_kind"}},
	{name: "RewriteToolInput", label: "rewrite_tool_input", target: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_call_id"}, rewrites: true},
	{name: "PreLlmRequest", label: "pre_llm_request",
		fields: []string{"turn_id", "step", "model", "message_count", "tool_count", "messages"}},
	{name: "PostLlmRequest", label: "post_llm_request",
		fields: []string{"turn_id", "step", "model", "finish_reason", "usage", "duration_ms", "ttft_ms", "tool_call_count"}},
}

// Mirri's timeout rule: 1–600 seconds, 30 when the rule sets none.
const (
	mirriDefaultTimeout = 30
	mirriMaxTimeout     = 600
)

// mirriTruncate is how many characters of tool_output and
// last_assistant_message a hook sees.
const mirriTruncate = 2000

// rules builds the engine's view of the row.
func (r *mirriRow) rules() *hooks.EventRules {
	return &hooks.EventRules{
		Name:  r.name,
		Label: r.label,
		// The matchers are InputMatchers that read r.target themselves,
		// the empty string included, so MatchField only documents it.
		MatchField:     r.target,
		ToolEvent:      r.tool,
		InputFields:    append(append([]string(nil), mirriBase...), r.fields...),
		Blocking:       r.blocks,
		EndsSession:    r.name == "SessionEnd",
		DefaultTimeout: mirriDefaultTimeout,
		MaxTimeout:     mirriMaxTimeout,
		Parse:          r.parse,
		Combine:        r.combine,
	}
}

// observes reports whether the event only observes: its output is never read.
func (r *mirriRow) observes() bool { return !r.blocks && !r.rewrites }

// mirriFailure classifies a finished hook the way the spec's exit-code table
// does: "" when the hook answered (exit 0, or exit 2 on a blocking event),
// else the status and a one-line reason. Only these failures (crash, timeout,
// invalid JSON) are what failClosed turns into a block.
func (r *mirriRow) failure(raw hooks.RawResult) (hooks.Status, string) {
	switch {
	case raw.TimedOut:
		return hooks.StatusTimedOut, fmt.Sprintf("hook timed out after %ds", int64(raw.Timeout.Round(time.Second)/time.Second))
	case raw.Cancelled:
		return hooks.StatusCancelled, hooks.MsgCancelled
	case raw.Err != nil:
		return hooks.StatusFailed, raw.Err.Error()
	case raw.ExitCode == nil:
		return hooks.StatusFailed, hooks.MsgNoStatus
	}
	switch code := *raw.ExitCode; {
	case code == 2 && r.blocks:
		return "", ""
	case code == 2:
		return hooks.StatusFailed, "hook exited with code 2 (only UserPromptSubmit, PreToolUse and Stop can be blocked)"
	case code != 0:
		return hooks.StatusFailed, fmt.Sprintf("hook exited with code %d", code)
	case !r.observes() && mirriInvalidJSON(raw.Stdout):
		return hooks.StatusFailed, "hook returned invalid JSON output"
	}
	return "", ""
}

// mirriInvalidJSON reports stdout that looks like JSON (starts with { or [)
// but is not a JSON object. Blank or plain-text stdout carries no structured
// output and is not a failure; a half-written object is.
func mirriInvalidJSON(stdout string) bool {
	t := strings.TrimSpace(stdout)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return false
	}
	return t[0] != '{' || !json.Valid([]byte(t))
}

// parse is the row's Parse rule.
func (r *mirriRow) parse(raw hooks.RawResult, _ bool) hooks.Outcome {
	o := hooks.Outcome{Raw: raw, Status: hooks.StatusSucceeded}
	if st, msg := r.failure(raw); st != "" {
		o.Status, o.Error = st, msg
		return o
	}
	if r.observes() {
		return o
	}
	if *raw.ExitCode == 2 {
		reason := strings.TrimSpace(raw.Stderr)
		if reason == "" {
			reason = fmt.Sprintf("%s blocked by a hook (exit code 2, nothing on stderr)", r.name)
		}
		hooks.BlockWith(&o, reason)
		return o
	}
	t := strings.TrimSpace(raw.Stdout)
	if t == "" || t[0] != '{' {
		return o
	}
	// The spec reads its fields leniently: a permissionDecision other than
	// "deny", a field of another type or a field it does not know is ignored.
	out := gjson.Parse(t)
	spec := out.Get("hookSpecificOutput")
	if r.blocks && str(spec.Get("permissionDecision")) == "deny" {
		reason := strings.TrimSpace(str(spec.Get("permissionDecisionReason")))
		if reason == "" {
			reason = fmt.Sprintf("%s denied by a hook (no permissionDecisionReason)", r.name)
		}
		// A denying hook's message and updatedInput have no effect: context
		// counts only when the hook lets the prompt through.
		hooks.BlockWith(&o, reason)
		return o
	}
	if r.context {
		msg := str(spec.Get("message"))
		if msg == "" {
			msg = str(out.Get("message"))
		}
		o.AddContext(&msg)
	}
	if u := spec.Get("updatedInput"); r.rewrites && u.IsObject() {
		o.UpdatedInput = json.RawMessage(u.Raw)
	}
	return o
}

// str is a JSON string's value, or "" for any other type.
func str(v gjson.Result) string {
	if v.Type != gjson.String {
		return ""
	}
	return v.Str
}

// combine is the row's Combine rule, over the outcomes in configuration
// order. Blocks (failClosed failures among them) win: their reasons, in
// order, make the reason, and nothing else counts, since a blocked prompt
// has nothing to add context to and a blocked call nothing to rewrite.
// Otherwise the context of every hook is kept and the first rewrite in
// configuration order is used (the spec: the first hook that returns
// updatedInput wins; the others are skipped).
func (r *mirriRow) combine(res *hooks.Result, outs []hooks.Outcome) {
	if r.observes() {
		return
	}
	var reasons []string
	for i := range outs {
		o := &outs[i]
		if r.blocks && !o.Block && o.Hook != nil && o.Hook.Handler.FailClosed {
			if st, msg := r.failure(o.Raw); st == hooks.StatusFailed || st == hooks.StatusTimedOut {
				o.Block = true
				o.Reason = fmt.Sprintf("failClosed hook %s failed: %s", o.Hook.Key, msg)
			}
		}
		if o.Block {
			reasons = append(reasons, o.Reason)
		}
	}
	if len(reasons) > 0 {
		res.Decision = r.blockDecision
		res.Reason = strings.Join(reasons, "\n\n")
		if r.continues {
			res.Continuation = res.Reason
		}
		return
	}
	var rewrite *hooks.Outcome
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if rewrite == nil && o.UpdatedInput != nil {
			rewrite = o
		}
	}
	if rewrite != nil {
		res.Decision = hooks.DecisionAllow
		res.UpdatedInput = rewrite.UpdatedInput
	}
}
