package mind

// mindTools are the tool names mind matchers may name (Profile.Tools, for
// hookd check): codex's, and the local shell names, which mind matches both
// ways.
var mindTools = []string{"shell_command", "exec_command", "write_stdin",
	"Bash", "apply_patch", "Edit", "Write", "spawn_agent", "Agent", "request_permissions"}
