package cline

import (
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
)

// Reading Cline's hook output (zl, yl and xl in @cline/core; the points
// marked measured in docs/profile-cline.md were checked with cline --json):
//
//   - the exit code is not looked at;
//   - stdout, trimmed: the last line that starts with "HOOK_CONTROL\t" is
//     the control JSON (the rest after the tab), else the whole stdout; an
//     empty stdout says nothing; JSON that does not parse, or a timeout,
//     drops the hook's output (Cline logs it);
//   - of the control object each field counts when it has its type (cancel
//     a boolean, the others strings): a cancel: true stops the whole task
//     with errorMessage (else context) as the reason; otherwise context
//     (else contextModification, else errorMessage), cut at 50000
//     characters, is context for the model; overrideInput replaces a
//     PreToolUse call's input;
//   - the files of an event are folded in order: any cancel cancels,
//     contexts and reasons are joined with newlines, the last overrideInput
//     wins.

type control struct {
	Cancel        bool            `json:"cancel,omitempty"`
	Context       string          `json:"context,omitempty"`
	CancelReason  string          `json:"cancelReason,omitempty"`
	OverrideInput json.RawMessage `json:"overrideInput,omitempty"`
}

const outKey = "\x00cline"

// contextLimit is where Cline cuts a hook's context.
const contextLimit = 50000

func (ce *event) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended || async || !ce.waits {
		return o
	}
	text := strings.TrimSpace(raw.Stdout)
	if text == "" {
		return o
	}
	ctl := ""
	for _, line := range strings.Split(text, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "HOOK_CONTROL\t") {
			ctl = l[len("HOOK_CONTROL\t"):]
		}
	}
	if ctl == "" {
		ctl = text
	}
	if !gjson.Valid(ctl) {
		o.Fail("hook returned invalid JSON control output; it is ignored")
		return o
	}
	c, ok := read(gjson.Parse(ctl))
	if !ok {
		return o
	}
	if c.Cancel {
		o.Stop, o.StopReason = true, c.CancelReason
		o.Status = hooks.StatusBlocked
	}
	b, _ := json.Marshal(c)
	o.Output = map[string]json.RawMessage{outKey: b}
	return o
}

// read is yl: each field is taken when it has its type (cancel a
// boolean; context, contextModification, errorMessage strings) and left
// out otherwise; there is no check of the object as a whole (measured: a
// string cancel does not keep the context from counting).
func read(v gjson.Result) (control, bool) {
	var c control
	if !v.IsObject() {
		return c, false
	}
	ctx := v.Get("context")
	if ctx.Type != gjson.String {
		ctx = v.Get("contextModification")
	}
	hasCtx := ctx.Type == gjson.String
	errMsg := v.Get("errorMessage")
	hasErr := errMsg.Type == gjson.String && strings.TrimSpace(errMsg.Str) != ""
	c.Cancel = v.Get("cancel").Type == gjson.True
	switch {
	case c.Cancel && hasErr:
		c.CancelReason = errMsg.Str
	case c.Cancel && hasCtx:
		c.CancelReason = ctx.Str
	case c.Cancel:
	case hasCtx:
		c.Context = truncate(ctx.Str)
	case hasErr:
		c.Context = truncate(errMsg.Str)
	}
	if oi := v.Get("overrideInput"); oi.Exists() {
		c.OverrideInput = json.RawMessage(oi.Raw)
	}
	return c, true
}

// truncate cuts at contextLimit UTF-16 units, as JavaScript counts them;
// hookd counts runes, which is the same for text without astral characters.
func truncate(s string) string {
	r := []rune(s)
	if len(r) <= contextLimit {
		return s
	}
	return string(r[:contextLimit]) + "\n[hook context truncated: exceeded 50000 characters]"
}

func (ce *event) combine(res *hooks.Result, outs []hooks.Outcome) {
	var contexts, reasons []string
	cancel := false
	var override json.RawMessage
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
		var c control
		if json.Unmarshal(b, &c) != nil {
			continue
		}
		if c.Context != "" {
			contexts = append(contexts, c.Context)
		}
		if c.CancelReason != "" {
			reasons = append(reasons, c.CancelReason)
		}
		cancel = cancel || c.Cancel
		if c.OverrideInput != nil {
			override = c.OverrideInput
		}
	}
	switch {
	case cancel:
		reason := strings.Join(reasons, "\n")
		if strings.TrimSpace(reason) == "" {
			reason = ""
		}
		res.Continue, res.StopReason = false, reason
		if ce.name == "PreToolUse" {
			res.Decision, res.Reason = hooks.DecisionDeny, reason
		}
	case strings.TrimSpace(strings.Join(contexts, "\n")) != "":
		// afterCombine wraps it as Cline does, with the tool call's name
		// and id from the input.
		res.AdditionalContext = append(res.AdditionalContext, hooks.ContextEntry{Text: strings.Join(contexts, "\n")})
	}
	if override != nil && ce.name == "PreToolUse" {
		res.UpdatedInput = override
	}
}

// afterCombine wraps the context in Cline's <hook_context> element: its
// source (the event), the tool's name and call id (with _ " < > escaped as
// __ _q_ _lt_ _gt_), the text trimmed, with any <hook_context or
// </hook_context inside escaped by a backslash.
func afterCombine(_ *hooks.State, ev *hooks.EventRules, input []byte, res *hooks.Result) {
	ce := eventOf(ev.Name)
	if ce == nil || len(res.AdditionalContext) == 0 || !ce.waits {
		return
	}
	call := gjson.GetBytes(input, ce.tool)
	for i, c := range res.AdditionalContext {
		res.AdditionalContext[i].Text = wrap(ev.Name, call.Get("name").Str, call.Get("id").Str, c.Text)
	}
}

// hookContextTag finds an opening or closing hook_context tag in a text.
var hookContextTag = lazyre.New(`(?i)<(/?)hook_context`)

var attrEscape = strings.NewReplacer("_", "__", `"`, "_q_", "<", "_lt_", ">", "_gt_")

func wrap(source, tool, id, text string) string {
	body := hookContextTag.ReplaceAllString(strings.TrimSpace(text), `<\${1}hook_context`)
	return `<hook_context source="` + source + `" tool_name="` + attrEscape.Replace(tool) + `" tool_call_id="` + attrEscape.Replace(id) + "\">\n" + body + "\n</hook_context>"
}

// prepareInput writes the fields Cline puts in every input when the host
// left them out: hookName (the runtime's name of the event), an ISO
// timestamp and workspaceRoots (the session's folder), in Cline's order.
func prepareInput(ev *hooks.EventRules, input []byte, s hooks.Session) []byte {
	ce := eventOf(ev.Name)
	in := gjson.ParseBytes(input)
	fill := map[string]string{}
	if ce != nil && ce.hookName != "" && !in.Get("hookName").Exists() {
		fill["hookName"] = string(gjson.AppendJSONString(nil, ce.hookName))
	}
	if !in.Get("timestamp").Exists() {
		fill["timestamp"] = string(gjson.AppendJSONString(nil, time.Now().UTC().Format("2006-01-02T15:04:05.000Z")))
	}
	if !in.Get("workspaceRoots").Exists() && s.Cwd != "" {
		b, _ := json.Marshal([]string{s.Cwd})
		fill["workspaceRoots"] = string(b)
	}
	if len(fill) == 0 {
		return input
	}
	out := []byte{'{'}
	add := func(k, raw string) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(gjson.AppendJSONString(out, k), ':'), raw...)
	}
	done := map[string]bool{}
	for _, k := range ev.InputFields {
		if v, ok := fill[k]; ok {
			add(k, v)
			done[k] = true
		} else if v := in.Get(gjson.Escape(k)); v.Exists() {
			add(k, v.Raw)
			done[k] = true
		}
	}
	in.ForEach(func(k, v gjson.Result) bool {
		if !done[k.Str] {
			add(k.Str, v.Raw)
		}
		return true
	})
	return append(out, '}')
}
