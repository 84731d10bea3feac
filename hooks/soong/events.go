package soong

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Soong's events and how their handlers' output is read (spec 002, "Hook
// Protocol" and "Hook Boundaries"). Every handler answers on stdout with
//
//	{"decision": "allow" | "deny", "reason": "...", "metadata": {}, "logs": []}
//
// and the first version lets a hook only stop something, never change it: no
// context, no rewritten prompt, tool input or tool result. PreToolUse may deny
// the tool call and Stop may deny the end of the loop; every other event only
// observes, so a deny there changes nothing.

// Soong's timeouts, in seconds. The document gives hooks a timeout without a
// number; hooks run one after another inside the agent loop, so the default
// is a minute rather than Codex's ten, and ten minutes is the most one may ask.
const (
	soongDefaultTimeout = 60
	soongMaxTimeout     = 600
)

// soongInput lists the fields Soong hook inputs start with; the event's own
// fields follow, and anything else the host sends comes after them.
func soongInput(fields ...string) []string {
	return append([]string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model"}, fields...)
}

var soongEvents = []*hooks.EventRules{
	{Name: "SessionStart", Label: "session_start",
		InputFields:    []string{"session_id", "transcript_path", "cwd", "hook_event_name", "model", "source"},
		DefaultTimeout: soongDefaultTimeout, MaxTimeout: soongMaxTimeout,
		Parse: parseSoongObserve},
	{Name: "UserPromptSubmit", Label: "user_prompt_submit",
		InputFields:    soongInput("prompt"),
		DefaultTimeout: soongDefaultTimeout, MaxTimeout: soongMaxTimeout,
		Parse: parseSoongObserve},
	{Name: "PreToolUse", Label: "pre_tool_use", MatchField: "tool_name", ToolEvent: true,
		InputFields:    soongInput("tool_name", "tool_use_id", "tool_input", "tags", "paths"),
		Blocking:       true,
		DefaultTimeout: soongDefaultTimeout, MaxTimeout: soongMaxTimeout,
		Parse: parseSoongDeny, Combine: combineSoongPreToolUse},
	{Name: "PostToolUse", Label: "post_tool_use", MatchField: "tool_name", ToolEvent: true,
		InputFields:    soongInput("tool_name", "tool_use_id", "tool_input", "tool_response", "tags", "paths"),
		DefaultTimeout: soongDefaultTimeout, MaxTimeout: soongMaxTimeout,
		Parse: parseSoongObserve},
	{Name: "Stop", Label: "stop",
		InputFields:    soongInput("last_assistant_message"),
		Blocking:       true,
		DefaultTimeout: soongDefaultTimeout, MaxTimeout: soongMaxTimeout,
		Parse: parseSoongDeny, Combine: combineSoongStop},
}

// parseSoongDeny reads a handler of an event that may deny.
func parseSoongDeny(raw hooks.RawResult, _ bool) hooks.Outcome { return readSoong(raw, true) }

// parseSoongObserve reads a handler of an observe-only event: its deny is
// not applied.
func parseSoongObserve(raw hooks.RawResult, _ bool) hooks.Outcome { return readSoong(raw, false) }

// readSoong classifies a finished handler. Only a non-zero exit makes a hook
// failed in the document's sense; hookd also fails a hook whose exit-0 stdout
// is not the protocol's JSON, since its answer cannot be read (a failure has
// the same effect: recorded, and the loop goes on). stdout is read on every
// exit code, because a failed hook that still returned an explicit deny
// denies. stderr never changes anything: it is passed on as the hook's log.
// A hook that timed out, was cancelled or killed has no answer to read.
func readSoong(raw hooks.RawResult, canDeny bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended {
		return o
	}
	out, problem := readSoongStdout(raw.Stdout)
	o.Metadata, o.Logs = out.metadata, out.logs
	deny := problem == "" && out.deny && canDeny
	if code := *raw.ExitCode; code != 0 {
		o.Fail(fmt.Sprintf("hook exited with code %d", code))
		if deny {
			// Failed, and still an explicit deny: the deny holds, and the
			// error keeps the exit code in view.
			o.Status, o.Block, o.Reason = hooks.StatusBlocked, true, out.reason
		}
		return o
	}
	if problem != "" {
		o.Fail(problem)
		return o
	}
	if deny {
		o.Status, o.Block, o.Reason = hooks.StatusBlocked, true, out.reason
	}
	return o
}

// soongOutput is a handler's stdout read by the Soong protocol.
type soongOutput struct {
	deny     bool
	reason   string
	metadata []byte
	logs     []byte
}

// readSoongStdout reads stdout. Blank is an allow with nothing else. Keys are
// exact (a "Decision" is not "decision"); fields the protocol does not name
// are ignored. An absent decision allows: only an explicit "deny" denies.
// problem says why stdout is not a valid answer, or is "".
func readSoongStdout(stdout string) (out soongOutput, problem string) {
	text := strings.TrimSpace(stdout)
	if text == "" {
		return out, ""
	}
	const invalid = "hook returned invalid output: "
	if text[0] != '{' || !gjson.Valid(text) {
		return out, invalid + `want a JSON object {"decision": "allow"|"deny", "reason", "metadata", "logs"}`
	}
	doc := gjson.Parse(text)
	set := func(name string) (gjson.Result, bool) {
		v := doc.Get(gjson.Escape(name))
		return v, v.Exists() && v.Type != gjson.Null
	}
	if v, ok := set("decision"); ok {
		switch {
		case v.Type == gjson.String && v.Str == "allow":
		case v.Type == gjson.String && v.Str == "deny":
			out.deny = true
		default:
			return soongOutput{}, invalid + fmt.Sprintf(`"decision" must be "allow" or "deny", not %s`, v.Raw)
		}
	}
	if v, ok := set("reason"); ok {
		if v.Type != gjson.String {
			return soongOutput{}, invalid + `"reason" must be a string`
		}
		out.reason = strings.TrimSpace(v.Str)
	}
	if v, ok := set("metadata"); ok {
		if !v.IsObject() {
			return soongOutput{}, invalid + `"metadata" must be an object`
		}
		out.metadata = []byte(v.Raw)
	}
	if v, ok := set("logs"); ok {
		if !v.IsArray() {
			return soongOutput{}, invalid + `"logs" must be an array`
		}
		out.logs = []byte(v.Raw)
	}
	return out, ""
}

// firstDeny returns the first denying outcome in configuration order. Runs
// stop at a deny (Profile.StopAtDeny), so there is at most one; taking the
// first keeps the rule true whatever the engine does.
func firstDeny(outs []hooks.Outcome) *hooks.Outcome {
	for i := range outs {
		if outs[i].Block {
			return &outs[i]
		}
	}
	return nil
}

// soongToolDenied is the reason of a PreToolUse deny that gave none: the host
// still writes a tool_result with is_error and needs a text for it.
const soongToolDenied = "tool call denied by a PreToolUse hook"

// combineSoongPreToolUse: a deny refuses the tool call (the host records
// tool_denied / hook_denied and skips its permission callback). An allow
// grants nothing: hooks.json never bypasses the permission check, so the
// decision stays "none".
func combineSoongPreToolUse(res *hooks.Result, outs []hooks.Outcome) {
	o := firstDeny(outs)
	if o == nil {
		return
	}
	res.Decision = hooks.DecisionDeny
	res.Reason = o.Reason
	if res.Reason == "" {
		res.Reason = soongToolDenied
	}
}

// soongStopPrevented starts the text the model gets after a Stop deny.
const soongStopPrevented = "Stop hook prevented completion."

// combineSoongStop: a deny keeps the loop going (stop_hook_prevented). The
// continuation is the synthetic context message the host feeds the model on
// the next round: that a Stop hook prevented completion, and the hook's
// reason. It is context for the model, never a system instruction.
func combineSoongStop(res *hooks.Result, outs []hooks.Outcome) {
	o := firstDeny(outs)
	if o == nil {
		return
	}
	res.Decision = hooks.DecisionDeny
	res.Reason = o.Reason
	res.Continuation = soongStopPrevented
	if o.Reason != "" {
		res.Continuation += " Reason: " + o.Reason
	}
}
