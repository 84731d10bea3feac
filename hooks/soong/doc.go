// Package soong is the profile of the Soong agent: one user hooks.json
// switched on by its config.toml (config.go), exact tool, tag and path-prefix
// matchers (match.go), command handlers run one after another in the project
// folder with an environment allowlist, and {decision, reason, metadata,
// logs} output where only PreToolUse and Stop may deny (events.go). It
// follows spec 002 and SEMANTICS.md section 3 (soong).
package soong
