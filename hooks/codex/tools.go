package codex

// codexTools are the tool names codex matchers may name (Profile.Tools, for
// hookd check): reference/codex-hooks.md 1.2 (shell calls report Bash;
// apply_patch is matched as Edit and Write too; spawn_agent as Agent).
var codexTools = []string{"Bash", "apply_patch", "Edit", "Write", "spawn_agent", "Agent", "request_permissions"}
