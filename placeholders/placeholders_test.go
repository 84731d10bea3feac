package placeholders

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestExpand_CodexMCPRunnerVector(t *testing.T) {
	// engine/mcp_runner_tests.rs, reference/codex-hooks.md 5.
	tmpl := `{"path":"${tool_input.file_path}","message":"scan ${tool_input.file_path}","count":"${tool_input.count}","optional":"${tool_input.optional}","nested":["${tool_input.metadata}",{"literal":true}]}`
	input := `{"tool_input":{"file_path":"/tmp/example.rs","count":3,"optional":null,"metadata":{"language":"rust"}}}`
	got, err := Expand([]byte(tmpl), []byte(input))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"path":"/tmp/example.rs","message":"scan /tmp/example.rs","count":3,"optional":null,"nested":[{"language":"rust"},{"literal":true}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestExpand_MissingFieldIsCodexError(t *testing.T) {
	_, err := Expand([]byte(`{"a":"x ${tool_input.missing} y"}`), []byte(`{"tool_input":{}}`))
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != "hook input placeholder `${tool_input.missing}` was not found" {
		t.Fatalf("err = %v", err)
	}
}

func TestExpand_Table(t *testing.T) {
	input := `{
		"session_id": "s1", "prompt": "fix the <bug> & ship",
		"tool_input": {"command": "rm important.txt", "n": 1.50, "ok": true, "list": [1, "two", {"x": null}],
		               "obj": { "k" : "v" }, "empty": ""},
		"a.b": "dotted key", "a": {"b": "nested b"},
		"we*rd": "star", "q?": "question", "p|ipe": "pipe", "#": "hash", "@this": "at", "back\\slash": "bs",
		"arr": [{"k": "first"}], "with space": "spaced", "dup": 1, "dup": 2
	}`
	for _, tc := range []struct {
		name, tmpl, want, err string
	}{
		{"Codex deny vector", `{"command":"${tool_input.command}"}`, `{"command":"rm important.txt"}`, ""},
		{"prompt embedded raw", `{"q":"prompt: ${prompt}"}`, `{"q":"prompt: fix the <bug> & ship"}`, ""},
		{"whole number keeps type and text", `{"n":"${tool_input.n}"}`, `{"n":1.50}`, ""},
		{"whole bool", `{"b":"${tool_input.ok}"}`, `{"b":true}`, ""},
		{"whole array compacted", `{"l":"${tool_input.list}"}`, `{"l":[1,"two",{"x":null}]}`, ""},
		{"whole object compacted", `"${tool_input.obj}"`, `{"k":"v"}`, ""},
		{"whole empty string", `{"e":"${tool_input.empty}"}`, `{"e":""}`, ""},
		{"embedded object as compact JSON", `{"m":"obj=${tool_input.obj} n=${tool_input.n} x=${tool_input.list}"}`, `{"m":"obj={\"k\":\"v\"} n=1.50 x=[1,\"two\",{\"x\":null}]"}`, ""},
		{"two placeholders", `"${session_id}${session_id}"`, `"s1s1"`, ""},
		{"keys are not expanded", `{"${session_id}":"${session_id}"}`, `{"${session_id}":"s1"}`, ""},
		{"non-strings pass through", `{"n":1e3,"t":true,"z":null,"a":[[]]}`, `{"n":1e3,"t":true,"z":null,"a":[[]]}`, ""},
		{"empty placeholder is literal", `{"x":"${}"}`, `{"x":"${}"}`, ""},
		{"unclosed placeholder is literal", `{"x":"${session_id"}`, `{"x":"${session_id"}`, ""},
		{"brace inside is not a placeholder", `{"x":"${a{b}"}`, `{"x":"${a{b}"}`, ""},
		{"only the inner one counts", `{"x":"${x${session_id}"}`, `{"x":"${xs1"}`, ""},
		{"dot splits: nested wins over dotted key", `"${a.b}"`, `"nested b"`, ""},
		{"star is a literal key", `"${we*rd}"`, `"star"`, ""},
		{"star never wildcards", `"${tool_input.comm*}"`, "", "hook input placeholder `${tool_input.comm*}` was not found"},
		{"question mark is a literal key", `"${q?}"`, `"question"`, ""},
		{"question mark never wildcards", `"${session_i?}"`, "", "hook input placeholder `${session_i?}` was not found"},
		{"pipe is a literal key", `"${p|ipe}"`, `"pipe"`, ""},
		{"hash is a literal key", `"${#}"`, `"hash"`, ""},
		{"hash never counts", `"${arr.#}"`, "", "hook input placeholder `${arr.#}` was not found"},
		{"at is a literal key", `"${@this}"`, `"at"`, ""},
		{"modifier is not run", `"${@reverse}"`, "", "hook input placeholder `${@reverse}` was not found"},
		{"backslash is a literal key", `"${back\\slash}"`, `"bs"`, ""},
		{"array index is not an object key", `"${arr.0.k}"`, "", "hook input placeholder `${arr.0.k}` was not found"},
		{"path through a string", `"${prompt.x}"`, "", "hook input placeholder `${prompt.x}` was not found"},
		{"spaces are part of the key", `"${with space}"`, `"spaced"`, ""},
		{"leading space is not trimmed", `"${ session_id}"`, "", "hook input placeholder `${ session_id}` was not found"},
		{"empty key segment", `"${a.}"`, "", "hook input placeholder `${a.}` was not found"},
		{"last duplicate key wins", `"${dup}"`, `2`, ""},
		{"missing field anywhere fails all", `{"ok":"${session_id}","bad":["${nope}"]}`, "", "hook input placeholder `${nope}` was not found"},
		{"html is not escaped", `{"x":"<&>"}`, `{"x":"<&>"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand([]byte(tc.tmpl), []byte(input))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("got %s, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestExpand_InvalidJSONIsAnError(t *testing.T) {
	if _, err := Expand([]byte(`{"a":`), []byte(`{}`)); err == nil {
		t.Error("invalid template accepted")
	}
	if _, err := Expand([]byte(`{}`), []byte(`{`)); err == nil {
		t.Error("invalid input accepted")
	}
}

func TestExpand_NonObjectInputFindsNothing(t *testing.T) {
	if _, err := Expand([]byte(`"${a}"`), []byte(`["a"]`)); err == nil {
		t.Error("a placeholder resolved against an array")
	}
	if got, err := Expand([]byte(`"plain"`), []byte(`[]`)); err != nil || string(got) != `"plain"` {
		t.Errorf("no placeholders: %s, %v", got, err)
	}
}

func FuzzExpand(f *testing.F) {
	f.Add(`{"path":"${tool_input.file_path}","n":["${tool_input.count}",{"l":true}]}`, `{"tool_input":{"file_path":"/x","count":3}}`)
	f.Add(`"${a} and ${b.c}"`, `{"a":"\u0000\"","b":{"c":[1,{"d":null}]}}`)
	f.Add(`["${}","${","}","$${a}}"]`, `{"a":"x"}`)
	f.Add(`{"k":"${a.b.c}"}`, `{"a":{"b":{"c":"\ud800 lone surrogate"}}}`)
	f.Add("\"\xff${a}\"", "{\"a\":\"\xfe\"}")
	f.Fuzz(func(t *testing.T, tmpl, input string) {
		out, err := Expand([]byte(tmpl), []byte(input))
		if err != nil {
			var nf *NotFoundError
			if errors.As(err, &nf) || !json.Valid([]byte(tmpl)) || !json.Valid([]byte(input)) {
				return
			}
			t.Fatalf("unexpected error for valid JSON: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("output is not valid JSON: %q (template %q, input %q)", out, tmpl, input)
		}
	})
}
