package qwen

import "github.com/hookd/hookd/hooks"

// Qwen Code's 22 events (reference/other-hosts.md 3.2; hookEventHandler.ts),
// one row each: what the matcher tests, the input fields after the common
// ones in the order Qwen Code writes them, and what an answer can do.

// qwenKind is what a block does on an event.
type qwenKind int

const (
	// kindAdvisory: nothing is controlled (Notification, SessionEnd, ...).
	kindAdvisory qwenKind = iota
	// kindPermission: PreToolUse. deny, ask or allow; no input rewrite.
	kindPermission
	// kindApproval: PermissionRequest's decision object.
	kindApproval
	// kindFeedback: the tool ran; a block is feedback (PostToolUse,
	// PostToolUseFailure).
	kindFeedback
	// kindBlock: the operation is blocked (PostToolBatch, the prompt events,
	// the Todo events).
	kindBlock
	// kindContinue: the reason continues the turn (Stop, SubagentStop).
	kindContinue
)

type qwenEvent struct {
	name, label string
	// match is the input field the matcher tests ("" = none); tool marks
	// tool events (their matchers also try the tool's aliases).
	match  string
	tool   bool
	mode   bool
	fields []string
	kind   qwenKind
	// plain: text on exit 0 is additionalContext, else a system message.
	plain bool
}

var qwenEvents = []qwenEvent{
	{name: "PreToolUse", label: "pre_tool_use", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id", "tool_call_id"}, kind: kindPermission},
	{name: "PostToolUse", label: "post_tool_use", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_response", "tool_use_id", "tool_call_id", "duration_ms"}, kind: kindFeedback},
	{name: "PostToolUseFailure", label: "post_tool_use_failure", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_use_id", "tool_name", "tool_input", "error", "is_interrupt", "tool_call_id", "duration_ms"}, kind: kindFeedback},
	{name: "PostToolBatch", label: "post_tool_batch", mode: true, fields: []string{"tool_calls"}, kind: kindBlock},
	{name: "Notification", label: "notification", match: "notification_type", fields: []string{"message", "title", "notification_type"}},
	{name: "UserPromptSubmit", label: "user_prompt_submit", mode: true, fields: []string{"prompt", "submitted_prompt"}, kind: kindBlock, plain: true},
	{name: "UserPromptExpansion", label: "user_prompt_expansion", match: "command_name", mode: true,
		fields: []string{"command_name", "command_args", "prompt"}, kind: kindBlock, plain: true},
	{name: "SessionStart", label: "session_start", match: "source", mode: true, fields: []string{"source", "model", "agent_type"}, plain: true},
	{name: "Stop", label: "stop", mode: true,
		fields: []string{"stop_hook_active", "last_assistant_message", "background_tasks", "crons"}, kind: kindContinue},
	{name: "MessageDisplay", label: "message_display", fields: []string{"message_id", "displayed_text", "is_final"}},
	{name: "SubagentStart", label: "subagent_start", match: "agent_type", mode: true, fields: []string{"agent_id", "agent_type"}},
	{name: "SubagentStop", label: "subagent_stop", match: "agent_type", mode: true,
		fields: []string{"stop_hook_active", "agent_id", "agent_type", "agent_transcript_path", "last_assistant_message"}, kind: kindContinue},
	{name: "PreCompact", label: "pre_compact", match: "trigger", fields: []string{"trigger", "custom_instructions"}},
	{name: "PostCompact", label: "post_compact", match: "trigger", fields: []string{"trigger", "compact_summary"}},
	{name: "SessionEnd", label: "session_end", match: "reason", fields: []string{"reason"}},
	{name: "SessionDelete", label: "session_delete", fields: []string{"deleted_session_id"}},
	{name: "PermissionRequest", label: "permission_request", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "permission_suggestions"}, kind: kindApproval},
	{name: "PermissionDenied", label: "permission_denied", match: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id", "reason", "tool_call_id"}},
	{name: "StopFailure", label: "stop_failure", match: "error", fields: []string{"error", "error_details", "last_assistant_message"}},
	{name: "TodoCreated", label: "todo_created", fields: []string{"todo_id", "todo_content", "todo_status", "all_todos"}, kind: kindBlock},
	{name: "TodoCompleted", label: "todo_completed", fields: []string{"todo_id", "todo_content", "previous_status", "all_todos"}, kind: kindBlock},
	{name: "InstructionsLoaded", label: "instructions_loaded", match: "file_path",
		fields: []string{"file_path", "memory_type", "load_reason", "trigger_file_path", "parent_file_path"}},
}

// Default timeouts in seconds, by handler type.
const (
	commandTimeout = 60
	httpTimeout    = 600
	promptTimeout  = 30
)

func qwenEventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(qwenEvents))
	for i := range qwenEvents {
		qe := &qwenEvents[i]
		common := []string{"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"}
		if qe.mode {
			common = append(common, "permission_mode")
		}
		// Written when the host has them (a subagent's id, the prompt's).
		common = append(common, "agent_id", "prompt_id")
		ev := &hooks.EventRules{
			Name:           qe.name,
			Label:          qe.label,
			MatchField:     qe.match,
			ToolEvent:      qe.tool,
			InputFields:    append(common, qe.fields...),
			Blocking:       qe.kind != kindAdvisory && qe.kind != kindApproval,
			DefaultTimeout: commandTimeout,
			Parse:          qe.parse,
			Combine:        qe.combine,
		}
		if qe.name == "SessionEnd" {
			ev.EndsSession = true
		}
		out = append(out, ev)
	}
	return out
}
