// Package claude is the profile of Anthropic's Claude Code: hooks from its
// settings.json layers and plugins, no review step, Claude Code's matcher
// dialect (matcher.go), its 33 events as one table (events.go) read by one
// lenient output reader (output.go), and its handler keys such as if and
// asyncRewake (handler.go). It follows SEMANTICS.md section 3 (claude) and
// section 6, and reference/claude-hooks.md.
package claude
