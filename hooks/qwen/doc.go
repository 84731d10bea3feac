// Package qwen is the profile of Alibaba's Qwen Code (@qwen-code/qwen-code
// 0.24): hooks from the hooks key of its settings.json scopes (system, user,
// workspace) and from extensions (qwen.go), its 22 events in Claude Code's
// shape (events.go), a matcher that tries the Qwen tool name and its aliases
// (Claude Code's names among them) before an unanchored regex (matcher.go),
// command, http and prompt handlers (prompt through the host's
// model/evaluate) with timeouts in seconds, a command's 1000 or more being
// milliseconds (handler.go), and its reading of output: exit 2 reads only stderr,
// JSON is honoured on any code, text that starts with "{" but does not parse
// is ignored (output.go). It follows reference/other-hosts.md section 3 and
// docs/profile-qwen.md.
//
// The shape is Claude Code's, but the rules differ in nearly every detail
// (what exit 2 reads, invalid JSON, the timeout unit, the matcher, no
// PreToolUse rewrite), so the package builds on the engine only and shares
// no code with package claude.
package qwen
