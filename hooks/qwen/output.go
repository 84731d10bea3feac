package qwen

import (
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
)

// Reading and combining Qwen Code hook output (hookRunner.ts,
// hookAggregator.ts; reference/other-hosts.md 3.4, 3.6). Each handler's
// result becomes one output object, as Qwen Code builds it:
//
//   - exit 2 reads only stderr: a JSON object there is the output, other
//     text is {"decision":"deny","reason":text}, no text is no output;
//   - any other exit reads stdout, or stderr when stdout is empty: a JSON
//     object (or a JSON string holding one) is the output whatever the
//     code; text that starts with "{" but does not parse is ignored (the
//     handler failed); other text on exit 0 is additionalContext on
//     SessionStart, UserPromptSubmit and UserPromptExpansion (when it came
//     from stdout; ANSI stripped) and a systemMessage elsewhere; on any
//     other code it is the system message "Warning: <text>";
//   - a timeout, a cancel or a failed start gives no output (fail-open).
//
// The outputs of an event are then merged in configuration order as Qwen
// Code merges them (merge below) and the merged object is read once. So on
// PreToolUse a hookSpecificOutput.permissionDecision of a later hook
// replaces an earlier one's, and beats any top-level decision.

// outKey holds a handler's output object in Outcome.Output; combine reads
// it and never hands it to the host.
const outKey = "\x00qwen"

// plainContextEvents turn text on stdout into additionalContext.
var plainContextEvents = map[string]bool{"SessionStart": true, "UserPromptSubmit": true, "UserPromptExpansion": true}

var ansi = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|[\x00-\x08\x0b-\x1f\x7f]`)

// parse is the Parse rule of every Qwen Code event.
func (qe *qwenEvent) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	killed := raw.ExitCode == nil && raw.Err == nil && !raw.TimedOut && !raw.Cancelled
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended && !killed {
		if raw.TimedOut && raw.Timeout%time.Second != 0 {
			o.Error = fmt.Sprintf("hook timed out after %dms", raw.Timeout.Milliseconds())
		}
		return o
	}
	code := -1
	if raw.ExitCode != nil {
		code = *raw.ExitCode
	}
	stdout := strings.TrimSpace(raw.Stdout)
	text := stdout
	fromStdout := code != 2 && stdout != ""
	if code == 2 || text == "" {
		text = strings.TrimSpace(raw.Stderr)
	}
	var out map[string]any
	if text != "" {
		obj, err := decodeObject(text)
		switch {
		case err == nil:
			out = obj
		case code != 2 && strings.HasPrefix(text, "{"):
			o.Fail("hook output is not valid JSON; it is ignored")
			return o
		default:
			out = plainOutput(qe.name, text, code, fromStdout)
		}
	}
	switch {
	case killed:
		o.Fail("hook killed by signal")
	case code == 2:
		o.Status = hooks.StatusBlocked
	case code != 0:
		o.Fail(fmt.Sprintf("hook exited with code %d", code))
	}
	if out != nil {
		o.Output = map[string]json.RawMessage{outKey: mustJSON(out)}
		if qe.blocks(out) && !async {
			o.Block, o.Status = true, hooks.StatusBlocked
			if code != 0 && code != 2 {
				o.Error = fmt.Sprintf("hook exited with code %d", code)
			}
		}
	}
	if o.Status == hooks.StatusBlocked && !o.Block {
		// Exit 2 with nothing to read blocks nothing.
		o.Fail(fmt.Sprintf("hook exited with code %d", code))
	}
	if async {
		o.Output = nil
		o.DropControl()
	}
	return o
}

// decodeObject parses a JSON object, or a JSON string holding one.
func decodeObject(text string) (map[string]any, error) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, err
	}
	if s, ok := v.(string); ok {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return nil, err
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not an object")
	}
	return obj, nil
}

// plainOutput is Qwen Code's convertPlainTextToHookOutput.
func plainOutput(event, text string, code int, fromStdout bool) map[string]any {
	switch code {
	case 0:
		if fromStdout && plainContextEvents[event] {
			lines := strings.Split(text, "\n")
			for i, l := range lines {
				lines[i] = ansi.ReplaceAllString(l, "")
			}
			return map[string]any{"decision": "allow", "reason": "Hook executed successfully",
				"hookSpecificOutput": map[string]any{"hookEventName": event, "additionalContext": strings.Join(lines, "\n")}}
		}
		return map[string]any{"decision": "allow", "reason": "Hook executed successfully", "systemMessage": text}
	case 2:
		return map[string]any{"decision": "deny", "reason": text}
	default:
		return map[string]any{"decision": "allow", "reason": "Non-blocking error: " + text, "systemMessage": "Warning: " + text}
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// permissionDecision is PreToolUseHookOutput.getPermissionDecision.
func permissionDecision(out map[string]any) string {
	if hso := obj(out, "hookSpecificOutput"); hso != nil {
		if d := str(hso, "permissionDecision"); d == "allow" || d == "deny" || d == "ask" {
			return d
		}
	}
	switch str(out, "decision") {
	case "allow", "approve":
		return hooks.DecisionAllow
	case "deny", "block":
		return hooks.DecisionDeny
	case "ask":
		return hooks.DecisionAsk
	}
	return ""
}

// permissionReason is getPermissionDecisionReason.
func permissionReason(out map[string]any) string {
	if hso := obj(out, "hookSpecificOutput"); hso != nil {
		if r, ok := hso["permissionDecisionReason"].(string); ok {
			return r
		}
	}
	return str(out, "reason")
}

// blocks reports whether one output blocks the event (isBlockingHookOutput).
func (qe *qwenEvent) blocks(out map[string]any) bool {
	switch qe.kind {
	case kindAdvisory, kindApproval:
		return false
	case kindPermission:
		return permissionDecision(out) == hooks.DecisionDeny
	}
	d := str(out, "decision")
	return d == "block" || d == "deny"
}

// merge is HookAggregator.mergeOutputs for the event.
func (qe *qwenEvent) merge(outs []map[string]any) map[string]any {
	switch {
	case len(outs) == 0:
		return nil
	case len(outs) == 1:
		return outs[0]
	}
	switch qe.kind {
	case kindApproval:
		return mergeApproval(outs)
	case kindAdvisory:
		return mergeSimple(outs)
	}
	if qe.name == "SessionStart" {
		return mergeSimple(outs)
	}
	return mergeOr(outs)
}

// mergeOr: any block or deny blocks; reasons and contexts are joined with
// newlines; continue:false sticks; other hookSpecificOutput keys and the
// system message: the later one wins.
func mergeOr(outs []map[string]any) map[string]any {
	merged := map[string]any{}
	var reasons, contexts []string
	hso := map[string]any{}
	block, stop := false, false
	for _, out := range outs {
		d := str(out, "decision")
		block = block || d == "block" || d == "deny"
		if r := str(out, "reason"); r != "" {
			reasons = append(reasons, r)
		}
		if c, ok := out["continue"].(bool); ok && !c {
			stop = true
			if sr := str(out, "stopReason"); sr != "" {
				merged["stopReason"] = sr
			}
		}
		for k, v := range obj(out, "hookSpecificOutput") {
			if k == "additionalContext" {
				if s, ok := v.(string); ok {
					contexts = append(contexts, s)
				}
				continue
			}
			hso[k] = v
		}
		if v, ok := out["systemMessage"]; ok {
			merged["systemMessage"] = v
		}
	}
	switch {
	case block:
		merged["decision"] = "block"
	default:
		for _, out := range outs {
			if str(out, "decision") == "allow" {
				merged["decision"] = "allow"
			}
		}
	}
	if len(reasons) > 0 {
		merged["reason"] = strings.Join(reasons, "\n")
	}
	if stop {
		merged["continue"] = false
	}
	if len(contexts) > 0 {
		hso["additionalContext"] = strings.Join(contexts, "\n")
	}
	if len(hso) > 0 {
		merged["hookSpecificOutput"] = hso
	}
	return merged
}

// mergeSimple: a shallow merge, the later key wins; contexts are joined.
func mergeSimple(outs []map[string]any) map[string]any {
	merged := map[string]any{}
	var contexts []string
	for _, out := range outs {
		if c, ok := obj(out, "hookSpecificOutput")["additionalContext"].(string); ok {
			contexts = append(contexts, c)
		}
		for k, v := range out {
			merged[k] = v
		}
	}
	if len(contexts) > 0 {
		hso := map[string]any{}
		for k, v := range obj(merged, "hookSpecificOutput") {
			hso[k] = v
		}
		hso["additionalContext"] = strings.Join(contexts, "\n")
		merged["hookSpecificOutput"] = hso
	}
	return merged
}

// mergeApproval is PermissionRequest: deny beats allow, messages are
// joined, interrupt is an OR, the later updatedInput wins.
func mergeApproval(outs []map[string]any) map[string]any {
	merged := map[string]any{}
	decision := map[string]any{}
	var messages []string
	deny, allow := false, false
	for _, out := range outs {
		d := obj(obj(out, "hookSpecificOutput"), "decision")
		if d == nil {
			continue
		}
		switch str(d, "behavior") {
		case "deny":
			deny = true
		case "allow":
			allow = true
		}
		if m := str(d, "message"); m != "" {
			messages = append(messages, m)
		}
		if b, _ := d["interrupt"].(bool); b {
			decision["interrupt"] = true
		}
		if u, ok := d["updatedInput"]; ok && u != nil {
			decision["updatedInput"] = u
		}
		if v, ok := out["continue"]; ok {
			merged["continue"] = v
		}
		if v, ok := out["reason"]; ok {
			merged["reason"] = v
		}
	}
	switch {
	case deny:
		decision["behavior"] = "deny"
	case allow:
		decision["behavior"] = "allow"
	}
	if len(messages) > 0 {
		decision["message"] = strings.Join(messages, "\n")
	}
	merged["hookSpecificOutput"] = map[string]any{"decision": decision}
	return merged
}

// combine merges the outputs and reads the merged one into res.
func (qe *qwenEvent) combine(res *hooks.Result, outs []hooks.Outcome) {
	var objs []map[string]any
	for i := range outs {
		o := &outs[i]
		raw, ok := o.Output[outKey]
		if !ok {
			continue
		}
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			objs = append(objs, m)
		}
		// Attribute each handler's context to it, in configuration order;
		// the host joins them with newlines, as Qwen Code does.
		if c, ok := obj(m, "hookSpecificOutput")["additionalContext"].(string); ok && c != "" && qe.kind != kindApproval {
			o.Contexts = append(o.Contexts, c)
		}
		delete(o.Output, outKey)
		if len(o.Output) == 0 {
			o.Output = nil
		}
		for _, c := range o.Contexts {
			res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Hook: o.Hook.Key, Text: c})
		}
	}
	merged := qe.merge(objs)
	if merged == nil {
		return
	}
	if sm := str(merged, "systemMessage"); sm != "" {
		res.SystemMessages = append(res.SystemMessages, hooks.Message{Text: sm})
	}
	reason := str(merged, "stopReason")
	if reason == "" {
		reason = str(merged, "reason")
	}
	blocked := str(merged, "decision") == "block" || str(merged, "decision") == "deny"
	switch qe.kind {
	case kindPermission:
		switch permissionDecision(merged) {
		case hooks.DecisionDeny:
			res.Decision, res.Reason = hooks.DecisionDeny, permissionReason(merged)
		case hooks.DecisionAsk:
			res.Decision, res.Reason = hooks.DecisionAsk, permissionReason(merged)
		case hooks.DecisionAllow:
			res.Decision = hooks.DecisionAllow
		}
	case kindApproval:
		d := obj(obj(merged, "hookSpecificOutput"), "decision")
		switch str(d, "behavior") {
		case "deny":
			res.Decision, res.Reason = hooks.DecisionDeny, str(d, "message")
			res.Permission = &hooks.Permission{Behavior: hooks.DecisionDeny, Message: str(d, "message")}
			if b, _ := d["interrupt"].(bool); b {
				res.Output = map[string]json.RawMessage{"interrupt": json.RawMessage("true")}
			}
		case "allow":
			res.Decision = hooks.DecisionAllow
			res.Permission = &hooks.Permission{Behavior: hooks.DecisionAllow}
			if u, ok := d["updatedInput"].(map[string]any); ok {
				res.UpdatedInput = mustJSON(u)
			}
		}
	case kindFeedback:
		if blocked {
			res.Decision, res.Reason, res.Feedback = hooks.DecisionBlock, reason, reason
		}
	case kindBlock:
		if blocked {
			res.Decision, res.Reason = hooks.DecisionBlock, reason
		}
	case kindContinue:
		if blocked {
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, reason, reason
		}
	}
	if res.Decision == hooks.DecisionDeny && qe.kind == kindPermission {
		// The denied call never runs: its contexts go nowhere.
		res.AdditionalContext = nil
	}
	if c, ok := merged["continue"].(bool); ok && !c {
		res.Continue, res.StopReason = false, str(merged, "stopReason")
	}
}
