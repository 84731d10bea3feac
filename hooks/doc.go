// Package hooks is hookd's engine: what every agent host shares. It finds a
// host's hook handlers, picks those an event selects, runs them, reads each
// handler's output by the host's rules, combines the outcomes into one Result
// and spills text too long to hand over whole:
//
//	discover → select → run → read → combine → spill
//
//	discover  discovery.go, config.go (hooks.json / [hooks] TOML → Hook values,
//	          with warnings), managed.go (managed requirements), trust.go and
//	          hash.go ([hooks.state]: review and enablement), plugin_sources.go
//	select    matcher.go (matcher groups against an event's match target),
//	          engine.go (enabled, trusted, deduplicated), scope.go (hooks
//	          scoped to a subagent or an activated skill, once-only ones)
//	run       handler.go: one HandlerKind per handler type (command over
//	          package proc, mcp_tool through the Host in mcp.go, a profile's
//	          own); async.go (8 at once, session end)
//	read      EventRules.Parse, the host's; output.go holds what every
//	          host's reader shares (process failures, Outcome setters)
//	combine   EventRules.Combine, the host's; Profile.AfterCombine
//	spill     spill.go (package spill): oversized text → files + previews
//
// Everything that differs between hosts is one Profile value (profile.go)
// in the host's own package: hooks/codex, hooks/claude, hooks/mind,
// hooks/mirri, hooks/soong. Each registers its Profile when linked
// (Register, LookupProfile); the engine imports none of them and never asks
// which host it serves. A host package builds on what this package exports:
// the discovery steps (DiscoveryRun, Walker), the shared output helpers and
// the Profile hooks (Discover, Dedupe, PrepareInput, AfterCombine...).
//
// The engine never imports the transport: calls it needs from the host are
// the Host interface, which package rpc implements.
package hooks
