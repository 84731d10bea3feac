package codex

import (
	"time"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/plugins"
)

// Input field orders, as Codex writes them (reference/codex-hooks.md 1.2).
var (
	toolInputFields       = []string{"session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_use_id"}
	permissionInputFields = []string{"session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input"}
	postToolInputFields   = []string{"session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "tool_name", "tool_input", "tool_response", "tool_use_id"}
	compactInputFields    = []string{"session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd", "hook_event_name", "model", "trigger"}
)

// Profile is the default profile: OpenAI Codex's hook rules (SEMANTICS.md section 2).
var Profile = &hooks.Profile{
	Name:           "codex",
	HomeEnv:        "CODEX_HOME",
	HomeDir:        ".codex",
	ProjectDir:     ".codex",
	ProjectTrust:   projectTrust{},
	CompileMatcher: hooks.CodexMatcher,
	ToolNames:      codexToolNames,
	CanonicalTool:  codexCanonicalTool,
	Trust:          true,
	KillGrace:      time.Second,
	PluginRule:     plugins.CodexRule,
	Events: []*hooks.EventRules{
		{Name: "PreToolUse", Label: "pre_tool_use", MatchField: "tool_name", ToolEvent: true,
			InputFields: toolInputFields, ContextLimit: true, Blocking: true, DefaultTimeout: 600,
			Parse: parsePreToolUse, Combine: combinePreToolUse},
		{Name: "PermissionRequest", Label: "permission_request", MatchField: "tool_name", ToolEvent: true,
			InputFields: permissionInputFields, Blocking: true, DefaultTimeout: 600,
			Parse: parsePermissionRequest, Combine: combinePermissionRequest},
		{Name: "PostToolUse", Label: "post_tool_use", MatchField: "tool_name", ToolEvent: true,
			InputFields: postToolInputFields, ContextLimit: true, Blocking: true, DefaultTimeout: 600,
			Parse: parsePostToolUse, Combine: combinePostToolUse},
		{Name: "PreCompact", Label: "pre_compact", MatchField: "trigger",
			InputFields: compactInputFields, DefaultTimeout: 600,
			Parse: parsePreCompact, Combine: combineCompact},
		{Name: "PostCompact", Label: "post_compact", MatchField: "trigger",
			InputFields: compactInputFields, DefaultTimeout: 600,
			Parse: parsePostCompact, Combine: combineCompact},
		{Name: "SessionStart", Label: "session_start", MatchField: "source",
			InputFields:  []string{"session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "source"},
			ContextLimit: true, DefaultTimeout: 600,
			Parse: parseSessionStart, Combine: combineSessionStart},
		{Name: "SessionEnd", Label: "session_end", MatchField: "reason",
			InputFields: []string{"session_id", "transcript_path", "cwd", "hook_event_name", "reason"},
			ForceSync:   true, NoMCP: true, EndsSession: true, DefaultTimeout: 1, MaxTimeout: 3,
			Parse: parseSessionEnd, Combine: combineSessionEnd},
		{Name: "UserPromptSubmit", Label: "user_prompt_submit",
			InputFields:  []string{"session_id", "turn_id", "agent_id", "agent_type", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "prompt"},
			ContextLimit: true, Blocking: true, DefaultTimeout: 600,
			Parse: parseUserPromptSubmit, Combine: combineUserPromptSubmit},
		{Name: "SubagentStart", Label: "subagent_start", MatchField: "agent_type",
			InputFields:  []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "agent_id", "agent_type"},
			ContextLimit: true, DefaultTimeout: 600,
			Parse: parseSubagentStart, Combine: combineSubagentStart},
		{Name: "SubagentStop", Label: "subagent_stop", MatchField: "agent_type",
			InputFields: []string{"session_id", "turn_id", "transcript_path", "agent_transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "stop_hook_active", "agent_id", "agent_type", "last_assistant_message"},
			Blocking:    true, DefaultTimeout: 600,
			Parse: parseSubagentStop, Combine: combineStop},
		{Name: "Stop", Label: "stop",
			InputFields: []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode", "stop_hook_active", "last_assistant_message"},
			Blocking:    true, DefaultTimeout: 600,
			Parse: parseStop, Combine: combineStop},
	},
}

func init() { hooks.Register(Profile) }

// Codex tool alias groups: the first name is what the hook input reports, the
// rest also match. Shell tools report "Bash" (what Codex sends); apply_patch is
// matched by Claude Code's Edit and Write; spawn_agent by Agent.
var codexToolGroups = [][]string{
	{"Bash", "shell_command", "exec_command", "write_stdin", "shell"},
	{"apply_patch", "Edit", "Write"},
	{"spawn_agent", "Agent"},
}

func codexToolGroup(name string) []string {
	for _, g := range codexToolGroups {
		for _, n := range g {
			if n == name {
				return g
			}
		}
	}
	return nil
}

func codexToolNames(name string) []string {
	g := codexToolGroup(name)
	if g == nil {
		return []string{name}
	}
	// The name the host sent first, then the rest of its group.
	names := []string{name}
	for _, n := range g {
		if n != name {
			names = append(names, n)
		}
	}
	return names
}

func codexCanonicalTool(name string) string {
	if g := codexToolGroup(name); g != nil && (g[0] == "Bash" || name == g[0]) {
		return g[0]
	}
	return name
}
