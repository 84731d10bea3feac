package droid

import (
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Reading and combining Droid's hook results (executeCommand and each
// event's caller in the binary; the points marked measured in
// docs/profile-droid.md were checked with droid exec).
//
// Each handler's result is its exit code, stdout and stderr, and, when
// stdout trimmed starts with "{" and parses, its continue, stopReason,
// systemMessage, decision, reason and hookSpecificOutput's
// permissionDecision, permissionDecisionReason, additionalContext and
// updatedInput, whatever the exit code. A timeout is exit 1. The event then
// looks through the results in configuration order and takes the first
// that says each thing: one hook's answer, never a merge.

// result is one handler's result as Droid keeps it.
type result struct {
	Code   int    `json:"code"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// JSON is stdout's object; nil when stdout is not one.
	JSON map[string]json.RawMessage `json:"json,omitempty"`
}

const outKey = "\x00droid"

func parse(raw hooks.RawResult, async bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	r := result{Code: 1, Stdout: raw.Stdout, Stderr: raw.Stderr}
	switch {
	case ended && !raw.TimedOut:
		return o
	case raw.ExitCode != nil:
		r.Code = *raw.ExitCode
	}
	if t := strings.TrimSpace(raw.Stdout); strings.HasPrefix(t, "{") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(t), &m) == nil {
			r.JSON = m
		} else if !ended {
			o.Fail("hook printed invalid JSON; its fields are ignored")
		}
	}
	if !ended && r.Code != 0 && o.Status == hooks.StatusSucceeded {
		o.Fail("hook exited with code " + itoa(r.Code))
	}
	if async {
		return o
	}
	b, _ := json.Marshal(r)
	o.Output = map[string]json.RawMessage{outKey: b}
	return o
}

func itoa(n int) string { return strconv.Itoa(n) }

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// results takes each outcome's result out of its Output, in configuration
// order, with the outcome it came from.
func results(outs []hooks.Outcome) ([]result, []*hooks.Outcome) {
	var rs []result
	var os []*hooks.Outcome
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
		if json.Unmarshal(b, &r) == nil {
			rs = append(rs, r)
			os = append(os, o)
		}
	}
	return rs, os
}

func (r result) str(path string) string {
	if r.JSON == nil {
		return ""
	}
	parts := strings.SplitN(path, ".", 2)
	v, ok := r.JSON[parts[0]]
	if !ok {
		return ""
	}
	g := gjson.ParseBytes(v)
	if len(parts) == 2 {
		g = g.Get(parts[1])
	}
	if g.Type != gjson.String {
		return ""
	}
	return g.Str
}

func (r result) raw(path string) gjson.Result {
	parts := strings.SplitN(path, ".", 2)
	v, ok := r.JSON[parts[0]]
	if !ok {
		return gjson.Result{}
	}
	g := gjson.ParseBytes(v)
	if len(parts) == 2 {
		g = g.Get(parts[1])
	}
	return g
}

// stops is continue === false.
func (r result) stops() bool { return r.raw("continue").Type == gjson.False }

// hasValue is a JavaScript truthy value at path.
func (r result) hasValue(path string) bool { return truthy(r.raw(path)) }

// context is what R8 reads as a hook's context: on exit 0 a non-empty
// hookSpecificOutput.additionalContext, else stdout trimmed when it is not
// a JSON object with one of the output keys.
func (r result) context() string {
	if r.Code != 0 {
		return ""
	}
	if c := r.raw("hookSpecificOutput.additionalContext"); c.Type == gjson.String && c.Str != "" {
		return c.Str
	}
	t := strings.TrimSpace(r.Stdout)
	if t == "" || r.isOutputObject() {
		return ""
	}
	return t
}

var outputKeys = []string{"continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"}

func (r result) isOutputObject() bool {
	if r.JSON == nil {
		return false
	}
	for _, k := range outputKeys {
		if _, ok := r.JSON[k]; ok {
			return true
		}
	}
	return false
}

func first(rs []result, f func(r result) bool) (int, bool) {
	for i, r := range rs {
		if f(r) {
			return i, true
		}
	}
	return -1, false
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// updateKey holds PreToolUse's updatedInput until afterCombine merges it
// into the call's tool_input, as Droid does ({...input, ...updatedInput}).
const updateKey = "\x00droidUpdate"

func (de *event) combine(res *hooks.Result, outs []hooks.Outcome) {
	rs, os := results(outs)
	for _, o := range os {
		hooks.AddMessages(res, o)
	}
	if len(rs) == 0 {
		return
	}
	stop := func(def string) bool {
		if i, ok := first(rs, result.stops); ok {
			res.Continue, res.StopReason = false, or(rs[i].str("stopReason"), def)
			return true
		}
		return false
	}
	abort := func(def string) bool {
		if i, ok := first(rs, func(r result) bool { return r.Code == 3 }); ok {
			res.Continue, res.StopReason = false, or(rs[i].Stderr, def)
			setOut(res, "abort", []byte("true"))
			return true
		}
		return false
	}
	sysMsg := func(prefix string) {
		if i, ok := first(rs, func(r result) bool { return r.hasValue("systemMessage") }); ok {
			res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: os[i].Hook.Key, Text: prefix + rs[i].str("systemMessage")})
		}
	}
	warn := func(prefix string) {
		if i, ok := first(rs, func(r result) bool { return r.Code == 1 }); ok && rs[i].Stderr != "" {
			res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: os[i].Hook.Key, Text: prefix + rs[i].Stderr})
		}
	}
	switch de.kind {
	case kindPreTool:
		if stop("Hook requested to stop execution") || abort("Agent aborted by PreToolUse hook") {
			res.Decision = hooks.DecisionDeny
			res.Reason = res.StopReason
			return
		}
		var update gjson.Result
		di, decided := first(rs, func(r result) bool { return r.hasValue("hookSpecificOutput.permissionDecision") })
		if decided {
			switch rs[di].str("hookSpecificOutput.permissionDecision") {
			case "deny":
				res.Decision, res.Reason = hooks.DecisionDeny, or(rs[di].str("hookSpecificOutput.permissionDecisionReason"), "Tool execution denied by hook")
				return
			case "allow":
				res.Decision = hooks.DecisionAllow
				update = rs[di].raw("hookSpecificOutput.updatedInput")
			}
		}
		if i, ok := first(rs, func(r result) bool { return r.Code == 2 }); ok {
			res.Decision, res.Reason, res.UpdatedInput = hooks.DecisionDeny, or(rs[i].Stderr, "Tool execution blocked by hook"), nil
			return
		}
		if !update.IsObject() && !(decided && rs[di].hasValue("hookSpecificOutput.updatedInput")) {
			if i, ok := first(rs, func(r result) bool { return r.hasValue("hookSpecificOutput.updatedInput") }); ok {
				update = rs[i].raw("hookSpecificOutput.updatedInput")
			}
		}
		if update.IsObject() {
			setOut(res, updateKey, []byte(update.Raw))
		}
		warn("Hook warning: ")
	case kindPostTool:
		if stop("Hook requested to stop execution") {
			return
		}
		if i, ok := first(rs, func(r result) bool { return r.hasValue("hookSpecificOutput.additionalContext") }); ok {
			if c := rs[i].raw("hookSpecificOutput.additionalContext"); c.Type == gjson.String {
				res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: os[i].Hook.Key, Text: c.Str})
			}
		}
		sysMsg("Hook warning: ")
		if abort("Agent aborted by PostToolUse hook") {
			return
		}
		if i, ok := first(rs, func(r result) bool { return r.Code == 2 }); ok {
			res.Feedback = "[Hook Feedback] " + or(rs[i].Stderr, "PostToolUse hook reported an issue")
		}
		warn("[Hook Warning] ")
	case kindPrompt:
		prompt := ""
		rewritten := false
		ctx := -1
		for i, r := range rs {
			if r.Code == 2 || r.stops() {
				res.Decision = hooks.DecisionBlock
				res.Reason = or(r.Stderr, or(r.str("stopReason"), or(r.str("systemMessage"), "User prompt submission blocked by hook")))
				return
			}
			if p := r.raw("hookSpecificOutput.updatedInput.prompt"); p.Type == gjson.String {
				prompt, rewritten = p.Str, true
			}
			if c := r.context(); c != "" && ctx < 0 {
				ctx = i
				res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: os[i].Hook.Key, Text: c})
			}
			if r.Code == 3 {
				res.Decision, res.Reason = hooks.DecisionBlock, or(r.Stderr, "User prompt submission aborted by hook")
				return
			}
		}
		if rewritten {
			b, _ := json.Marshal(map[string]string{"prompt": prompt})
			res.UpdatedInput = b
		}
	case kindStop:
		if i, ok := first(rs, result.stops); ok {
			res.Continue, res.StopReason = false, or(rs[i].str("stopReason"), "Hook requested immediate stop")
		}
		sysMsg("Hook message: ")
		if i, ok := first(rs, func(r result) bool { return r.Code == 3 }); ok {
			res.Continue, res.StopReason = false, or(rs[i].Stderr, "Agent aborted by Stop hook")
		}
		if i, ok := first(rs, func(r result) bool { return r.str("decision") == "block" }); ok {
			if reason := rs[i].str("reason"); reason != "" {
				res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, reason, reason
			}
		} else if i, ok := first(rs, func(r result) bool { return r.Code == 2 }); ok {
			reason := or(rs[i].Stderr, "Stop hook requested continuation")
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, reason, reason
		}
		if i, ok := first(rs, func(r result) bool { return r.Code == 1 }); ok && rs[i].Stderr != "" {
			res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: os[i].Hook.Key, Text: "Stop hook warning: " + rs[i].Stderr})
		}
	case kindCompact:
		if i, ok := first(rs, func(r result) bool { return r.Code == 2 || r.Code == 3 }); ok {
			res.Decision, res.Reason = hooks.DecisionBlock, or(strings.TrimSpace(rs[i].Stderr), "PreCompact hook blocked compaction")
		}
	case kindSessionStart:
		for i, r := range rs {
			if c := r.context(); c != "" {
				res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: os[i].Hook.Key, Text: c})
			}
		}
	}
}

func setOut(res *hooks.Result, k string, v []byte) {
	if res.Output == nil {
		res.Output = map[string]json.RawMessage{}
	}
	res.Output[k] = v
}

// afterCombine merges PreToolUse's updatedInput into the call's input, key
// by key, as Droid does, so the host gets the whole input to run.
func afterCombine(_ *hooks.State, ev *hooks.EventRules, input []byte, res *hooks.Result) {
	up, ok := res.Output[updateKey]
	if !ok {
		return
	}
	delete(res.Output, updateKey)
	if len(res.Output) == 0 {
		res.Output = nil
	}
	if ev.Name != "PreToolUse" || res.Decision == hooks.DecisionDeny {
		return
	}
	merged := map[string]json.RawMessage{}
	gjson.GetBytes(input, "tool_input").ForEach(func(k, v gjson.Result) bool {
		merged[k.Str] = json.RawMessage(v.Raw)
		return true
	})
	gjson.ParseBytes(up).ForEach(func(k, v gjson.Result) bool {
		merged[k.Str] = json.RawMessage(v.Raw)
		return true
	})
	res.UpdatedInput = mustJSON(merged)
}
