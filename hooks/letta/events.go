package letta

import (
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Letta Code's eleven events (src/hooks/index.ts), one row each: the input
// fields after event_type and working_directory, in the order Letta writes
// them, whether the handlers run one after another (stopping at the first
// exit 2) or at once, and what the result does.

type kind int

const (
	kindIgnored      kind = iota // Notification, SubagentStop, SessionEnd
	kindPreTool                  // PreToolUse: exit 2 denies
	kindPermission               // PermissionRequest: exit 2 denies, an exit 0 allows
	kindFeedback                 // PostToolUse, PostToolUseFailure: text after the tool's result
	kindPrompt                   // UserPromptSubmit: exit 2 blocks, stdout is context
	kindStop                     // Stop: exit 2 continues the turn
	kindCompact                  // PreCompact: exit 2 blocks the compaction
	kindSessionStart             // SessionStart: every stdout is context
)

type event struct {
	name, label string
	tool        bool
	serial      bool
	fields      []string
	kind        kind
}

var events = []event{
	{name: "PreToolUse", label: "pre_tool_use", tool: true, serial: true, fields: []string{"tool_name", "tool_input", "tool_call_id", "agent_id"}, kind: kindPreTool},
	{name: "PostToolUse", label: "post_tool_use", tool: true, fields: []string{"tool_name", "tool_input", "tool_call_id", "tool_result", "agent_id", "preceding_reasoning", "preceding_assistant_message"}, kind: kindFeedback},
	{name: "PostToolUseFailure", label: "post_tool_use_failure", tool: true, fields: []string{"tool_name", "tool_input", "tool_call_id", "error_message", "error_type", "agent_id", "preceding_reasoning", "preceding_assistant_message"}, kind: kindFeedback},
	{name: "PermissionRequest", label: "permission_request", tool: true, serial: true, fields: []string{"tool_name", "tool_input", "agent_id", "permission", "session_permissions"}, kind: kindPermission},
	{name: "UserPromptSubmit", label: "user_prompt_submit", serial: true, fields: []string{"prompt", "is_command", "agent_id", "conversation_id"}, kind: kindPrompt},
	{name: "Notification", label: "notification", fields: []string{"message", "level"}},
	{name: "Stop", label: "stop", serial: true, fields: []string{"stop_reason", "message_count", "tool_call_count", "preceding_reasoning", "assistant_message", "user_message"}, kind: kindStop},
	{name: "SubagentStop", label: "subagent_stop", serial: true, fields: []string{"subagent_type", "subagent_id", "success", "error", "agent_id", "conversation_id"}},
	{name: "PreCompact", label: "pre_compact", fields: []string{"context_length", "max_context_length", "agent_id", "conversation_id"}, kind: kindCompact},
	{name: "SessionStart", label: "session_start", serial: true, fields: []string{"is_new_session", "agent_id", "agent_name", "conversation_id"}, kind: kindSessionStart},
	{name: "SessionEnd", label: "session_end", fields: []string{"duration_ms", "message_count", "tool_call_count", "agent_id", "conversation_id"}},
}

// defaultTimeout is 60000 ms.
const defaultTimeout = 60

func eventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(events))
	for i := range events {
		le := &events[i]
		ev := &hooks.EventRules{
			Name:           le.name,
			Label:          le.label,
			ToolEvent:      le.tool,
			InputFields:    append([]string{"event_type", "working_directory"}, le.fields...),
			Blocking:       le.kind == kindPreTool || le.kind == kindPermission || le.kind == kindPrompt || le.kind == kindStop || le.kind == kindCompact,
			DefaultTimeout: defaultTimeout,
			Parse:          le.parse,
			Combine:        le.combine,
		}
		if le.tool {
			ev.MatchField = "tool_name"
		}
		if le.name == "SessionEnd" {
			ev.EndsSession = true
		}
		if le.kind == kindPrompt {
			ev.Precondition = notACommand
		}
		out = append(out, ev)
	}
	return out
}

// notACommand skips UserPromptSubmit for a slash command: Letta runs no
// hooks for one (is_command: true).
func notACommand(input []byte) (string, error) {
	if gjson.GetBytes(input, "is_command").Type == gjson.True {
		return "command", nil
	}
	return "", nil
}
