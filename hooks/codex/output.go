package codex

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Reading a finished handler happens in two layers, as in Codex's
// output_parser: this file classifies the process result (failure, exit code,
// blank/plain/JSON stdout) the same way for every event, and each event file
// supplies an outputRules value with what differs: its wording, what
// plain text means, what exit 2 means and how its JSON output is read. The
// process failures every host shares are the engine's (hooks.ProcessFailure).

// plainRule says what an event does with exit-0 stdout that is not a JSON object.
type plainRule int

const (
	// plainIgnored drops the text (tool events, compact).
	plainIgnored plainRule = iota
	// plainContext makes the trimmed text additionalContext (SessionStart,
	// SubagentStart, UserPromptSubmit).
	plainContext
	// plainInvalid fails sync handlers: Stop and SubagentStop must print JSON
	// on exit 0, since their plain text would otherwise be silently lost.
	// Async handlers have no effect anyway, so their text is ignored.
	plainInvalid
)

// msgLifecycleNoCode is the failure of a compact or SessionEnd handler
// whose process ended without an exit code.
const msgLifecycleNoCode = "hook process terminated without an exit code"

// outputRules is the part of reading a handler's result that differs between
// events. readOutput applies it.
type outputRules struct {
	// invalidJSON is the failure for stdout that looks like JSON but does not
	// fit the event's output ("hook returned invalid pre-tool-use JSON output").
	invalidJSON string
	plain       plainRule
	// exit2 records a blocking exit 2 (sync handlers only) given the trimmed,
	// non-empty stderr. Nil means exit 2 is an ordinary failure.
	exit2 func(o *hooks.Outcome, stderr string)
	// exit2Missing is the failure for a blocking exit 2 with blank stderr.
	exit2Missing string
	// lifecycle marks compact and SessionEnd, which Codex reports with other
	// words: stderr instead of the exit code, "process terminated" for signals.
	lifecycle bool
	// ignoreStdout is SessionEnd: its output is informational only.
	ignoreStdout bool
	// json reads stdout that is a JSON object. It returns false, leaving o
	// untouched, when the object does not fit the event's wire struct (unknown
	// key, wrong type), which fails the handler with invalidJSON. async is
	// passed because an async handler keeps its context even when its output
	// breaks an event rule.
	json func(o *hooks.Outcome, data []byte, async bool) bool
}

// msgTurnInterrupted is the error of a handler cancelled with its turn.
const msgTurnInterrupted = "Hook cancelled because the turn was interrupted"

// readOutput turns a finished handler's raw result into its Outcome by the
// classification of reference/codex-hooks.md 2.6. Hook and Finished are the
// engine's to fill.
func (r *outputRules) readOutput(raw hooks.RawResult, async bool) hooks.Outcome {
	noCode := hooks.MsgNoStatus
	if r.lifecycle {
		noCode = msgLifecycleNoCode
	}
	o, ended := hooks.ProcessFailure(raw, noCode)
	if ended {
		if o.Status == hooks.StatusCancelled && !r.ignoreStdout {
			// A handler is cancelled when its turn is: the host
			// interrupted it (Codex 0.171's wording). SessionEnd's are
			// cancelled by its time budget.
			o.Error = msgTurnInterrupted
		}
		return o
	}

	switch code := *raw.ExitCode; {
	case code == 0:
		if !r.ignoreStdout {
			r.readStdout(&o, raw.Stdout, async)
		}
	case code == 2 && r.exit2 != nil && !async:
		if reason := strings.TrimSpace(raw.Stderr); reason != "" {
			r.exit2(&o, reason)
		} else {
			o.Fail(r.exit2Missing)
		}
	default:
		if msg := strings.TrimSpace(raw.Stderr); r.lifecycle && msg != "" {
			o.Fail(msg)
		} else {
			o.Fail(fmt.Sprintf("hook exited with code %d", code))
		}
	}
	if async {
		o.DropControl()
	}
	return o
}

// readStdout reads exit-0 stdout: blank is no effect; a JSON object that fits
// the event is read by its rules; anything starting with { or [ otherwise is
// invalid and never downgraded to text (a half-written JSON reply must not
// become model context); the rest, JSON scalars included, is plain text.
func (r *outputRules) readStdout(o *hooks.Outcome, stdout string, async bool) {
	text := strings.TrimSpace(stdout)
	if text == "" {
		return
	}
	data := []byte(text)
	if text[0] == '{' && json.Valid(data) && r.json(o, data, async) {
		return
	}
	if text[0] == '{' || text[0] == '[' {
		o.Fail(r.invalidJSON)
		return
	}
	switch r.plain {
	case plainContext:
		o.Contexts = append(o.Contexts, text)
	case plainInvalid:
		if !async {
			o.Fail(r.invalidJSON)
		}
	}
}

// wireEventNames are the values hookSpecificOutput.hookEventName may take.
// SessionEnd has no hook-specific output, so it is not among them.
var wireEventNames = map[string]bool{
	"PreToolUse": true, "PermissionRequest": true, "PostToolUse": true,
	"PreCompact": true, "PostCompact": true, "SessionStart": true,
	"UserPromptSubmit": true, "SubagentStart": true, "SubagentStop": true, "Stop": true,
}

// validEventName checks hookSpecificOutput.hookEventName: required, and one of
// the wire names. Like Codex, it is not compared with the running event.
func validEventName(name *string) bool {
	return name != nil && wireEventNames[*name]
}

// universalWire holds the fields every output object may carry, merged at its
// top level. The bools are raw so that null is rejected as Codex rejects it
// (only its string fields are optional).
type universalWire struct {
	Continue       json.RawMessage `json:"continue"`
	StopReason     *string         `json:"stopReason"`
	SuppressOutput json.RawMessage `json:"suppressOutput"`
	SystemMessage  *string         `json:"systemMessage"`
}

// universal is universalWire with defaults applied.
type universal struct {
	cont           bool
	stopReason     *string
	suppressOutput bool
	systemMessage  *string
}

// read applies the defaults (continue true, suppressOutput false); ok is
// false when a bool field holds anything but true or false.
func (u *universalWire) read() (v universal, ok bool) {
	v.stopReason, v.systemMessage = u.StopReason, u.SystemMessage
	if v.cont, ok = wireBool(u.Continue, true); !ok {
		return v, false
	}
	v.suppressOutput, ok = wireBool(u.SuppressOutput, false)
	return v, ok
}

// applySystemMessage records the user-visible warning. Codex keeps it even
// when the rest of the output breaks an event rule, so the user still sees
// what the hook said.
func (u universal) applySystemMessage(o *hooks.Outcome) {
	if u.systemMessage != nil {
		o.SystemMessage = *u.systemMessage
	}
}

// wireBool reads an optional JSON bool: absent gives def; null or another
// type is invalid.
func wireBool(raw json.RawMessage, def bool) (v, ok bool) {
	switch string(bytes.TrimSpace(raw)) {
	case "":
		return def, true
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// present reports whether an optional any-typed field was given: absent and
// null both mean "not given", as for an Option in Codex.
func present(raw json.RawMessage) bool {
	s := bytes.TrimSpace(raw)
	return len(s) > 0 && string(s) != "null"
}

// wireStruct is an event's output wire struct; valid checks what the JSON
// decoder cannot: required fields, enum values, strict bools.
type wireStruct interface {
	valid() bool
}

// decodeOutput decodes a JSON object into an event's wire struct as strictly
// as Codex does (serde with deny_unknown_fields): unknown or duplicate keys at
// any level, keys in another letter case, wrong types, missing required
// fields and unknown enum values all make the output invalid.
func decodeOutput[T any, P interface {
	*T
	wireStruct
}](data []byte) (P, bool) {
	w := P(new(T))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(w); err != nil {
		return nil, false
	}
	// The decoder matches keys without regard to case and keeps the last of
	// duplicate keys; Codex accepts neither, so check the keys exactly.
	if !exactKeys(gjson.ParseBytes(data), reflect.TypeOf(w).Elem()) || !w.valid() {
		return nil, false
	}
	return w, true
}

// exactKeys reports whether every key of obj names a field of struct type t
// exactly (embedded structs are merged into t, as the decoder merges them)
// and appears once, recursing into object values of struct-typed fields.
func exactKeys(obj gjson.Result, t reflect.Type) bool {
	if !obj.IsObject() {
		return true
	}
	fields := map[string]reflect.Type{}
	collectFields(t, fields)
	seen := map[string]bool{}
	ok := true
	obj.ForEach(func(k, v gjson.Result) bool {
		ft, known := fields[k.String()]
		if !known || seen[k.String()] {
			ok = false
			return false
		}
		seen[k.String()] = true
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && !exactKeys(v, ft) {
			ok = false
		}
		return ok
	})
	return ok
}

// collectFields maps the JSON names of t's fields to their types.
func collectFields(t reflect.Type, fields map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			collectFields(f.Type, fields)
			continue
		}
		if name != "" && name != "-" {
			fields[name] = f.Type
		}
	}
}
