package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"
)

// Typed forms of hookd's requests. Each is one Call with the protocol's
// params and result types (types.go); Call and the raw Initialize and Run stay
// for callers that want the JSON as it came.

// InitializeSession starts the session and returns the typed result.
func (c *Client) InitializeSession(ctx context.Context, p InitializeParams) (*InitializeResult, error) {
	raw, err := c.Initialize(ctx, p)
	if err != nil {
		return nil, err
	}
	var res InitializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("decode initialize result: %w", err)
	}
	return &res, nil
}

// RunEvent runs one event's hooks and returns the combined outcome.
func (c *Client) RunEvent(ctx context.Context, p RunParams) (*RunResult, error) {
	var res RunResult
	if err := c.Call(ctx, "hooks/run", p, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Explain says, for hooks/run's params, which hooks would run and why each
// other one would not, without running anything.
func (c *Client) Explain(ctx context.Context, p RunParams) (*ExplainResult, error) {
	var res ExplainResult
	if err := c.Call(ctx, "hooks/explain", RunParams{Event: p.Event, Input: p.Input}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// List returns the discovered hooks of one event ("" for all) and the
// discovery warnings.
func (c *Client) List(ctx context.Context, event string) (*ListResult, error) {
	params := map[string]string{}
	if event != "" {
		params["event"] = event
	}
	var res ListResult
	if err := c.Call(ctx, "hooks/list", params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Reload discovers hooks again.
func (c *Client) Reload(ctx context.Context) (*Summary, error) {
	var res Summary
	if err := c.Call(ctx, "hooks/reload", map[string]any{}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Trust records the current content of the hooks with these keys as reviewed.
func (c *Client) Trust(ctx context.Context, keys ...string) (*TrustResult, error) {
	if keys == nil {
		keys = []string{}
	}
	var res TrustResult
	if err := c.Call(ctx, "hooks/trust", map[string]any{"keys": keys}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// SetEnabled enables or disables one hook.
func (c *Client) SetEnabled(ctx context.Context, key string, enabled bool) (*SetEnabledResult, error) {
	var res SetEnabledResult
	if err := c.Call(ctx, "hooks/setEnabled", map[string]any{"key": key, "enabled": enabled}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// TakePending takes the async results hookd has not delivered yet.
func (c *Client) TakePending(ctx context.Context) (*TakePendingResult, error) {
	var res TakePendingResult
	if err := c.Call(ctx, "hooks/takePending", map[string]any{}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Decode reads the notification's params into v (LogMessageParams,
// StatusParams, AsyncResult, Summary...).
func (n Notification) Decode(v any) error {
	if len(n.Params) == 0 {
		return fmt.Errorf("%s: no params", n.Method)
	}
	if err := json.Unmarshal(n.Params, v); err != nil {
		return fmt.Errorf("%s params: %w", n.Method, err)
	}
	return nil
}

// HandleCallTool adapts a typed MCP tool caller to the CallTool field:
//
//	c.CallTool = client.HandleCallTool(func(ctx context.Context, p client.CallToolParams) (*client.CallToolResult, error) {
//		return mcp.Call(ctx, p.Server, p.Tool, p.Arguments)
//	})
//
// Set CallTool before Initialize. An error answers hookd with a JSON-RPC
// error (a *jsonrpc2.Error keeps its code), and the hook fails open.
func HandleCallTool(f func(ctx context.Context, p CallToolParams) (*CallToolResult, error)) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p CallToolParams
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, &jsonrpc2.Error{Code: CodeInvalidParams, Message: fmt.Sprintf("mcp/callTool params: %v", err)}
		}
		return f(ctx, p)
	}
}

// Code returns the JSON-RPC error code of an error hookd answered with, or 0
// when err is not such an error.
func Code(err error) int64 {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}
