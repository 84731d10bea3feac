package hooks

// The tool names each profile's matchers may name (Profile.Tools), for
// hookd check. Kept apart from the profiles so the lists can grow without
// touching the rules.

// codexTools: reference/codex-hooks.md 1.2 (shell calls report Bash;
// apply_patch is matched as Edit and Write too; spawn_agent as Agent).
var codexTools = []string{"Bash", "apply_patch", "Edit", "Write", "spawn_agent", "Agent", "request_permissions"}

// mindTools: codex's, and the local shell names, which mind matches both ways.
var mindTools = append([]string{"shell_command", "exec_command", "write_stdin"}, codexTools...)

// claudeTools: reference/claude-hooks.md (PreToolUse tool names, and the
// names plugins in the wild match).
var claudeTools = []string{"Bash", "PowerShell", "Edit", "Write", "Read", "Glob", "Grep", "Agent", "WebFetch",
	"WebSearch", "AskUserQuestion", "ExitPlanMode", "MultiEdit", "NotebookEdit", "Task", "EnterPlanMode",
	"Skill", "TodoWrite", "BashOutput", "KillShell", "LS", "NotebookRead", "SlashCommand",
	"TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "TaskOutput", "TaskStop"}
