package gemini

import "github.com/hookd/hookd/hooks"

// Gemini CLI's eleven events (reference/other-hosts.md 1.2), one row each:
// what the matcher tests, the input fields after the common ones, and what a
// hook's answer can do there.

// geminiKind is what an event's combined answer does.
type geminiKind int

const (
	// kindAdvisory: nothing is controlled; system messages are shown
	// (SessionEnd, PreCompress, Notification).
	kindAdvisory geminiKind = iota
	// kindTool: BeforeTool. deny/block denies the call, ask forces a prompt,
	// hookSpecificOutput.tool_input replaces the arguments.
	kindBeforeTool
	// kindAfterTool: deny replaces the tool's result with the reason;
	// additionalContext is appended to it.
	kindAfterTool
	// kindBeforeAgent: deny blocks the turn and drops the prompt;
	// additionalContext is added to the prompt.
	kindBeforeAgent
	// kindAfterAgent: deny sends the reason as a new prompt.
	kindAfterAgent
	// kindModel: BeforeModel and AfterModel. deny blocks the request or
	// drops the chunk; llm_request / llm_response replace, later wins.
	kindModel
	// kindToolSelection: BeforeToolSelection. toolConfig is combined by
	// union, NONE winning over ANY.
	kindToolSelection
	// kindSessionStart: additionalContext reaches the model.
	kindSessionStart
)

// geminiEvent is one event's row.
type geminiEvent struct {
	name, label string
	// match is the input field the matcher tests ("" ignores matchers);
	// exact marks the lifecycle events whose matchers are exact strings.
	match  string
	exact  bool
	tool   bool
	fields []string
	kind   geminiKind
	// pass lists the hookSpecificOutput fields handed to the host in
	// Result.Output.
	pass []string
}

var geminiEvents = []geminiEvent{
	{name: "BeforeTool", label: "before_tool", match: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "mcp_context", "original_request_name"}, kind: kindBeforeTool},
	{name: "AfterTool", label: "after_tool", match: "tool_name", tool: true,
		fields: []string{"tool_name", "tool_input", "tool_response", "mcp_context", "original_request_name"},
		kind:   kindAfterTool, pass: []string{"tailToolCallRequest"}},
	{name: "BeforeAgent", label: "before_agent", fields: []string{"prompt"}, kind: kindBeforeAgent},
	{name: "AfterAgent", label: "after_agent", fields: []string{"prompt", "prompt_response", "stop_hook_active"},
		kind: kindAfterAgent, pass: []string{"clearContext"}},
	{name: "BeforeModel", label: "before_model", fields: []string{"llm_request"}, kind: kindModel,
		pass: []string{"llm_request", "llm_response"}},
	{name: "AfterModel", label: "after_model", fields: []string{"llm_request", "llm_response"}, kind: kindModel,
		pass: []string{"llm_response"}},
	{name: "BeforeToolSelection", label: "before_tool_selection", fields: []string{"llm_request"}, kind: kindToolSelection},
	{name: "SessionStart", label: "session_start", match: "source", exact: true, fields: []string{"source"}, kind: kindSessionStart},
	{name: "SessionEnd", label: "session_end", match: "reason", exact: true, fields: []string{"reason"}},
	{name: "PreCompress", label: "pre_compress", match: "trigger", exact: true, fields: []string{"trigger"}},
	{name: "Notification", label: "notification", fields: []string{"notification_type", "message", "details"}},
}

// geminiDefaultTimeoutMs is a handler's timeout when it sets none.
const geminiDefaultTimeoutMs = 60_000

func geminiEventRules() []*hooks.EventRules {
	out := make([]*hooks.EventRules, 0, len(geminiEvents))
	for i := range geminiEvents {
		ge := &geminiEvents[i]
		ev := &hooks.EventRules{
			Name:           ge.name,
			Label:          ge.label,
			MatchField:     ge.match,
			ToolEvent:      ge.tool,
			InputFields:    append([]string{"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"}, ge.fields...),
			Blocking:       ge.kind != kindAdvisory && ge.kind != kindToolSelection && ge.kind != kindSessionStart,
			DefaultTimeout: geminiDefaultTimeoutMs / 1000,
			CompileMatcher: toolMatcher,
			Parse:          ge.parse,
			Combine:        ge.combine,
		}
		if ge.exact {
			ev.CompileMatcher = exactMatcher
		}
		if ge.name == "SessionEnd" {
			// The CLI awaits SessionEnd hooks on its way out.
			ev.ForceSync, ev.EndsSession = true, true
		}
		out = append(out, ev)
	}
	return out
}
