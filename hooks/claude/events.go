package claude

import (
	"time"

	"github.com/hookd/hookd/hooks"
)

// Claude Code's 34 events (reference/claude-hooks.md A.2, v2.1.240, the
// two model-switch events of 2.1.328 and PreSkillShellCommand of 2.1.332),
// one row
// each: what the matcher looks at, the input fields, what exit code 2 and
// decision:"block" do, whether plain stdout and additionalContext become
// context, which hookSpecificOutput fields are handed to the host in
// Result.Output, and the default timeout. The rows are read by the one
// output reader in output.go; what differs between events is
// data here.

// claudeBlock is what a block (exit code 2, or decision:"block") does on an
// event.
type claudeBlock int

const (
	// blockNever: exit 2 is a non-blocking error like any other code, and
	// decision:"block" is ignored (Notification, SessionStart, ...).
	blockNever claudeBlock = iota
	// blockDecision: the result is decision "block" with the reasons
	// (UserPromptSubmit erases the prompt, PreCompact stops compaction, ...).
	blockDecision
	// blockFeedback: the tool already ran; the reasons are feedback for the
	// model (PostToolUse, PostToolUseFailure).
	blockFeedback
	// blockContinue: the agent keeps going; the reasons form the
	// continuation prompt (Stop, SubagentStop). A JSON block needs a reason.
	blockContinue
	// blockPermission: PreToolUse's permission decision (deny on exit 2).
	blockPermission
	// blockApproval: PermissionRequest decides only through its JSON
	// decision.behavior; exit 2 is a non-blocking error.
	blockApproval
	// blockExit: any non-zero exit fails the operation (WorktreeCreate).
	blockExit
	// blockSkillShell: PreSkillShellCommand, before a skill's inline shell
	// command runs. Read like PreToolUse, but a skill cannot wait: deny, ask
	// and defer all block, any updatedInput blocks, and the result is a
	// decision "block" (exit 2 blocks, other codes let the command run).
	blockSkillShell
)

// claudeField is the JSON type a passed-through field must have.
type claudeField int

const (
	fieldAny claudeField = iota
	fieldString
	fieldBool
	fieldObject
	fieldStrings // an array of strings
	fieldAction  // "accept", "decline" or "cancel"
)

// claudeEvent is one event's row.
type claudeEvent struct {
	name, label string
	// match is the input field the matcher tests ("" = no matcher: one
	// written anyway is ignored); tool marks the tool events.
	match string
	tool  bool
	// mode adds permission_mode to the input; fields are the event's own
	// input fields, in the order Claude Code writes them.
	mode   bool
	fields []string
	block  claudeBlock
	// plain: plain stdout on exit 0 is context; context: the
	// hookSpecificOutput.additionalContext is read.
	plain, context bool
	// pass lists the hookSpecificOutput fields handed to the host in
	// Result.Output, with their types.
	pass map[string]claudeField
	// timeout is the default handler timeout in seconds (0: 600).
	timeout int
	// matcher replaces the profile's matcher dialect for this event.
	matcher func(string) (hooks.Matcher, error)
}

// claudeEvents lists the events in Claude Code's documentation order, which
// is also the order their hooks are listed in.
var claudeEvents = []claudeEvent{
	{name: "SessionStart", label: "session_start", match: "source", fields: []string{"source", "model", "agent_type"},
		plain: true, context: true,
		pass: map[string]claudeField{"initialUserMessage": fieldString, "sessionTitle": fieldString, "watchPaths": fieldStrings, "reloadSkills": fieldBool}},
	{name: "Setup", label: "setup", match: "trigger", fields: []string{"trigger"}, context: true},
	{name: "UserPromptSubmit", label: "user_prompt_submit", mode: true, fields: []string{"prompt"},
		block: blockDecision, plain: true, context: true, timeout: 30,
		pass: map[string]claudeField{"sessionTitle": fieldString, "suppressOriginalPrompt": fieldBool}},
	{name: "UserPromptExpansion", label: "user_prompt_expansion", match: "command_name", mode: true,
		fields: []string{"command_name", "command_args", "prompt"}, block: blockDecision, plain: true, context: true},
	{name: "PreToolUse", label: "pre_tool_use", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id"}, block: blockPermission, context: true},
	{name: "PermissionRequest", label: "permission_request", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "permission_suggestions"}, block: blockApproval},
	{name: "PermissionDenied", label: "permission_denied", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id", "reason"},
		pass:   map[string]claudeField{"retry": fieldBool}},
	{name: "PostToolUse", label: "post_tool_use", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_response", "tool_use_id", "duration_ms"}, block: blockFeedback, context: true,
		pass: map[string]claudeField{"updatedToolOutput": fieldAny, "updatedMCPToolOutput": fieldAny, "classifierContext": fieldString}},
	{name: "PostToolUseFailure", label: "post_tool_use_failure", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id", "error", "is_interrupt", "duration_ms"}, block: blockFeedback, context: true},
	{name: "PostToolBatch", label: "post_tool_batch", mode: true, fields: []string{"tool_calls"}, block: blockDecision, context: true},
	{name: "Notification", label: "notification", match: "notification_type", fields: []string{"message", "title", "notification_type"}},
	{name: "MessageDisplay", label: "message_display", fields: []string{"message"}, timeout: 10,
		pass: map[string]claudeField{"displayContent": fieldString}},
	// No permission_mode: Claude Code does not send one (measured).
	{name: "SubagentStart", label: "subagent_start", match: "agent_type", fields: []string{"agent_id", "agent_type"}, context: true},
	{name: "SubagentStop", label: "subagent_stop", match: "agent_type", mode: true,
		fields: []string{"stop_hook_active", "agent_id", "agent_type", "agent_transcript_path", "last_assistant_message"},
		block:  blockContinue, context: true},
	{name: "TaskCreated", label: "task_created", mode: true, fields: []string{"task_id", "task_subject", "task_description"}, block: blockDecision},
	{name: "TaskCompleted", label: "task_completed", mode: true, fields: []string{"task_id", "task_subject", "task_description"}, block: blockDecision},
	{name: "Stop", label: "stop", mode: true,
		fields: []string{"stop_hook_active", "last_assistant_message", "background_tasks", "session_crons"},
		block:  blockContinue, context: true},
	{name: "StopFailure", label: "stop_failure", match: "error", fields: []string{"error", "error_details", "last_assistant_message"},
		matcher: claudeStrictMatcher},
	{name: "TeammateIdle", label: "teammate_idle", mode: true, fields: []string{"teammate_name", "team_name"}, block: blockDecision},
	{name: "InstructionsLoaded", label: "instructions_loaded", match: "load_reason", fields: []string{"file_path", "memory_type", "load_reason"}},
	{name: "ConfigChange", label: "config_change", match: "source", fields: []string{"source", "file_path"}, block: blockDecision},
	{name: "CwdChanged", label: "cwd_changed", fields: []string{"old_cwd", "new_cwd"},
		pass: map[string]claudeField{"watchPaths": fieldStrings}},
	{name: "DirectoryAdded", label: "directory_added", match: "source", fields: []string{"source", "path"}},
	{name: "FileChanged", label: "file_changed", match: "file_path", fields: []string{"file_path", "event"},
		matcher: claudeFileMatcher, pass: map[string]claudeField{"watchPaths": fieldStrings}},
	{name: "WorktreeCreate", label: "worktree_create", fields: []string{"name"}, block: blockExit,
		pass: map[string]claudeField{"worktreePath": fieldString}},
	{name: "WorktreeRemove", label: "worktree_remove", fields: []string{"worktree_path"}},
	{name: "PreCompact", label: "pre_compact", match: "trigger", fields: []string{"trigger", "custom_instructions"}, block: blockDecision},
	{name: "PostCompact", label: "post_compact", match: "trigger", fields: []string{"trigger", "compact_summary"}},
	// A model switch: matched on to_model; PreModelSwitch decides like
	// PreToolUse (deny cancels the switch), PostModelSwitch adds context for
	// the new model's next request (Claude Code 2.1.328's hook schema).
	{name: "PreModelSwitch", label: "pre_model_switch", match: "to_model", fields: modelSwitchFields, block: blockPermission},
	{name: "PostModelSwitch", label: "post_model_switch", match: "to_model", fields: modelSwitchFields, context: true},
	{name: "Elicitation", label: "elicitation", match: "mcp_server_name", mode: true,
		fields: []string{"mcp_server_name", "message", "mode", "url", "elicitation_id", "requested_schema"}, block: blockDecision,
		pass: map[string]claudeField{"action": fieldAction, "content": fieldObject}},
	{name: "ElicitationResult", label: "elicitation_result", match: "mcp_server_name", mode: true,
		fields: []string{"mcp_server_name", "action", "content", "mode", "elicitation_id"}, block: blockDecision,
		pass: map[string]claudeField{"action": fieldAction, "content": fieldObject}},
	{name: "SessionEnd", label: "session_end", match: "reason", fields: []string{"reason"}},
	// Before a skill's (or command's) inline shell command runs: tool_name
	// is the shell tool (Bash or PowerShell), which the matcher sees
	// (Claude Code 2.1.332).
	{name: "PreSkillShellCommand", label: "pre_skill_shell_command", match: "tool_name", tool: true, mode: true,
		fields: []string{"tool_name", "tool_input", "tool_use_id", "command_name", "command_source", "invoked_by"}, block: blockSkillShell},
}

// modelSwitchFields are the input fields of PreModelSwitch and
// PostModelSwitch.
var modelSwitchFields = []string{"from_model", "to_model", "requested_model", "source", "context_tokens",
	"prompt_cache_warm", "cache_ttl", "estimated_cache_write_usd", "pricing"}

// claudeSessionEndBudget is what all SessionEnd hooks share, unless settings
// raise it (claudeSessionEndBudgetFor).
const claudeSessionEndBudget = 1500 * time.Millisecond

// claudeEventRules builds the profile's EventRules from the table.
func claudeEventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(claudeEvents))
	for i := range claudeEvents {
		ce := &claudeEvents[i]
		common := []string{"session_id", "transcript_path", "cwd"}
		if ce.mode {
			common = append(common, "permission_mode")
		}
		// Claude Code's common fields end with agent_id and agent_type,
		// before hook_event_name, on the subagent events too (measured).
		var fields []string
		for _, f := range ce.fields {
			if f == "agent_id" || f == "agent_type" {
				common = append(common, f)
			} else {
				fields = append(fields, f)
			}
		}
		ev := &hooks.EventRules{
			Name:           ce.name,
			Label:          ce.label,
			MatchField:     ce.match,
			ToolEvent:      ce.tool,
			InputFields:    append(append(common, "hook_event_name"), fields...),
			Blocking:       ce.block != blockNever && ce.block != blockApproval,
			DefaultTimeout: 600,
			CompileMatcher: ce.matcher,
			Parse:          ce.parse,
			Combine:        ce.combine,
		}
		if ce.timeout > 0 {
			ev.DefaultTimeout = ce.timeout
		}
		if ce.name == EnvFileEvent {
			// SessionStart hands the host what the session's
			// CLAUDE_ENV_FILEs set (env.go).
			ev.ReadFiles = envFileOutput
		}
		if ce.name == "SessionEnd" {
			ev.ForceSync, ev.EndsSession = true, true
			ev.Budget, ev.BudgetFor = claudeSessionEndBudget, claudeSessionEndBudgetFor
		}
		out = append(out, ev)
	}
	return out
}
