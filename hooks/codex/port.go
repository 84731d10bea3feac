package codex

import "github.com/hookd/hookd/hooks"

// The port table of Codex: Claude Code's names for the events Codex has;
// its shell tools report as Bash, apply_patch matches by Edit and Write.
func init() {
	events := map[string]string{}
	for _, ev := range Profile.EventNames() {
		events[ev] = ev
	}
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile: "codex",
		Doc:     "profile-codex.md",
		Events:  events,
		Tools:   map[string]string{"Bash": "Bash", "Edit": "apply_patch", "Write": "apply_patch", "Task": "spawn_agent"},
		Known:   []string{"exec_command", "shell_command", "shell", "write_stdin", "apply_patch", "spawn_agent", "request_permissions"},
		Layout: hooks.PortLayout{
			Manifest: ".codex-plugin/plugin.json", HooksFile: "hooks/hooks.json",
			TimeoutKey: "timeout", TimeoutScale: 1, RootVar: "${PLUGIN_ROOT}",
		},
		Rules: []hooks.PortRule{
			{Event: "PreToolUse", Field: "decision", Text: "codex: a PreToolUse ask or approve, an allow without updatedInput and a deny without a reason are rejected (the hook fails)"},
			{Event: "PreToolUse", Field: "updated-input", Text: "codex: a PreToolUse updatedInput counts only with permissionDecision allow, and for Bash only with a string command"},
			{Event: "PermissionRequest", Field: "updated-input", Text: "codex: a PermissionRequest updatedInput is rejected"},
			{Field: "stop-reason", Text: "codex: continue:false and stopReason are rejected on PreToolUse and PermissionRequest"},
		},
	})
}
