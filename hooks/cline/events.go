package cline

import "github.com/hookd/hookd/hooks"

// Cline's hook files and the runtime events they serve (ZV in @cline/core),
// with the fields after the common ones, in the order Cline writes them.

type event struct {
	name string
	// hookName is the runtime's name, the input's hookName.
	hookName string
	fields   []string
	// waits: Cline runs the files one after another and reads their
	// output (PreToolUse, PostToolUse). The others are started detached
	// and never read.
	waits bool
	// tool names the input object that holds the tool call's name and id.
	tool string
}

var events = []event{
	{name: "TaskStart", hookName: "agent_start", fields: []string{"taskStart"}},
	{name: "TaskResume", hookName: "agent_resume", fields: []string{"taskResume"}},
	{name: "TaskCancel", hookName: "agent_abort", fields: []string{"reason", "taskCancel"}},
	{name: "TaskComplete", hookName: "agent_end", fields: []string{"iteration", "turn", "taskComplete"}},
	{name: "TaskError", hookName: "agent_error", fields: []string{"iteration", "error", "taskCancel"}},
	{name: "PreToolUse", hookName: "tool_call", fields: []string{"iteration", "tool_call", "preToolUse"}, waits: true, tool: "tool_call"},
	{name: "PostToolUse", hookName: "tool_result", fields: []string{"iteration", "tool_result", "postToolUse"}, waits: true, tool: "tool_result"},
	{name: "UserPromptSubmit", hookName: "prompt_submit", fields: []string{"userPromptSubmit"}},
	// PreCompact has a file name but no runtime event: Cline 3.0 never
	// runs it (discovery says so).
	{name: "PreCompact", fields: []string{"preCompact"}},
	{name: "SessionShutdown", hookName: "session_shutdown", fields: []string{"reason"}},
}

// common are the fields every input starts with (r0).
var common = []string{"clineVersion", "timestamp", "taskId", "sessionContext", "workspaceRoots", "workspaceInfo", "userId", "agent_id", "parent_agent_id", "hookName"}

// defaultTimeout is the runtime's toolCallTimeoutMs default, 120000 ms.
const defaultTimeout = 120

func eventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(events))
	for i := range events {
		ce := &events[i]
		ev := &hooks.EventRules{
			Name:           ce.name,
			Label:          label(ce.name),
			InputFields:    append(append([]string(nil), common...), ce.fields...),
			Blocking:       ce.waits,
			DefaultTimeout: defaultTimeout,
			Parse:          ce.parse,
			Combine:        ce.combine,
		}
		if ce.name == "SessionShutdown" {
			ev.EndsSession = true
		}
		out = append(out, ev)
	}
	return out
}

func eventOf(name string) *event {
	for i := range events {
		if events[i].name == name {
			return &events[i]
		}
	}
	return nil
}

// label is the snake_case of a PascalCase name.
func label(name string) string {
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b = append(b, '_')
			}
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}
