package qwen

import "github.com/hookd/hookd/hooks"

// The port table of Qwen Code: Claude Code's event names, its own tool
// names (Claude Code's match as aliases), ${CLAUDE_PLUGIN_ROOT} expanded in
// extensions.
func init() {
	events := map[string]string{}
	for _, ev := range Profile.EventNames() {
		events[ev] = ev
	}
	tools := map[string]string{}
	for _, t := range hooks.ClaudeTools {
		if c := canonicalTool(t); c != t {
			tools[t] = c
		}
	}
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile: "qwen",
		Doc:     "profile-qwen.md",
		Events:  events,
		Tools:   tools,
		Layout: hooks.PortLayout{
			Manifest: extensionFile, HooksFile: "hooks/hooks.json",
			TimeoutKey: "timeout", TimeoutScale: 1, RootVar: "${CLAUDE_PLUGIN_ROOT}",
		},
		Rules: []hooks.PortRule{
			{Field: "reason", Text: "qwen: exit 2 reads only stderr, and the reasons of every hook are joined (a plain-text hook's 'Hook executed successfully' included)", Section: "#reading-output"},
			{Field: "context", Text: "qwen: plain stdout is context only on SessionStart, UserPromptSubmit and UserPromptExpansion, a system message elsewhere", Section: "#reading-output"},
			{Field: "system-message", Text: "qwen: the last systemMessage wins; other text on exit 0 is a system message, on another code 'Warning: <text>'", Section: "#reading-output"},
			{Field: "decision", Text: "qwen: a later hook's permissionDecision replaces an earlier one's and beats a top-level block; exit 1 never blocks", Section: "#combining"},
		},
	})
}
