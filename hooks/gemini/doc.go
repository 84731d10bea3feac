// Package gemini is the profile of Google's Gemini CLI (@google/gemini-cli
// 0.61): hooks from the hooks key of its settings.json layers (user, trusted
// workspace, then system, in the CLI's order; a system file only when root's
// and not writable by others, secure.go) and from extensions'
// hooks/hooks.json, its own eleven
// events (BeforeTool, AfterAgent, ...; events.go), unanchored regex matchers
// on tools and exact ones on lifecycle events (matcher.go), command handlers
// only, with timeouts in milliseconds run by bash -c (gemini.go), and its
// reading of output: stdout or else stderr, JSON on any exit code, text that
// denies on exit 2 or more, any deny wins (output.go). It follows
// reference/other-hosts.md section 1 and docs/profile-gemini.md. It builds
// on the engine only.
package gemini
