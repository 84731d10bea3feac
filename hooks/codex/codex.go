package codex

import (
	"github.com/tidwall/gjson"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/proc"
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
	Tools:          codexTools,
	Trust:          true,
	KillGrace:      time.Second,
	Shell:          codexShell(),
	HookRunID:      codexHookRunID,
	Discover:       discover,
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

// codexHookRunID is Codex's id of a handler's run,
// "<event-label>:<n>:<source path>", the label in kebab case, with n the
// handler's place among the event's handlers in display order across all
// sources (measured on Codex 0.169: two Stop handlers of hooks.json after a
// silent one are stop:1 and stop:2, a third in config.toml stop:3); on
// PreToolUse and PostToolUse the tool use id follows
// (pre-tool-use:0:<source path>:<tool_use_id>, as Codex's hooks tests
// have it). Codex wraps each Stop continuation fragment as
// <hook_prompt hook_run_id="...">; hosts find the ids in hooks[].runId and
// continuationParts[].runId.
func codexHookRunID(ev *hooks.EventRules, n int, h *hooks.Hook, input []byte) string {
	id := strings.ReplaceAll(ev.Label, "_", "-") + ":" + strconv.Itoa(n) + ":" + h.Source.Path
	if ev.Name == "PreToolUse" || ev.Name == "PostToolUse" {
		id += ":" + gjson.GetBytes(input, "tool_use_id").String()
	}
	return id
}

// codexShell is how Codex runs a hook command: "$SHELL -c", not a login
// shell (measured on Codex 0.169; a login shell costs every hook the user's
// profile, 100-500 ms with nvm or conda). Windows keeps %COMSPEC% /C.
func codexShell() []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	return []string{proc.EnvShell, "-c"}
}

func init() { hooks.Register(Profile) }

// codexShellTools are the names a host may give a shell call; hooks see
// them all as "Bash" (reference/codex-hooks.md 1.2).
var codexShellTools = map[string]bool{"shell_command": true, "exec_command": true, "write_stdin": true, "shell": true}

// codexAliases are the extra names a matcher may use for a tool, one way:
// Codex matches the name it reports and then these (apply_patch by Edit and
// Write, spawn_agent by Agent). A matcher naming exec_command,
// shell_command or shell never fires for a shell call (measured on Codex
// 0.169); Mind keeps its document's two-way aliases in its own package.
var codexAliases = map[string][]string{
	"apply_patch": {"Edit", "Write"},
	"spawn_agent": {"Agent"},
}

func codexToolNames(name string) []string {
	name = codexCanonicalTool(name)
	return append([]string{name}, codexAliases[name]...)
}

func codexCanonicalTool(name string) string {
	if codexShellTools[name] {
		return "Bash"
	}
	return name
}
