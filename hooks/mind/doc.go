// Package mind is the profile of the Mind agent: Codex's hook rules with
// Mind's own folders (~/.mind, a trusted project's .mind/), a config-profile
// layer and a CLI layer (discovery.go), a literal matcher, PostToolUse only
// after a tool succeeded (events.go) and coverage labels for tools the server
// runs (coverage.go). It follows spec 000 and SEMANTICS.md section 3 (mind).
//
// Mind is built on Codex: its events are codex.Profile's events with Mind's
// changes, so this package imports hooks/codex, the one host package another
// host imports.
package mind
