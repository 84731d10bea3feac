package copilot

import "github.com/hookd/hookd/hooks"

// Copilot CLI's fifteen events (reference/other-hosts.md 2.2, 2.4, 2.6),
// one row each: the camelCase name and input fields, the PascalCase alias
// that Claude Code's files use, what the matcher tests, and what an answer
// can do.

type copilotKind int

const (
	// kindAdvisory: the output is not read (sessionEnd, errorOccurred,
	// preCompact, userPromptTransformed, preMcpToolCall).
	kindAdvisory copilotKind = iota
	// kindPreTool: preToolUse. permissionDecision allow, deny or ask;
	// modifiedArgs replaces the arguments; any non-zero exit denies.
	kindPreTool
	// kindPermission: permissionRequest. behavior, message, interrupt; exit
	// 2 denies; a later hook overrides an earlier one.
	kindPermission
	// kindContext: additionalContext reaches the model (sessionStart,
	// userPromptSubmitted, postToolUse, subagentStart, notification).
	kindContext
	// kindFailure: postToolUseFailure. additionalContext, or stderr on exit
	// 2, is guidance for the model.
	kindFailure
	// kindStop: decision "block" with a reason forces another turn
	// (agentStop, subagentStop).
	kindStop
)

type copilotEvent struct {
	name, label, alias string
	// match is the camelCase input field the matcher tests ("" = none).
	match  string
	tool   bool
	fields []string
	kind   copilotKind
}

var copilotEvents = []copilotEvent{
	{name: "sessionStart", label: "session_start", alias: "SessionStart", fields: []string{"source", "initialPrompt"}, kind: kindContext},
	{name: "sessionEnd", label: "session_end", alias: "SessionEnd", fields: []string{"reason"}},
	{name: "userPromptSubmitted", label: "user_prompt_submitted", alias: "UserPromptSubmit", fields: []string{"prompt"}, kind: kindContext},
	{name: "userPromptTransformed", label: "user_prompt_transformed", fields: []string{"prompt"}},
	{name: "preToolUse", label: "pre_tool_use", alias: "PreToolUse", match: "toolName", tool: true, fields: []string{"toolName", "toolArgs"}, kind: kindPreTool},
	{name: "preMcpToolCall", label: "pre_mcp_tool_call", match: "toolName", tool: true, fields: []string{"toolName", "toolArgs", "serverName"}},
	{name: "permissionRequest", label: "permission_request", alias: "PermissionRequest", match: "toolName", tool: true,
		fields: []string{"toolName", "toolArgs"}, kind: kindPermission},
	{name: "postToolUse", label: "post_tool_use", alias: "PostToolUse", match: "toolName", tool: true,
		fields: []string{"toolName", "toolArgs", "toolResult"}, kind: kindContext},
	{name: "postToolUseFailure", label: "post_tool_use_failure", alias: "PostToolUseFailure", match: "toolName", tool: true,
		fields: []string{"toolName", "toolArgs", "error"}, kind: kindFailure},
	{name: "agentStop", label: "agent_stop", alias: "Stop", fields: []string{"transcriptPath", "stopReason", "stop_hook_active"}, kind: kindStop},
	{name: "subagentStart", label: "subagent_start", alias: "SubagentStart", match: "agentName", fields: []string{"agentName"}, kind: kindContext},
	{name: "subagentStop", label: "subagent_stop", alias: "SubagentStop", match: "agentName",
		fields: []string{"transcriptPath", "stopReason", "agentName", "stop_hook_active"}, kind: kindStop},
	{name: "notification", label: "notification", alias: "Notification", match: "notification_type",
		fields: []string{"notification_type", "message", "title"}, kind: kindContext},
	{name: "errorOccurred", label: "error_occurred", fields: []string{"error", "errorContext", "recoverable"}},
	{name: "preCompact", label: "pre_compact", alias: "PreCompact", match: "trigger", fields: []string{"trigger", "customInstructions"}},
}

// defaultTimeout is timeoutSec when a handler sets none.
const defaultTimeout = 30

func copilotEventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(copilotEvents))
	for i := range copilotEvents {
		ce := &copilotEvents[i]
		ev := &hooks.EventRules{
			Name:           ce.name,
			Label:          ce.label,
			MatchField:     ce.match,
			ToolEvent:      ce.tool,
			InputFields:    append([]string{"sessionId", "timestamp", "cwd"}, ce.fields...),
			Blocking:       ce.kind == kindPreTool || ce.kind == kindStop,
			DefaultTimeout: defaultTimeout,
			Parse:          ce.parse,
			Combine:        ce.combine,
		}
		if ce.name == "sessionEnd" {
			ev.EndsSession = true
		}
		out = append(out, ev)
	}
	return out
}

// eventByAlias maps a PascalCase name to its camelCase event.
func eventByAlias(name string) *copilotEvent {
	for i := range copilotEvents {
		if copilotEvents[i].alias == name {
			return &copilotEvents[i]
		}
	}
	return nil
}

func rowOf(name string) *copilotEvent {
	for i := range copilotEvents {
		if copilotEvents[i].name == name {
			return &copilotEvents[i]
		}
	}
	return nil
}
