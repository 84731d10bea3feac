package hooks

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestMergeInputObject_SpreadsKeysOverTheField(t *testing.T) {
	cases := []struct {
		name, input, obj, want string
	}{
		{"merge", `{"tool_input":{"a":1,"b":2}}`, `{"b":3,"c":4}`, `{"tool_input":{"a":1,"b":3,"c":4}}`},
		{"dotted key", `{"tool_input":{"a.b":1}}`, `{"a.b":2}`, `{"tool_input":{"a.b":2}}`},
		{"field not an object", `{"tool_input":null}`, `{"a":1}`, `{"tool_input":{"a":1}}`},
		{"no field", `{"x":1}`, `{"a":1}`, `{"x":1}`},
		{"not an object", `{"tool_input":{"a":1}}`, `"text"`, `{"tool_input":{"a":1}}`},
	}
	for _, c := range cases {
		got := string(MergeInputObject([]byte(c.input), "tool_input", gjson.Parse(c.obj)))
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestAppendInputText_AddsABlankLineAndTheText(t *testing.T) {
	if got := string(AppendInputText([]byte(`{"prompt":"hi"}`), "prompt", "ctx")); got != `{"prompt":"hi\n\nctx"}` {
		t.Errorf("got %s", got)
	}
	if got := string(AppendInputText([]byte(`{"prompt":""}`), "prompt", "ctx")); got != `{"prompt":"\n\nctx"}` {
		t.Errorf("empty prompt: got %s", got)
	}
	if got := string(AppendInputText([]byte(`{"prompt":1}`), "prompt", "ctx")); got != `{"prompt":1}` {
		t.Errorf("not a string: got %s", got)
	}
}
