package claude

import "github.com/hookd/hookd/hooks"

// The port table of Claude Code, whose names are the vocabulary plugins are
// written in: every translation is the identity, over Claude Code's own
// events and tools.
func init() {
	events := map[string]string{}
	for _, ev := range Profile.EventNames() {
		events[ev] = ev
	}
	tools := map[string]string{}
	for _, t := range claudeTools {
		tools[t] = t
	}
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile: "claude",
		Doc:     "profile-claude.md",
		Events:  events,
		Tools:   tools,
		Layout: hooks.PortLayout{
			Manifest: ".claude-plugin/plugin.json", HooksFile: "hooks/hooks.json",
			TimeoutKey: "timeout", TimeoutScale: 1, RootVar: "${CLAUDE_PLUGIN_ROOT}",
		},
	})
}
