package droid

import "github.com/hookd/hookd/hooks"

// Droid's nine events (the og list of its plugin loader), one row each:
// what the matcher tests and the input fields after the common ones, in
// the order Droid writes them (measured on droid exec where it runs them,
// read from the binary otherwise).

type kind int

const (
	kindAdvisory     kind = iota // Notification, SubagentStop, SessionEnd: nothing is read
	kindPreTool                  // PreToolUse
	kindPostTool                 // PostToolUse
	kindPrompt                   // UserPromptSubmit
	kindStop                     // Stop
	kindCompact                  // PreCompact: exit 2 or 3 skips the compaction
	kindSessionStart             // SessionStart: context
)

type event struct {
	name, label, match string
	tool               bool
	fields             []string
	kind               kind
}

var events = []event{
	{name: "PreToolUse", label: "pre_tool_use", match: "tool_name", tool: true, fields: []string{"tool_name", "tool_input"}, kind: kindPreTool},
	{name: "PostToolUse", label: "post_tool_use", match: "tool_name", tool: true, fields: []string{"tool_name", "tool_input", "tool_response"}, kind: kindPostTool},
	{name: "Notification", label: "notification", fields: []string{"message_id", "message", "notification_type"}},
	{name: "UserPromptSubmit", label: "user_prompt_submit", fields: []string{"message_id", "prompt", "has_images"}, kind: kindPrompt},
	{name: "Stop", label: "stop", fields: []string{"message_id", "stop_hook_active", "tool_execution_count", "elapsed_time"}, kind: kindStop},
	{name: "SubagentStop", label: "subagent_stop", fields: []string{"task_name", "task_result", "task_error", "stop_hook_active"}},
	{name: "PreCompact", label: "pre_compact", fields: []string{"trigger", "custom_instructions", "message_count", "estimated_tokens", "message_id"}, kind: kindCompact},
	{name: "SessionStart", label: "session_start", match: "source", fields: []string{"source", "previous_session_id", "calling_session_id", "message_id", "CLAUDE_ENV_FILE"}, kind: kindSessionStart},
	{name: "SessionEnd", label: "session_end", fields: []string{"message_id", "reason", "session_duration_ms", "message_count"}},
}

// defaultTimeout is a handler's timeout in seconds when it sets none.
const defaultTimeout = 60

func eventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(events))
	for i := range events {
		de := &events[i]
		ev := &hooks.EventRules{
			Name:           de.name,
			Label:          de.label,
			MatchField:     de.match,
			ToolEvent:      de.tool,
			InputFields:    append([]string{"session_id", "transcript_path", "cwd", "permission_mode", "hook_event_name"}, de.fields...),
			Blocking:       de.kind == kindPreTool || de.kind == kindPrompt || de.kind == kindStop || de.kind == kindCompact,
			DefaultTimeout: defaultTimeout,
			Parse:          parse,
			Combine:        de.combine,
		}
		if de.name == "SessionEnd" {
			ev.EndsSession = true
		}
		out = append(out, ev)
	}
	return out
}
