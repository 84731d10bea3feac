package evaluate

import "testing"

func TestPrompt_ArgumentsAreTheCompactInput(t *testing.T) {
	in := []byte("{\n  \"tool_name\": \"Bash\",\n  \"tool_input\": {\"command\": \"a<b && c\"}\n}")
	got, err := Prompt("Check: $ARGUMENTS. Again: $ARGUMENTS", in)
	want := `Check: {"tool_name":"Bash","tool_input":{"command":"a<b && c"}}. Again: {"tool_name":"Bash","tool_input":{"command":"a<b && c"}}`
	if err != nil || got != want {
		t.Fatalf("Prompt = %q, %v\nwant %q", got, err, want)
	}
	got, _ = Prompt("Is this safe?", []byte(`{"a": 1}`))
	if got != "Is this safe?\n\nARGUMENTS: {\"a\":1}" {
		t.Fatalf("without $ARGUMENTS: %q", got)
	}
	if _, err := Prompt("x", []byte(`{`)); err == nil {
		t.Fatal("bad input: want an error")
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   Answer
		hasErr bool
	}{
		{`{"ok": true}`, Answer{OK: true}, false},
		{`{"ok": false, "reason": " no \n"}`, Answer{Reason: "no"}, false},
		{`{"reason": "x"}`, Answer{}, true},
		{`{"ok": "yes"}`, Answer{}, true},
		{`[]`, Answer{}, true},
		{``, Answer{}, true},
	} {
		got, err := ParseAnswer([]byte(tc.in))
		if (err != nil) != tc.hasErr || got != tc.want {
			t.Errorf("ParseAnswer(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

func TestBlockText_AsClaudeCodeWordsIt(t *testing.T) {
	if got := BlockText(KindPrompt, "Judge this call: $ARGUMENTS", "judge says no"); got != "[Judge this call: $ARGUMENTS]: judge says no" {
		t.Errorf("prompt: %q", got)
	}
	if got := BlockText(KindAgent, "Verify: $ARGUMENTS", "judge says no"); got != "Agent hook condition was not met: judge says no" {
		t.Errorf("agent: %q", got)
	}
}
