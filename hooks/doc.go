// Package hooks is hookd's engine: it discovers hook handlers from config layers,
// matches them against an event, runs them, reads each handler's output by the
// rules of the active Profile and combines the results into one Result.
//
// The pipeline follows Codex's hooks crate, one file per stage:
//
//	config.go     hooks.json / [hooks] TOML → Hook values, with warnings
//	discovery.go  which files are read, in which order, and the hook keys
//	managed.go    managed requirements: managed hooks, managed-only, [features]
//	hash.go       a hook's trust hash, byte for byte as Codex computes it
//	trust.go      [hooks.state]: trust and enablement; recording them (statefile/)
//	matcher.go    matcher groups against an event's match target
//	engine.go     select → run (hooks/proc) → parse → combine
//	mcp.go        mcp_tool handlers: template, host call, result as stdout
//	async.go      async handlers: 8 at once, pending queue, session end
//	output.go     exit code and stdout classification shared by all events
//	event_*.go    what each event's output may hold and how results combine
//	spill.go      oversized text → spill files and previews (package spill)
//	plugin_sources.go  plugin hooks (package plugins) and their variables
//
// Everything that differs between agent hosts lives in a Profile value
// (profile.go; optional per-host hooks such as Discover, Dedupe, PrepareInput
// and AfterCombine default to the codex behaviour). Each host is one value in
// its own files: codex.go (with event_*.go), profile_mind*.go,
// profile_mirri*.go, profile_soong*.go and profile_claude*.go. The engine
// itself never asks which host it serves.
// The engine never imports the transport: calls it needs from the host are the
// Host interface, which package rpc implements.
package hooks
