package hooks

import "testing"

func TestInsertFieldAfter_KeepsOrderAndBytes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"x <&>"}`,
			`{"session_id":"s","hook_event_name":"BeforeTool","ts":"T","tool_name":"x <&>"}`},
		{`{"a": 1,  "b" : [1, 2]}`, `{"a":1,"b":[1, 2],"ts":"T"}`},
		{`{}`, `{"ts":"T"}`},
	} {
		if got := string(InsertFieldAfter([]byte(c.in), "hook_event_name", "ts", []byte(`"T"`))); got != c.want {
			t.Errorf("InsertFieldAfter(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
