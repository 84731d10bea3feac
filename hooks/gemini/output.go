package gemini

import (
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Reading a Gemini CLI hook's result (reference/other-hosts.md 1.4, 1.6):
//
//   - the text read is stdout, or stderr when stdout is empty;
//   - a JSON object is obeyed whatever the exit code (a JSON string holding
//     JSON is decoded twice);
//   - other text, broken JSON included, goes by the exit code: 0 shows it as
//     a system message, 1 as "Warning: <text>", any other code denies with
//     the text as the reason; no text never blocks;
//   - a process killed by a signal counts as exit 0; a non-zero exit marks
//     the handler failed, which only adds a warning;
//   - a timeout fails open.

// reply is a hook's JSON answer, as far as Gemini CLI reads it.
type reply struct {
	cont                    bool
	stopReason, systemMsg   string
	decision, reason        string
	context                 string
	toolInput               json.RawMessage
	output                  map[string]json.RawMessage
	toolConfig              gjson.Result
	hasContext, hasDecision bool
}

// decodeReply returns the JSON object text holds, decoding a JSON string
// twice; ok is false for anything else.
func decodeReply(text string) (gjson.Result, bool) {
	if !gjson.Valid(text) {
		return gjson.Result{}, false
	}
	v := gjson.Parse(text)
	if v.Type == gjson.String && gjson.Valid(v.Str) {
		v = gjson.Parse(v.Str)
	}
	return v, v.IsObject()
}

func (ge *geminiEvent) readReply(obj gjson.Result) reply {
	r := reply{cont: true}
	if c := obj.Get("continue"); c.Type == gjson.False {
		r.cont = false
	}
	r.stopReason = obj.Get("stopReason").String()
	r.systemMsg = obj.Get("systemMessage").String()
	if d := obj.Get("decision"); d.Type == gjson.String {
		r.decision, r.hasDecision = strings.ToLower(d.Str), true
	}
	r.reason = obj.Get("reason").String()
	hso := obj.Get("hookSpecificOutput")
	if !hso.IsObject() {
		return r
	}
	if c := hso.Get("additionalContext"); c.Type == gjson.String {
		r.context, r.hasContext = c.Str, true
	}
	if ge.kind == kindBeforeTool {
		if ti := hso.Get("tool_input"); ti.IsObject() {
			r.toolInput = json.RawMessage(ti.Raw)
		}
	}
	if ge.kind == kindToolSelection {
		r.toolConfig = hso.Get("toolConfig")
	}
	for _, name := range ge.pass {
		if v := hso.Get(gjson.Escape(name)); v.Exists() && v.Type != gjson.Null {
			if r.output == nil {
				r.output = map[string]json.RawMessage{}
			}
			r.output[name] = json.RawMessage(v.Raw)
		}
	}
	return r
}

// parse is the Parse rule of every Gemini CLI event.
func (ge *geminiEvent) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	if raw.ExitCode == nil && raw.Err == nil && !raw.TimedOut && !raw.Cancelled {
		zero := 0
		raw.ExitCode = &zero
	}
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended {
		if raw.TimedOut {
			o.Error = fmt.Sprintf("hook timed out after %dms", raw.Timeout.Milliseconds())
		}
		return o
	}
	code := *raw.ExitCode
	text := strings.TrimSpace(raw.Stdout)
	if text == "" {
		text = strings.TrimSpace(raw.Stderr)
	}
	if obj, ok := decodeReply(text); ok {
		ge.apply(&o, ge.readReply(obj))
	} else if text != "" {
		switch code {
		case 0:
			o.SystemMessage = text
		case 1:
			o.SystemMessage = "Warning: " + text
		default:
			o.Block, o.Reason = true, text
		}
	}
	if o.Block {
		o.Status = hooks.StatusBlocked
		if !ge.blocks() {
			o.Block, o.Status = false, hooks.StatusSucceeded
		}
	}
	if code != 0 {
		msg := fmt.Sprintf("hook exited with code %d", code)
		if o.Block {
			o.Error = msg
		} else {
			o.Fail(msg)
		}
	}
	return o
}

// blocks reports whether a deny means something on the event.
func (ge *geminiEvent) blocks() bool {
	switch ge.kind {
	case kindBeforeTool, kindAfterTool, kindBeforeAgent, kindAfterAgent, kindModel:
		return true
	}
	return false
}

// apply records what a JSON answer asks for.
func (ge *geminiEvent) apply(o *hooks.Outcome, r reply) {
	o.SystemMessage = r.systemMsg
	if r.hasContext && r.context != "" {
		o.Contexts = append(o.Contexts, r.context)
	}
	if !r.cont {
		o.Stop, o.StopReason = true, r.stopReason
	}
	o.Reason = r.reason
	switch r.decision {
	case "deny", "block":
		o.Block = true
		o.Permission = hooks.DecisionDeny
	case "ask":
		o.Permission = hooks.DecisionAsk
	case "allow", "approve":
		o.Permission = hooks.DecisionAllow
	}
	o.UpdatedInput = r.toolInput
	o.Output = r.output
	if r.toolConfig.IsObject() {
		o.Output = map[string]json.RawMessage{"toolConfig": json.RawMessage(r.toolConfig.Raw)}
	}
}

// combine is the Combine rule of every Gemini CLI event
// (hookAggregator.js): on the tool, agent and model events any deny wins,
// with the reasons of every hook that gave one joined by newlines in
// configuration order; ask counts only when nothing denies; continue:false
// sticks; contexts and system messages keep configuration order; of several
// rewrites or pass-through fields the later-configured hook's wins.
func (ge *geminiEvent) combine(res *hooks.Result, outs []hooks.Outcome) {
	var reasons []string
	denied, asked, allowed := false, false, false
	var rewrite json.RawMessage
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		if o.Reason != "" {
			reasons = append(reasons, o.Reason)
		}
		denied = denied || o.Block
		asked = asked || o.Permission == hooks.DecisionAsk
		allowed = allowed || o.Permission == hooks.DecisionAllow
		if o.UpdatedInput != nil {
			rewrite = o.UpdatedInput
		}
		for k, v := range o.Output {
			if k == "toolConfig" {
				continue
			}
			if res.Output == nil {
				res.Output = map[string]json.RawMessage{}
			}
			res.Output[k] = v
		}
	}
	reason := strings.Join(reasons, "\n")
	if denied {
		reason = blockReason(outs, reason)
	}
	switch ge.kind {
	case kindBeforeTool:
		switch {
		case denied:
			res.Decision = hooks.DecisionDeny
		case asked:
			res.Decision = hooks.DecisionAsk
		case allowed:
			res.Decision = hooks.DecisionAllow
		}
		if res.Decision != hooks.DecisionNone {
			res.Reason = reason
		}
		if !denied {
			res.UpdatedInput = rewrite
		}
	case kindAfterTool:
		if denied {
			res.Decision, res.Reason, res.Feedback = hooks.DecisionBlock, reason, reason
		}
	case kindAfterAgent:
		if denied {
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, reason, reason
		}
	case kindBeforeAgent, kindModel:
		if denied {
			res.Decision, res.Reason = hooks.DecisionBlock, reason
		}
	case kindToolSelection:
		if tc := unionToolConfig(outs); tc != nil {
			if res.Output == nil {
				res.Output = map[string]json.RawMessage{}
			}
			res.Output["toolConfig"] = tc
		}
	}
	if stopReason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue, res.StopReason = false, stopReason
	}
}

// noReason is Gemini CLI's text for a block that gives none.
const noReason = "No reason provided"

// blockReason is the text a block gives on the tool and agent events, as
// Gemini CLI words it from its merged answer: the stopReason of every hook
// that said continue: false, when any did (a stopReason without it is
// dropped in the merge), else every hook's reason, else "No reason
// provided".
func blockReason(outs []hooks.Outcome, reasons string) string {
	var stops []string
	for i := range outs {
		if outs[i].Stop && outs[i].StopReason != "" {
			stops = append(stops, outs[i].StopReason)
		}
	}
	switch {
	case len(stops) > 0:
		return strings.Join(stops, "\n")
	case reasons != "":
		return reasons
	}
	return noReason
}

// modeRank orders BeforeToolSelection modes: NONE over ANY over AUTO.
var modeRank = map[string]int{"AUTO": 1, "ANY": 2, "NONE": 3}

// unionToolConfig combines the toolConfig answers: the strongest mode, and
// every allowed function name any hook lists, in configuration order.
func unionToolConfig(outs []hooks.Outcome) json.RawMessage {
	mode, names, seen := "", []string{}, false
	for i := range outs {
		raw, ok := outs[i].Output["toolConfig"]
		if !ok {
			continue
		}
		seen = true
		tc := gjson.ParseBytes(raw)
		if m := tc.Get("mode").Str; modeRank[m] > modeRank[mode] {
			mode = m
		}
		tc.Get("allowedFunctionNames").ForEach(func(_, n gjson.Result) bool {
			if n.Type == gjson.String && !slices.Contains(names, n.Str) {
				names = append(names, n.Str)
			}
			return true
		})
	}
	if !seen {
		return nil
	}
	if mode == "NONE" {
		// No function may be called: Gemini CLI leaves the list empty.
		names = []string{}
	}
	out := map[string]any{"allowedFunctionNames": names}
	if mode != "" {
		out["mode"] = mode
	}
	b, _ := json.Marshal(out)
	return b
}
