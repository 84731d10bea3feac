package claude

import (
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
)

// Reading a Claude Code hook's result (reference/claude-hooks.md A.6,
// takeaway 3). Unlike codex, the reading is lenient, as real plugins need:
//
//   - stdout is JSON when its first non-blank character is '{' and it parses;
//     anything else, invalid JSON included, is plain text, never a failure;
//   - JSON is read on every exit code. Exit 2 blocks a blockable event
//     whatever the JSON says (the reason of a JSON block, else stderr); any
//     other non-zero code is a non-blocking error, but a valid JSON reply
//     still takes effect;
//   - unknown fields anywhere are ignored; a known field of the wrong type,
//     an unknown enum value or a hookSpecificOutput for another event fails
//     the handler (non-blocking) and nothing of its reply takes effect;
//   - plain stdout on exit 0 is context on the events whose row says so and
//     is ignored elsewhere (Stop too).

// claudeReply is a hook's JSON reply with its fields type-checked.
type claudeReply struct {
	cont          bool
	stopReason    *string
	systemMessage *string
	// decision is the top-level "approve" or "block"; reason goes with it.
	decision, reason *string
	// hookSpecificOutput fields.
	permissionDecision, permissionDecisionReason *string
	updatedInput                                 json.RawMessage
	additionalContext                            *string
	approval                                     *claudeApproval
	output                                       map[string]json.RawMessage
}

// claudeApproval is PermissionRequest's hookSpecificOutput.decision.
type claudeApproval struct {
	behavior           string
	updatedInput       json.RawMessage
	updatedPermissions json.RawMessage
	message            *string
	interrupt          bool
}

// claudeFields reads typed fields of one JSON object; the first type error
// is kept and names the field by its path.
type claudeFields struct {
	obj  gjson.Result
	path string
	err  string
}

func (f *claudeFields) get(name string) (gjson.Result, bool) {
	v := f.obj.Get(gjson.Escape(name))
	return v, v.Exists() && v.Type != gjson.Null
}

func (f *claudeFields) bad(name, want string) {
	if f.err == "" {
		f.err = fmt.Sprintf("%s%s must be %s", f.path, name, want)
	}
}

func (f *claudeFields) str(name string) *string {
	v, ok := f.get(name)
	if !ok {
		return nil
	}
	if v.Type != gjson.String {
		f.bad(name, "a string")
		return nil
	}
	s := v.Str
	return &s
}

func (f *claudeFields) boolean(name string, def bool) bool {
	v, ok := f.get(name)
	if !ok {
		return def
	}
	if v.Type != gjson.True && v.Type != gjson.False {
		f.bad(name, "true or false")
		return def
	}
	return v.Bool()
}

// oneOf reads an optional string that must be one of values.
func (f *claudeFields) oneOf(name string, values ...string) *string {
	s := f.str(name)
	if s != nil && !slices.Contains(values, *s) {
		f.bad(name, "one of "+strings.Join(values, ", "))
		return nil
	}
	return s
}

// typed reads a field of the given kind as raw JSON.
func (f *claudeFields) typed(name string, kind claudeField) (json.RawMessage, bool) {
	v, ok := f.get(name)
	if !ok {
		return nil, false
	}
	good := true
	switch kind {
	case fieldString:
		good = v.Type == gjson.String
	case fieldBool:
		good = v.Type == gjson.True || v.Type == gjson.False
	case fieldObject:
		good = v.IsObject()
	case fieldStrings:
		good = v.IsArray()
		v.ForEach(func(_, x gjson.Result) bool {
			good = good && x.Type == gjson.String
			return good
		})
	case fieldAction:
		good = v.Type == gjson.String && (v.Str == "accept" || v.Str == "decline" || v.Str == "cancel")
	}
	if !good {
		f.bad(name, map[claudeField]string{fieldString: "a string", fieldBool: "true or false", fieldObject: "an object",
			fieldStrings: "an array of strings", fieldAction: "one of accept, decline, cancel"}[kind])
		return nil, false
	}
	return json.RawMessage(v.Raw), true
}

// readReply type-checks a JSON reply for the event. It returns the reason
// the reply is unusable, or "".
func (ce *claudeEvent) readReply(obj gjson.Result) (*claudeReply, string) {
	top := &claudeFields{obj: obj}
	r := &claudeReply{}
	r.cont = top.boolean("continue", true)
	r.stopReason = top.str("stopReason")
	top.boolean("suppressOutput", false)
	r.systemMessage = top.str("systemMessage")
	r.decision = top.oneOf("decision", "approve", "block")
	r.reason = top.str("reason")
	if v, ok := top.typed("terminalSequence", fieldString); ok {
		r.setOutput("terminalSequence", v)
	}
	if top.err != "" {
		return nil, top.err
	}
	if ce.block == blockContinue && r.decision != nil && *r.decision == "block" && hooks.NonBlank(r.reason) == "" {
		// The reason is the next instruction; without one there is nothing
		// to continue with.
		return nil, "decision:block needs a non-empty reason"
	}
	hso, ok := top.get("hookSpecificOutput")
	if !ok {
		return r, ""
	}
	if !hso.IsObject() {
		return nil, "hookSpecificOutput must be an object"
	}
	spec := &claudeFields{obj: hso, path: "hookSpecificOutput."}
	switch name := spec.str("hookEventName"); {
	case spec.err != "":
		return nil, spec.err
	case name == nil:
		return nil, "hookSpecificOutput.hookEventName is missing"
	case *name != ce.name:
		return nil, fmt.Sprintf("hookSpecificOutput.hookEventName is %q, not %q", *name, ce.name)
	}
	if ce.context {
		r.additionalContext = spec.str("additionalContext")
	}
	switch ce.block {
	case blockPermission, blockSkillShell:
		r.permissionDecision = spec.oneOf("permissionDecision", "allow", "deny", "ask", "defer")
		r.permissionDecisionReason = spec.str("permissionDecisionReason")
		if v, ok := spec.typed("updatedInput", fieldObject); ok {
			r.updatedInput = v
		}
	case blockApproval:
		if d, ok := spec.get("decision"); ok {
			r.approval = readApproval(d, spec)
		}
	}
	for name, kind := range ce.pass {
		if v, ok := spec.typed(name, kind); ok {
			r.setOutput(name, v)
		}
	}
	if spec.err != "" {
		return nil, spec.err
	}
	return r, ""
}

// readApproval reads PermissionRequest's decision object.
func readApproval(d gjson.Result, spec *claudeFields) *claudeApproval {
	if !d.IsObject() {
		spec.bad("decision", "an object")
		return nil
	}
	f := &claudeFields{obj: d, path: "hookSpecificOutput.decision."}
	a := &claudeApproval{}
	switch b := f.oneOf("behavior", "allow", "deny"); {
	case b != nil:
		a.behavior = *b
	case f.err == "":
		f.bad("behavior", "allow or deny")
	}
	a.updatedInput, _ = f.typed("updatedInput", fieldObject)
	a.updatedPermissions, _ = f.typed("updatedPermissions", fieldAny)
	if v, ok := f.get("updatedPermissions"); ok && !v.IsArray() {
		f.bad("updatedPermissions", "an array")
	}
	a.message = f.str("message")
	a.interrupt = f.boolean("interrupt", false)
	if f.err != "" {
		spec.err = f.err
		return nil
	}
	return a
}

func (r *claudeReply) setOutput(name string, v json.RawMessage) {
	if r.output == nil {
		r.output = map[string]json.RawMessage{}
	}
	r.output[name] = v
}

// reasonText is the reply's own reason for a block: the permission reason on
// PreToolUse, the decision reason elsewhere, else "".
func (r *claudeReply) reasonText() string {
	if r == nil {
		return ""
	}
	if s := hooks.NonBlank(r.permissionDecisionReason); s != "" {
		return s
	}
	return hooks.NonBlank(r.reason)
}

// parse is the Parse rule of every claude event.
func (ce *claudeEvent) parse(raw hooks.RawResult, async bool) hooks.Outcome {
	o, ended := hooks.ProcessFailure(raw, hooks.MsgNoStatus)
	if ended {
		if o.Status == hooks.StatusCancelled && ce.name == "SessionEnd" {
			o.Error += " (SessionEnd hooks share a time budget, and it was spent)"
		}
		return o
	}
	code := *raw.ExitCode
	text := strings.TrimSpace(raw.Stdout)
	var reply *claudeReply
	invalid := ""
	if strings.HasPrefix(text, "{") && gjson.Valid(text) {
		reply, invalid = ce.readReply(gjson.Parse(text))
	}
	if ce.name == "SessionEnd" {
		// Nothing is left to control: SessionEnd output is informational.
		reply, invalid = nil, ""
	}
	var blocks bool
	switch ce.block {
	case blockNever, blockApproval:
	case blockExit:
		blocks = code != 0 && !async
	default:
		blocks = code == 2 && !async
	}
	switch {
	case invalid != "" && !blocks:
		o.Fail(fmt.Sprintf("hook returned invalid %s JSON output: %s", ce.name, invalid))
		return o
	case reply != nil:
		ce.apply(&o, reply)
	case code == 0 && ce.plain && text != "":
		o.Contexts = append(o.Contexts, text)
	case code == 0 && ce.block == blockExit:
		// WorktreeCreate prints the new worktree's path as its last line.
		if line := lastLine(text); line != "" {
			o.Output = map[string]json.RawMessage{"worktreePath": mustJSON(line)}
		}
	}
	switch {
	case blocks:
		// The reply's own reason when it blocks too, else stderr.
		reason := ""
		if o.Block {
			reason = reply.reasonText()
		}
		if reason == "" {
			// The stderr; combine labels it with the command
			// (labelExit2), as Claude Code words an exit 2.
			reason = exit2Text(raw)
		}
		ce.blockWith(&o, reason)
	case code != 0:
		msg := fmt.Sprintf("hook exited with code %d", code)
		if line := firstLine(raw.Stderr); line != "" {
			msg += ": " + line
		}
		if o.Block {
			// A valid JSON reply decided although the exit code is an error.
			o.Error = msg
		} else {
			o.Fail(msg)
		}
	}
	if async {
		o.DropControl()
		o.Output = nil
	}
	return o
}

// apply records what a usable reply asks for.
func (ce *claudeEvent) apply(o *hooks.Outcome, r *claudeReply) {
	if r.systemMessage != nil {
		o.SystemMessage = *r.systemMessage
	}
	o.AddContext(r.additionalContext)
	for k, v := range r.output {
		if o.Output == nil {
			o.Output = map[string]json.RawMessage{}
		}
		o.Output[k] = v
	}
	if !r.cont {
		hooks.StopWith(o, r.stopReason, "")
	}
	switch ce.block {
	case blockPermission:
		decision := ""
		switch {
		case r.permissionDecision != nil:
			decision = *r.permissionDecision
		case r.decision != nil && *r.decision == "approve":
			decision = hooks.DecisionAllow
		case r.decision != nil && *r.decision == "block":
			decision = hooks.DecisionDeny
		}
		o.UpdatedInput = r.updatedInput
		o.Permission = decision
		o.Reason = r.reasonText()
		if decision == hooks.DecisionDeny {
			ce.blockWith(o, o.Reason)
		}
	case blockApproval:
		a := r.approval
		if a == nil {
			return
		}
		o.Permission = a.behavior
		if a.behavior == hooks.DecisionAllow {
			o.UpdatedInput = a.updatedInput
			if a.updatedPermissions != nil {
				o.Output = withOutput(o.Output, "updatedPermissions", a.updatedPermissions)
			}
			return
		}
		o.Block, o.Status = true, hooks.StatusBlocked
		o.Reason = hooks.NonBlank(a.message)
		if a.interrupt {
			o.Output = withOutput(o.Output, "interrupt", json.RawMessage("true"))
		}
	case blockSkillShell:
		applySkillShell(ce, o, r)
	case blockDecision, blockFeedback, blockContinue:
		if r.decision != nil && *r.decision == "block" {
			ce.blockWith(o, hooks.NonBlank(r.reason))
		}
	}
}

// Why PreSkillShellCommand kept a command from running, in Claude Code's
// words (2.1.332).
const (
	skillShellCannotWait = "the hook asked for approval, which a skill can't wait for"
	skillShellChanged    = "the hook changed the command, which isn't supported here"
	skillShellNoJudge    = "prompt and agent hooks don't run on PreSkillShellCommand"
)

// applySkillShell is PreSkillShellCommand's reading of a reply: deny blocks
// with its reason; ask and defer block too (a skill cannot wait for an
// answer); an updatedInput is never applied and blocks; a top-level
// decision "block" blocks; allow adds nothing.
func applySkillShell(ce *claudeEvent, o *hooks.Outcome, r *claudeReply) {
	reason := r.reasonText()
	block := r.decision != nil && *r.decision == "block"
	switch {
	case r.permissionDecision != nil && *r.permissionDecision == hooks.DecisionDeny:
		ce.blockWith(o, reason)
	case r.permissionDecision != nil && (*r.permissionDecision == hooks.DecisionAsk || *r.permissionDecision == hooks.DecisionDefer):
		if reason != "" {
			reason += "; "
		}
		ce.blockWith(o, reason+skillShellCannotWait)
	case block:
		ce.blockWith(o, hooks.NonBlank(r.reason))
	case r.updatedInput != nil:
		ce.blockWith(o, skillShellChanged)
	}
}

// blockWith records a block with its reason, "Blocked by hook" when empty
// (Claude Code's words, on every event).
func (ce *claudeEvent) blockWith(o *hooks.Outcome, reason string) {
	if reason == "" {
		reason = "Blocked by hook"
	}
	o.Status, o.Block, o.Reason = hooks.StatusBlocked, true, reason
	switch ce.block {
	case blockPermission:
		o.Permission = hooks.DecisionDeny
	case blockFeedback:
		o.Feedback = reason
	}
}

func withOutput(m map[string]json.RawMessage, k string, v json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	m[k] = v
	return m
}

func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// claudeRank orders PreToolUse permission decisions: deny > defer > ask >
// allow.
var claudeRank = map[string]int{hooks.DecisionAllow: 1, hooks.DecisionAsk: 2, hooks.DecisionDefer: 3, hooks.DecisionDeny: 4}

// combine is the Combine rule of every claude event. Contexts and messages
// are kept in configuration order; the event's decision follows its row;
// a continue:false from any handler beats every decision.
func (ce *claudeEvent) combine(res *hooks.Result, outs []hooks.Outcome) {
	var reasons []string
	for i := range outs {
		o := &outs[i]
		labelExit2(o)
		ce.onFailureBlock(o)
		if o.Block && o.Reason != "" && ce.block != blockPermission {
			o.Reason = hookText(ce.name, o.Reason)
		}
		if o.Block && o.Reason != "" {
			reasons = append(reasons, o.Reason)
		}
	}
	// Claude Code hands the model context (and the user messages) in the
	// order the hooks finished, not the order they are configured in
	// (measured on 2.1.328); block reasons keep configuration order.
	byFinish := make([]*hooks.Outcome, len(outs))
	for i := range outs {
		byFinish[i] = &outs[i]
	}
	slices.SortStableFunc(byFinish, func(a, b *hooks.Outcome) int { return a.Finished - b.Finished })
	for _, o := range byFinish {
		hooks.AddMessages(res, o)
	}
	joined := strings.Join(reasons, "\n\n")
	blocked := len(reasons) > 0
	switch ce.block {
	case blockPermission:
		combineClaudePermission(res, outs)
	case blockApproval:
		combineClaudeApproval(res, outs)
	case blockFeedback:
		if blocked {
			res.Decision, res.Feedback = hooks.DecisionBlock, joined
		}
	case blockContinue:
		// additionalContext on Stop is feedback that keeps the turn going.
		if blocked || len(res.AdditionalContext) > 0 {
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, joined, joined
		}
	case blockDecision, blockExit, blockSkillShell:
		if blocked {
			res.Decision, res.Reason = hooks.DecisionBlock, joined
		}
	}
	res.Output = mergeClaudeOutput(res.Output, outs)
	if reason, stopped := hooks.FirstStopReason(outs); stopped {
		res.Continue, res.StopReason = false, reason
		// A prompt or agent hook's ok:false on PreToolUse both denies the
		// tool and ends the turn (evaluate.go): the deny stays.
		if !judgeEndsTurn(outs) {
			res.Decision, res.Reason, res.Feedback, res.Continuation = hooks.DecisionNone, "", "", ""
			res.UpdatedInput, res.Permission = nil, nil
			// A stopped prompt leaves the model a note (hooktext.go).
			res.Reason = stoppedText(ce.name, reason)
		}
	}
}

// judgeEndsTurn reports whether a prompt or agent hook blocked and stopped.
func judgeEndsTurn(outs []hooks.Outcome) bool {
	for i := range outs {
		o := &outs[i]
		if o.Stop && o.Block && o.Hook != nil && (o.Hook.Handler.Type == evaluate.KindPrompt || o.Hook.Handler.Type == evaluate.KindAgent) {
			return true
		}
	}
	return false
}

// combineClaudePermission is PreToolUse: the highest decision wins (deny >
// defer > ask > allow), with the reasons of the handlers that gave it; the
// updatedInput of the handler that finished last is used unless the call is
// denied.
func combineClaudePermission(res *hooks.Result, outs []hooks.Outcome) {
	best := ""
	var rewrite *hooks.Outcome
	for i := range outs {
		o := &outs[i]
		if claudeRank[o.Permission] > claudeRank[best] {
			best = o.Permission
		}
		if o.UpdatedInput != nil && (rewrite == nil || o.Finished >= rewrite.Finished) {
			rewrite = o
		}
	}
	if best == "" {
		best = hooks.DecisionNone
	}
	var reasons []string
	for i := range outs {
		if outs[i].Permission == best && outs[i].Reason != "" {
			reasons = append(reasons, outs[i].Reason)
		}
	}
	res.Decision, res.Reason = best, strings.Join(reasons, "\n\n")
	if best != hooks.DecisionDeny && rewrite != nil {
		res.UpdatedInput = rewrite.UpdatedInput
	}
}

// claudePermissionDenied is the deny message when no PermissionRequest hook
// gives one.
const claudePermissionDenied = "PermissionRequest hook denied approval"

// combineClaudeApproval is PermissionRequest: any deny wins, with the first
// deny message; else any allow allows, with the updatedInput of the allowing
// handler that finished last.
func combineClaudeApproval(res *hooks.Result, outs []hooks.Outcome) {
	var deny, allow *hooks.Outcome
	for i := range outs {
		o := &outs[i]
		switch o.Permission {
		case hooks.DecisionDeny:
			if deny == nil || deny.Reason == "" && o.Reason != "" {
				deny = o
			}
		case hooks.DecisionAllow:
			if allow == nil || o.Finished >= allow.Finished {
				allow = o
			}
		}
	}
	switch {
	case deny != nil:
		msg := deny.Reason
		if msg == "" {
			msg = claudePermissionDenied
		}
		res.Decision, res.Reason = hooks.DecisionDeny, msg
		res.Permission = &hooks.Permission{Behavior: hooks.DecisionDeny, Message: msg}
	case allow != nil:
		res.Decision = hooks.DecisionAllow
		res.Permission = &hooks.Permission{Behavior: hooks.DecisionAllow}
		res.UpdatedInput = allow.UpdatedInput
	}
}

// mergeClaudeOutput folds the handlers' pass-through fields: for each field
// the handler that finished last wins, as for updatedInput (Claude Code
// applies replies as they arrive); watchPaths lists add up, in configuration
// order, without repeats.
func mergeClaudeOutput(out map[string]json.RawMessage, outs []hooks.Outcome) map[string]json.RawMessage {
	finished := map[string]int{}
	var watch []string
	for i := range outs {
		o := &outs[i]
		for k, v := range o.Output {
			if k == "watchPaths" {
				var paths []string
				if json.Unmarshal(v, &paths) == nil {
					for _, p := range paths {
						if !slices.Contains(watch, p) {
							watch = append(watch, p)
						}
					}
				}
				continue
			}
			if at, seen := finished[k]; !seen || o.Finished >= at {
				out = withOutput(out, k, v)
				finished[k] = o.Finished
			}
		}
	}
	if watch != nil {
		b, _ := json.Marshal(watch)
		out = withOutput(out, "watchPaths", b)
	}
	return out
}

// onFailureBlock turns the failure of a handler with onFailure: "block"
// (could not start, timed out, exited other than 0 or 2, printed invalid
// JSON) into a block, on events that can block, worded as Claude Code
// 2.1.328 words it.
func (ce *claudeEvent) onFailureBlock(o *hooks.Outcome) {
	if o.Hook == nil || !o.Hook.Handler.FailClosed || o.Block || ce.block == blockNever || ce.block == blockApproval {
		return
	}
	if o.Status != hooks.StatusFailed && o.Status != hooks.StatusTimedOut {
		return
	}
	what := writtenCommand(o.Hook)
	if what == "" {
		what = gjson.GetBytes(o.Hook.Handler.Config, "url").Str
	}
	how, why := "failed", `blocking because onFailure is "block"`
	if o.Hook.Handler.Type == hooks.TypeMCPTool {
		why = `blocking because onFailure is "block" and the hook got no usable answer from its MCP server. ` +
			"The user needs to fix the cause (in a session, /mcp shows the server's state) or ask whoever manages the hook; " +
			"Claude should not change the hook or work around it."
	}
	detail := strings.TrimSpace(o.Raw.Stderr)
	switch {
	case o.Status == hooks.StatusTimedOut:
		how, detail = "timed out", ""
	case o.Hook.Handler.Type == hooks.TypeMCPTool:
		// What an MCP server wrote is left out.
		detail = ""
	case detail == "":
		detail = claudeNoStderr
	}
	reason := fmt.Sprintf("[%s]: %s; %s", what, how, why)
	if detail != "" {
		reason += "\n" + detail
	}
	ce.blockWith(o, reason)
}

// claudeNoStderr stands for an empty stderr in a block reason.
const claudeNoStderr = "No stderr output"

// exit2Text is the text of an exit 2 without a reason of its own: its
// stderr, or claudeNoStderr.
func exit2Text(raw hooks.RawResult) string {
	if s := strings.TrimSpace(raw.Stderr); s != "" {
		return s
	}
	return claudeNoStderr
}

// labelExit2 words a command hook's exit 2 block as Claude Code gives it to
// the model: "[<command>]: <stderr>" (the deny reason, PostToolUse
// feedback, a block's reason, the Stop continuation; measured on 2.1.332).
func labelExit2(o *hooks.Outcome) {
	if !o.Block || o.Hook == nil || o.Hook.Handler.Type != hooks.TypeCommand || o.Raw.ExitCode == nil || *o.Raw.ExitCode != 2 {
		return
	}
	text := exit2Text(o.Raw)
	if o.Reason != text {
		return // the reply's own reason
	}
	o.Reason = "[" + writtenCommand(o.Hook) + "]: " + text
	if o.Feedback == text {
		o.Feedback = o.Reason
	}
}

// writtenCommand is a hook's command as its settings wrote it (before
// "shell" or "args" changed how hookd runs it), which Claude Code names it
// by in what it tells the model.
func writtenCommand(h *hooks.Hook) string {
	if h.Handler.WrittenCommand != "" {
		return h.Handler.WrittenCommand
	}
	return h.Handler.Command
}
