package claude

// claudeTools are the tool names Claude Code matchers may name
// (Profile.Tools, for hookd check): reference/claude-hooks.md's PreToolUse
// tool names, and the names plugins in the wild match.
var claudeTools = []string{"Bash", "PowerShell", "Edit", "Write", "Read", "Glob", "Grep", "Agent", "WebFetch",
	"WebSearch", "AskUserQuestion", "ExitPlanMode", "MultiEdit", "NotebookEdit", "Task", "EnterPlanMode",
	"Skill", "TodoWrite", "BashOutput", "KillShell", "LS", "NotebookRead", "SlashCommand",
	"TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "TaskOutput", "TaskStop"}
