// Package codex is the profile of OpenAI's Codex CLI, hookd's default host:
// its hooks.json and config.toml layers, its matcher and tool aliases, and
// what each event's output may hold and how results combine, one file per
// event (compact.go, pre_tool_use.go, stop.go...). It follows SEMANTICS.md
// section 2 (spec 003, with spec 000's precise rules) and
// reference/codex-hooks.md (Codex's hooks crate); output.go is
// Codex's output_parser: exit code and stdout classification shared by its
// events.
package codex
