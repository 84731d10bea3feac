package copilot

import "github.com/hookd/hookd/hooks"

// The port table of Copilot CLI: camelCase events and input fields, its own
// tool names. A ported plugin keeps Claude Code's PascalCase events in a
// version 1 hooks.json, the form whose hooks get Claude Code's snake_case
// input, so the scripts run as written.
func init() {
	events := map[string]string{}
	for _, ce := range copilotEvents {
		if ce.alias != "" {
			events[ce.alias] = ce.name
		}
	}
	tools := map[string]string{}
	for name, claude := range claudeNames {
		tools[claude] = name
	}
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile: "copilot",
		Doc:     "profile-copilot.md",
		Events:  events,
		Tools:   tools,
		Fields:  map[string]string{"tool_name": "toolName", "tool_input": "toolArgs", "tool_response": "toolResult", "agent_type": "agentName"},
		Layout: hooks.PortLayout{
			HooksFile: "hooks/hooks.json", Version: 1,
			TimeoutKey: "timeoutSec", TimeoutScale: 1,
		},
		Rules: []hooks.PortRule{
			{Event: "PreToolUse", Field: "reason", Text: "copilot: a preToolUse exit 2 denies with 'hook exited with code 2' (stderr is not passed on), another non-zero exit with 'hook errored (exit code N)'", Section: "#reading-output"},
			{Event: "PreToolUse", Field: "decision", Text: "copilot: any non-zero preToolUse exit denies, even with an allow on stdout; the first deny ends the run", Section: "#reading-output"},
			{Event: "PreToolUse", Field: "updated-input", Text: "copilot: preToolUse rewrites the arguments with modifiedArgs; the last one is used unless the call is denied", Section: "#combining"},
			{Event: "PreToolUse", Field: "status", Text: "copilot: hooks run one after another and the first preToolUse deny skips the rest (afterDeny)", Section: "#handlers"},
			{Event: "SessionStart", Field: "status", Text: "copilot: sessionStart has no matcher: a group for startup|resume runs on every source", Section: "#matchers"},
			{Field: "system-message", Text: "copilot: systemMessage is not read on any event", Section: "#reading-output"},
			{Field: "context", Text: "copilot: plain text on stdout is ignored; only additionalContext reaches the model, on sessionStart, userPromptSubmitted, postToolUse, subagentStart and notification", Section: "#reading-output"},
		},
	})
}
