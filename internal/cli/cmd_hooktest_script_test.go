package cli

import (
	"strings"
	"testing"
)

func TestEventInput_PositionalArgumentsFillTheEventsMainFields(t *testing.T) {
	cases := []struct {
		event string
		args  []string
		sets  []string
		want  string
	}{
		{"PreToolUse", []string{"Bash", "rm -rf /"}, nil, `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"call_1"}`},
		{"PreToolUse", []string{"Read", `{"file_path":"/etc/passwd"}`}, nil, `{"tool_name":"Read","tool_input":{"file_path":"/etc/passwd"},"tool_use_id":"call_1"}`},
		{"PreToolUse", []string{"Bash"}, nil, `{"tool_name":"Bash","tool_input":{},"tool_use_id":"call_1"}`},
		// A command that happens to be valid JSON is still a command.
		{"PreToolUse", []string{"Bash", "42"}, nil, `{"tool_name":"Bash","tool_input":{"command":"42"},"tool_use_id":"call_1"}`},
		{"PermissionRequest", []string{"Bash", "git push"}, nil, `{"tool_name":"Bash","tool_input":{"command":"git push"}}`},
		{"PostToolUse", []string{"Bash", "ls", `{"exit_code":0}`}, nil, `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"exit_code":0},"tool_use_id":"call_1"}`},
		{"PostToolUse", []string{"Bash", "ls", "a.txt"}, nil, `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"a.txt","tool_use_id":"call_1"}`},
		{"UserPromptSubmit", []string{`{"not": "json"}`}, nil, `{"prompt":"{\"not\": \"json\"}"}`},
		{"SessionStart", nil, nil, `{"source":"startup"}`},
		{"SessionStart", []string{"compact"}, nil, `{"source":"compact"}`},
		{"SessionEnd", nil, nil, `{"reason":"other"}`},
		{"PreCompact", []string{"auto"}, nil, `{"trigger":"auto"}`},
		{"Stop", []string{"Done."}, []string{"stop_hook_active=true"}, `{"last_assistant_message":"Done.","stop_hook_active":true}`},
		{"SubagentStop", []string{"explorer"}, nil, `{"agent_type":"explorer"}`},
		// -set: JSON when it parses, text otherwise; paths reach inside; it wins over arguments and defaults.
		{"PreToolUse", []string{"Bash", "ls"}, []string{"tool_input.timeout=30", "tool_use_id=call_9", "model=gpt 5"},
			`{"tool_name":"Bash","tool_input":{"command":"ls","timeout":30},"tool_use_id":"call_9","model":"gpt 5"}`},
		{"SessionStart", nil, []string{"source=resume"}, `{"source":"resume"}`},
	}
	for _, tc := range cases {
		got, err := eventInput(tc.event, tc.args, tc.sets)
		if err != nil {
			t.Errorf("event %s %q %q: %v", tc.event, tc.args, tc.sets, err)
			continue
		}
		if string(got) != tc.want {
			t.Errorf("event %s %q %q:\n got %s\nwant %s", tc.event, tc.args, tc.sets, got, tc.want)
		}
	}
}

func TestEventInput_MistakesAreExplained(t *testing.T) {
	cases := []struct {
		event string
		args  []string
		sets  []string
		want  string
	}{
		{"PretoolUse", nil, nil, `unknown event "PretoolUse" (did you mean "PreToolUse"?) (known: `},
		{"Stop", []string{"a", "b"}, nil, "Stop takes at most 1 arguments (last_assistant_message); set other fields with -set PATH=VALUE"},
		{"Stop", nil, []string{"stop_hook_active"}, `-set "stop_hook_active": want PATH=VALUE`},
		{"Stop", nil, []string{"=1"}, `-set "=1": want PATH=VALUE`},
	}
	for _, tc := range cases {
		_, err := eventInput(tc.event, tc.args, tc.sets)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("event %s %q %q: error %v, want one containing %q", tc.event, tc.args, tc.sets, err, tc.want)
		}
	}
}
