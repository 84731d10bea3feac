// Package placeholders expands ${field.path} templates over a JSON document,
// the way Codex expands an mcp_tool hook's input over the hook's own input
// (reference/codex-hooks.md 4).
//
// A template is any JSON value. Only string values are expanded, recursively
// through objects and arrays; keys are left as written. In a string, a
// placeholder is "${" followed by one or more characters other than "{" and
// "}", then "}". Its path splits on "." into object keys, each matched
// literally: "a.0" never indexes an array, and "*", "?", "|", "#", "@" or "\"
// in a key are just characters, so a template cannot turn into a query.
//
// A string that is exactly one placeholder becomes the field's value with its
// JSON type (string, number, bool, object, array or null). Placeholders inside
// a longer string are rendered: strings raw, everything else as compact JSON.
// A missing field is an error naming the placeholder. There is no escape:
// "${}" (nothing inside) and an unclosed "${" stay as they are.
package placeholders

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/internal/lazyre"
)

// pattern is Codex's placeholder: "${", one or more characters other than
// braces, "}".
var pattern = lazyre.New(`\$\{[^{}]+\}`)

// NotFoundError reports a placeholder whose field is not in the input.
type NotFoundError struct {
	// Placeholder is the placeholder as written, "${tool_input.x}".
	Placeholder string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("hook input placeholder `%s` was not found", e.Placeholder)
}

// Expand returns template with its placeholders replaced by fields of input.
// Both must be valid JSON; input is normally an object. The result is compact
// valid JSON. A missing field gives a *NotFoundError and no result.
func Expand(template, input []byte) ([]byte, error) {
	if !json.Valid(template) {
		return nil, errors.New("template is not valid JSON")
	}
	if !json.Valid(input) {
		return nil, errors.New("input is not valid JSON")
	}
	x := expander{input: gjson.ParseBytes(input)}
	var out bytes.Buffer
	out.Grow(len(template))
	if err := x.value(&out, gjson.ParseBytes(template)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

type expander struct {
	input gjson.Result
}

// value writes v with its strings expanded.
func (x *expander) value(out *bytes.Buffer, v gjson.Result) error {
	switch {
	case v.IsObject():
		out.WriteByte('{')
		first := true
		var err error
		v.ForEach(func(k, item gjson.Result) bool {
			if !first {
				out.WriteByte(',')
			}
			first = false
			writeString(out, k.Str)
			out.WriteByte(':')
			err = x.value(out, item)
			return err == nil
		})
		out.WriteByte('}')
		return err
	case v.IsArray():
		out.WriteByte('[')
		first := true
		var err error
		v.ForEach(func(_, item gjson.Result) bool {
			if !first {
				out.WriteByte(',')
			}
			first = false
			err = x.value(out, item)
			return err == nil
		})
		out.WriteByte(']')
		return err
	case v.Type == gjson.String:
		return x.str(out, v.Str)
	default:
		return compact(out, v.Raw)
	}
}

// str writes one expanded string value.
func (x *expander) str(out *bytes.Buffer, s string) error {
	spans := pattern.FindAllStringIndex(s, -1)
	if len(spans) == 0 {
		writeString(out, s)
		return nil
	}
	if len(spans) == 1 && spans[0][0] == 0 && spans[0][1] == len(s) {
		v, err := x.lookup(s)
		if err != nil {
			return err
		}
		return compact(out, v.Raw)
	}
	var sb strings.Builder
	last := 0
	for _, sp := range spans {
		sb.WriteString(s[last:sp[0]])
		v, err := x.lookup(s[sp[0]:sp[1]])
		if err != nil {
			return err
		}
		if v.Type == gjson.String {
			sb.WriteString(v.Str)
		} else {
			var b bytes.Buffer
			if err := compact(&b, v.Raw); err != nil {
				return err
			}
			sb.Write(b.Bytes())
		}
		last = sp[1]
	}
	sb.WriteString(s[last:])
	writeString(out, sb.String())
	return nil
}

// lookup resolves one placeholder ("${a.b}") by object keys only. When an
// object repeats a key the last one counts, as in a decoded JSON map.
func (x *expander) lookup(placeholder string) (gjson.Result, error) {
	path := placeholder[2 : len(placeholder)-1]
	cur := x.input
	for _, key := range strings.Split(path, ".") {
		if !cur.IsObject() {
			return gjson.Result{}, &NotFoundError{Placeholder: placeholder}
		}
		var next gjson.Result
		found := false
		cur.ForEach(func(k, v gjson.Result) bool {
			if k.Str == key {
				next, found = v, true
			}
			return true
		})
		if !found {
			return gjson.Result{}, &NotFoundError{Placeholder: placeholder}
		}
		cur = next
	}
	return cur, nil
}

// writeString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD, so
// the output stays valid JSON whatever the input held.
func writeString(out *bytes.Buffer, s string) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	out.Truncate(out.Len() - 1) // Encode ends with a newline
}

// compact writes a raw JSON value without insignificant whitespace.
func compact(out *bytes.Buffer, raw string) error {
	if err := json.Compact(out, []byte(raw)); err != nil {
		return fmt.Errorf("expand template: %w", err)
	}
	return nil
}
