package hooks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/placeholders"
)

// An mcp_tool handler runs on the host: hookd expands its input template over
// the hook input, asks the host to call the tool (mcp/callTool), and reads
// the answer as Codex does, as if a command had printed it and exited 0. The
// event's usual rules then apply to that output. Every failure (no host, a
// missing field, an error from the host or the tool, a timeout) fails the
// handler and, like any failure, never blocks.

// errNoHost fails mcp_tool handlers when the engine has no host to ask.
var errNoHost = errors.New("no host to call MCP tools (hookd run has none); mcp_tool hooks run only under hookd serve")

// errToolTimeout is the cause of the deadline put on a tool call.
var errToolTimeout = errors.New("mcp tool timeout")

// callTool runs an mcp_tool handler.
func (e *Engine) callTool(ctx context.Context, h *Hook, stdin []byte) (raw RawResult) {
	start := time.Now()
	timeout := time.Duration(h.Handler.Timeout) * time.Second
	raw.Timeout = timeout
	defer func() { raw.Duration = time.Since(start) }()

	if e.opts.Host == nil {
		raw.Err = errNoHost
		return raw
	}
	args, err := placeholders.Expand(h.Handler.Input, stdin)
	if err != nil {
		raw.Err = err
		return raw
	}
	if ctx.Err() != nil {
		raw.Cancelled = true
		return raw
	}
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, errToolTimeout)
	defer cancel()
	res, err := e.opts.Host.CallTool(cctx, ToolCall{Server: h.Handler.Server, Tool: h.Handler.Tool,
		Arguments: args, TimeoutMs: timeout.Milliseconds()})
	switch {
	case err == nil:
	case ctx.Err() != nil:
		raw.Cancelled = true
		return raw
	case errors.Is(context.Cause(cctx), errToolTimeout):
		raw.TimedOut = true
		return raw
	default:
		raw.Err = fmt.Errorf("MCP tool %s on server %s: %w", h.Handler.Tool, h.Handler.Server, err)
		return raw
	}
	stdout, err := readToolResult(res)
	if err != nil {
		raw.Err = err
		return raw
	}
	code := 0
	raw.ExitCode, raw.Stdout = &code, stdout
	return raw
}

// readToolResult turns an MCP CallToolResult into the handler's stdout:
// structuredContent when present; else the first text item that is a JSON
// object (the hook's reply among other text); else every text item joined by
// newlines, as Codex joins them. With a single text item, the usual case,
// this is exactly Codex's reading. isError fails the handler with the text.
func readToolResult(res json.RawMessage) (string, error) {
	r := gjson.ParseBytes(res)
	if !r.IsObject() {
		return "", fmt.Errorf("MCP tool returned an invalid result: want a CallToolResult object, got %s", snippetJSON(res))
	}
	content := r.Get("content")
	if content.Exists() && content.Type != gjson.Null && !content.IsArray() {
		return "", fmt.Errorf("MCP tool returned an invalid result: content must be an array")
	}
	var texts []string
	content.ForEach(func(_, item gjson.Result) bool {
		if item.Get("type").Str == "text" && item.Get("text").Type == gjson.String {
			texts = append(texts, item.Get("text").Str)
		}
		return true
	})
	joined := strings.Join(texts, "\n")
	if isErr := r.Get("isError"); isErr.Type == gjson.True {
		if joined == "" {
			return "", errors.New("MCP tool returned an error")
		}
		return "", fmt.Errorf("MCP tool returned an error: %s", joined)
	}
	if sc := r.Get("structuredContent"); sc.Exists() && sc.Type != gjson.Null {
		return sc.Raw, nil
	}
	if len(texts) > 1 {
		for _, t := range texts {
			if s := strings.TrimSpace(t); strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
				return s, nil
			}
		}
	}
	return joined, nil
}

// snippetJSON shortens a value quoted in an error.
func snippetJSON(b []byte) string {
	const max = 80
	if len(b) <= max {
		return string(b)
	}
	return strings.ToValidUTF8(string(b[:max]), "") + "…"
}
