package hooks

import (
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// Sequential groups (Gemini CLI, Qwen Code): an additive seam on the run
// loop. A profile with a Chain rule runs an event's selected hooks one
// after another as soon as one of them comes from a group that says
// "sequential": true (the whole plan, not only that group, as both CLIs
// do), and hands each hook the input Chain made of the previous hook's
// input and outcome. The combined result is still read from every
// outcome as in a parallel run; only the hooks' stdin differs.

// serialRun reports whether the handlers of run go one after another: the
// profile is Serial, or it chains and one of them asked for it.
func (e *Engine) serialRun(run []*Hook) bool {
	if e.profile.Serial {
		return true
	}
	if e.profile.Chain == nil {
		return false
	}
	for _, h := range run {
		if h.Sequential {
			return true
		}
	}
	return false
}

// chainInput is the input of the handler after the one that gave o.
func (e *Engine) chainInput(ev *EventRules, stdin []byte, o Outcome) []byte {
	if e.profile.Chain == nil {
		return stdin
	}
	return e.profile.Chain(ev, stdin, o)
}

// MergeInputObject returns input with the object field's keys overwritten
// by those of obj, as a JavaScript spread ({...input[field], ...obj}) does.
// input is returned as it is when obj is not an object or input has no
// such field.
func MergeInputObject(input []byte, field string, obj gjson.Result) []byte {
	cur := gjson.GetBytes(input, field)
	if !obj.IsObject() || !cur.Exists() {
		return input
	}
	path := gjson.Escape(field)
	if !cur.IsObject() {
		out, err := sjson.SetRawBytes(input, path, []byte(obj.Raw))
		if err != nil {
			return input
		}
		return out
	}
	out := input
	obj.ForEach(func(k, v gjson.Result) bool {
		if next, err := sjson.SetRawBytes(out, path+"."+gjson.Escape(k.Str), []byte(v.Raw)); err == nil {
			out = next
		}
		return true
	})
	return out
}

// AppendInputText returns input with "\n\n" and text added to its string
// field; input is returned as it is when the field is not a string.
func AppendInputText(input []byte, field, text string) []byte {
	cur := gjson.GetBytes(input, field)
	if cur.Type != gjson.String {
		return input
	}
	out, err := sjson.SetBytes(input, gjson.Escape(field), cur.Str+"\n\n"+text)
	if err != nil {
		return input
	}
	return out
}
