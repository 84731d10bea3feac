package hooks

import "context"

// Handler kinds. The run loop (engine.go) hands every handler to the kind its
// Handler.Type names and reads what comes back with the event's rules; it
// knows no kind itself:
//
//	command   runCommand (engine.go): environment, working folder and
//	          oversized output around one process of package proc
//	mcp_tool  callTool (mcp.go): the input template, then the host's
//	          mcp/callTool (Host), read as if a command had printed it
//
// A profile adds a kind (Claude Code's http, prompt, agent) with
// Profile.HandlerKinds, without touching the loop.

// A HandlerKind runs one kind of handler to completion. stdin is the hook
// input JSON. The RawResult is what the event's Parse reads: an exit code and
// output, or why there is none (Err, TimedOut, Cancelled). A kind honours ctx
// and the handler's timeout, and reports every failure in the RawResult.
type HandlerKind interface {
	Run(ctx context.Context, h *Hook, stdin []byte) RawResult
}

// HandlerKindFunc is a function used as a HandlerKind.
type HandlerKindFunc func(ctx context.Context, h *Hook, stdin []byte) RawResult

// Run calls f.
func (f HandlerKindFunc) Run(ctx context.Context, h *Hook, stdin []byte) RawResult {
	return f(ctx, h, stdin)
}

// handlerKinds returns the engine's kinds: command and mcp_tool, then the
// profile's own.
func (e *Engine) handlerKinds() map[string]HandlerKind {
	kinds := map[string]HandlerKind{
		TypeCommand: HandlerKindFunc(e.runCommand),
		TypeMCPTool: HandlerKindFunc(e.callTool),
	}
	for typ, build := range e.profile.HandlerKinds {
		kinds[typ] = build(e)
	}
	return kinds
}
