// Package mirri is the profile of the Mirri Code CLI: flat [[hooks]] rules
// in <home>/config.toml (config.go), a regex matcher on each event's target,
// parallel handlers with identical commands run once, fail-open unless a rule
// sets failClosed, and per-session rules such as the cap on Stop blocks
// (events.go). It follows spec 001 and SEMANTICS.md section 3 (mirri).
package mirri
