package copilot

import (
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Reading a Copilot CLI hook's result (reference/other-hosts.md 2.4, 2.6):
//
//   - a timeout, a crash or a non-zero exit is logged and the hook's output
//     is skipped (fail-open), except that on preToolUse exit 2 denies ("hook
//     exited with code 2"; stderr is not passed on) and any other non-zero
//     exit denies too ("hook errored"), even with an allow on stdout; on
//     permissionRequest exit 2 denies, merged with the JSON on stdout; on
//     postToolUseFailure exit 2 sends stderr to the model as guidance;
//   - on exit 0 stdout is read as JSON; plain text is ignored, and so is
//     text that is not valid JSON (the hook is reported failed);
//   - the answer is read at the top level (permissionDecision,
//     permissionDecisionReason, modifiedArgs, additionalContext, decision,
//     reason, behavior, message, interrupt). A camelCase hook's
//     hookSpecificOutput is ignored (checked against the CLI); a PascalCase
//     hook's is lifted to the top level before this reads it (liftAnswer).

// field returns a top-level field.
func field(obj gjson.Result, name string) gjson.Result { return obj.Get(name) }

func (ce *copilotEvent) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended {
		return o
	}
	code := *raw.ExitCode
	text := strings.TrimSpace(raw.Stdout)
	var obj gjson.Result
	isJSON := strings.HasPrefix(text, "{") && gjson.Valid(text)
	if isJSON {
		obj = gjson.Parse(text)
	}
	switch {
	case ce.kind == kindPreTool && code == 2:
		deny(&o, "hook exited with code 2")
		o.Error = "hook exited with code 2"
		return o
	case ce.kind == kindPreTool && code != 0:
		msg := fmt.Sprintf("hook errored (exit code %d)", code)
		deny(&o, msg)
		o.Error = msg
		return o
	case ce.kind == kindPermission && code == 2:
		o.Permission, o.Block, o.Status = hooks.DecisionDeny, true, hooks.StatusBlocked
		o.Error = "hook exited with code 2"
		if isJSON {
			o.Reason = permissionMessage(obj)
			if interrupt(obj) {
				o.Output = map[string]json.RawMessage{"interrupt": json.RawMessage("true")}
			}
		}
		return o
	case ce.kind == kindFailure && code == 2:
		o.Error = "hook exited with code 2"
		if s := strings.TrimSpace(raw.Stderr); s != "" {
			o.Contexts = append(o.Contexts, s)
		}
		return o
	case code != 0:
		o.Fail(fmt.Sprintf("hook exited with code %d", code))
		return o
	case text == "":
		return o
	case !isJSON:
		if strings.HasPrefix(text, "{") {
			o.Fail("hook returned invalid JSON; its output is ignored")
		}
		return o
	}
	switch ce.kind {
	case kindPreTool:
		d := field(obj, "permissionDecision").Str
		reason := field(obj, "permissionDecisionReason").Str
		switch d {
		case "deny":
			deny(&o, reason)
		case "allow", "ask":
			o.Permission, o.Reason = d, reason
		}
		if m := obj.Get("modifiedArgs"); m.IsObject() {
			o.UpdatedInput = json.RawMessage(m.Raw)
		}
	case kindPermission:
		switch obj.Get("behavior").Str {
		case "deny":
			o.Permission, o.Block, o.Status = hooks.DecisionDeny, true, hooks.StatusBlocked
			o.Reason = permissionMessage(obj)
			if interrupt(obj) {
				o.Output = map[string]json.RawMessage{"interrupt": json.RawMessage("true")}
			}
		case "allow":
			o.Permission = hooks.DecisionAllow
		}
	case kindContext, kindFailure:
		if c := field(obj, "additionalContext"); c.Type == gjson.String && c.Str != "" {
			o.Contexts = append(o.Contexts, c.Str)
		}
	case kindStop:
		if obj.Get("decision").Str == "block" {
			if r := strings.TrimSpace(obj.Get("reason").Str); r != "" {
				hooks.BlockWith(&o, r)
			}
		}
	}
	if async {
		o.DropControl()
	}
	return o
}

func deny(o *hooks.Outcome, reason string) {
	hooks.BlockWith(o, reason)
	o.Permission = hooks.DecisionDeny
}

func permissionMessage(obj gjson.Result) string { return obj.Get("message").Str }

func interrupt(obj gjson.Result) bool { return obj.Get("interrupt").Type == gjson.True }

// combine folds the outcomes in configuration (file) order: on preToolUse
// any deny wins, with the first deny's reason alone, then ask, then allow,
// and the last modifiedArgs is used unless the call is denied; on
// permissionRequest the last hook that decided wins; on the stop events a
// block continues with the reasons joined; contexts keep their order.
func (ce *copilotEvent) combine(res *hooks.Result, outs []hooks.Outcome) {
	var denyReason, askReason string
	denied, asked, allowed := false, false, false
	var rewrite json.RawMessage
	var last *hooks.Outcome
	var reasons, prompts []string
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if o.Hook != nil && o.Hook.Handler.Type == typePrompt && o.Status == hooks.StatusSucceeded {
			prompts = append(prompts, o.Hook.Handler.Command)
		}
		switch o.Permission {
		case hooks.DecisionDeny:
			if !denied {
				denyReason = o.Reason
			}
			denied = true
		case hooks.DecisionAsk:
			if !asked {
				askReason = o.Reason
			}
			asked = true
		case hooks.DecisionAllow:
			allowed = true
		}
		if o.Permission != "" {
			last = o
		}
		if o.UpdatedInput != nil {
			rewrite = o.UpdatedInput
		}
		if o.Block && o.Reason != "" {
			reasons = append(reasons, o.Reason)
		}
	}
	switch ce.kind {
	case kindPreTool:
		switch {
		case denied:
			res.Decision, res.Reason = hooks.DecisionDeny, denyReason
		case asked:
			res.Decision, res.Reason = hooks.DecisionAsk, askReason
		case allowed:
			res.Decision = hooks.DecisionAllow
		}
		if !denied {
			res.UpdatedInput = rewrite
		}
	case kindPermission:
		if last != nil {
			res.Decision = last.Permission
			res.Permission = &hooks.Permission{Behavior: last.Permission, Message: last.Reason}
			if last.Permission == hooks.DecisionDeny {
				res.Reason = last.Reason
				res.Output = last.Output
			}
		}
	case kindStop:
		if len(reasons) > 0 {
			joined := strings.Join(reasons, "\n")
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, joined, joined
		}
	}
	if len(prompts) > 0 {
		b, _ := json.Marshal(prompts)
		if res.Output == nil {
			res.Output = map[string]json.RawMessage{}
		}
		res.Output["prompts"] = b
	}
}
