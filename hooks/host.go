package hooks

import (
	"context"

	json "github.com/goccy/go-json"
)

// Host is what the engine needs from the agent host it serves: calling a
// tool on one of the host's MCP servers, and telling the host about progress.
// Package rpc implements it over the JSON-RPC connection; the one-shot CLI
// has none (Options.Host nil), so its mcp_tool hooks fail and nothing is
// notified.
type Host interface {
	// CallTool asks the host to call an MCP tool and returns the host's
	// answer, an MCP CallToolResult as raw JSON. It must return when ctx
	// ends (the hook's timeout) and never block past it.
	CallTool(ctx context.Context, call ToolCall) (json.RawMessage, error)
	// Notify sends a notification (MethodStatus, MethodAsyncCompleted). It
	// must not block for long: it is called from the handlers' goroutines.
	Notify(method string, params any)
}

// ToolCall is the params of an mcp/callTool request.
type ToolCall struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	// Arguments is the handler's input template, expanded over the hook input.
	Arguments json.RawMessage `json:"arguments"`
	// TimeoutMs is the handler's timeout: hookd gives up on the call then.
	TimeoutMs int64 `json:"timeoutMs"`
}

// Notifications the engine sends through Host.Notify.
const (
	MethodStatus         = "hooks/status"
	MethodAsyncCompleted = "hooks/asyncCompleted"
)

// States of a hooks/status notification.
const (
	StateStarted  = "started"
	StateFinished = "finished"
)

// StatusNotice is the params of hooks/status: a handler with a
// statusMessage started or finished, within the hooks/run named by RunID.
type StatusNotice struct {
	RunID         string `json:"runId"`
	Hook          string `json:"hook"`
	StatusMessage string `json:"statusMessage"`
	State         string `json:"state"`
}

// notify sends a notification to the host, if there is one.
func (e *Engine) notify(method string, params any) {
	if e.opts.Host != nil {
		e.opts.Host.Notify(method, params)
	}
}

// reportStatus tells the host that a handler with a statusMessage changed
// state, so it can show the message while the handler runs.
func (e *Engine) reportStatus(runID string, h *Hook, state string) {
	if h.Handler.StatusMessage == nil {
		return
	}
	e.notify(MethodStatus, StatusNotice{RunID: runID, Hook: h.Key, StatusMessage: *h.Handler.StatusMessage, State: state})
}
