package gemini

import "github.com/hookd/hookd/hooks"

// The port table of Gemini CLI: its own event and tool names, extensions
// with ${extensionPath}, millisecond timeouts.
func init() {
	hooks.RegisterPortTable(&hooks.PortTable{
		Profile: "gemini",
		Doc:     "profile-gemini.md",
		Events: map[string]string{
			"PreToolUse": "BeforeTool", "PostToolUse": "AfterTool", "UserPromptSubmit": "BeforeAgent",
			"Stop": "AfterAgent", "SessionStart": "SessionStart", "SessionEnd": "SessionEnd",
			"PreCompact": "PreCompress", "Notification": "Notification",
		},
		Tools: map[string]string{
			"Bash": "run_shell_command", "Read": "read_file", "Write": "write_file", "Edit": "replace",
			"Glob": "glob", "Grep": "search_file_content", "WebFetch": "web_fetch", "WebSearch": "google_web_search",
		},
		Layout: hooks.PortLayout{
			Manifest: "gemini-extension.json", HooksFile: "hooks/hooks.json",
			TimeoutKey: "timeout", TimeoutScale: 1000, RootVar: "${extensionPath}",
			Drop: []string{"async", "statusMessage", "once", "if"},
		},
		Rules: []hooks.PortRule{
			{Event: "PreToolUse", Field: "decision", Text: "gemini: hookSpecificOutput.permissionDecision is not read; a BeforeTool hook denies with a top-level decision, or with text on an exit code other than 0 and 1", Section: "#reading-output"},
			{Event: "PreToolUse", Field: "reason", Text: "gemini: the reasons of every hook that gave one are joined, and a deny by text carries the text as it is", Section: "#combining"},
			{Event: "PreToolUse", Field: "updated-input", Text: "gemini: BeforeTool rewrites with hookSpecificOutput.tool_input, not updatedInput", Section: "#events"},
			{Event: "Stop", Field: "continuation", Text: "gemini: AfterAgent continues with a deny's reason as the new prompt; Claude Code's decision block is read as that deny", Section: "#events"},
			{Field: "system-message", Text: "gemini: plain text on exit 0 is a system message, on exit 1 the message 'Warning: <text>'", Section: "#reading-output"},
			{Field: "context", Text: "gemini: plain stdout is a system message, never context; context comes only from hookSpecificOutput.additionalContext", Section: "#reading-output"},
			{Field: "status", Text: "gemini: any non-zero exit marks the hook failed, a JSON answer is obeyed whatever the exit code", Section: "#reading-output"},
		},
	})
}
