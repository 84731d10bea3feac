package hooks

import (
	"context"
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

func TestMCPTool_CodexScannerDenyBlocksWithExpandedInput(t *testing.T) {
	// engine/mod_tests.rs: an mcp_tool PreToolUse handler with input
	// {"command":"${tool_input.command}"} and a 20 s timeout; the tool
	// answers with a deny.
	host := newFakeHost(func(ctx context.Context, call ToolCall) (json.RawMessage, error) {
		return textResult(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"blocked by MCP scanner"}}`), nil
	})
	e := newHostEngine(t, `{"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "mcp_tool", "server": "security", "tool": "scan", "timeout": 20, "input": {"command": "${tool_input.command}"}}]}]}`, host, 0)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_use_id":"c1","tool_input":{"command":"rm important.txt"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != DecisionDeny || res.Reason != "blocked by MCP scanner" {
		t.Errorf("decision %q reason %q, want deny by the scanner", res.Decision, res.Reason)
	}
	calls := host.toolCalls()
	if len(calls) != 1 {
		t.Fatalf("%d tool calls, want 1", len(calls))
	}
	c := calls[0]
	if c.Server != "security" || c.Tool != "scan" || string(c.Arguments) != `{"command":"rm important.txt"}` || c.TimeoutMs != 20000 {
		t.Errorf("call %+v args %s", c, c.Arguments)
	}
	if r := res.Hooks[0]; r.Status != StatusBlocked || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Errorf("hook run %+v", r)
	}
}

func TestMCPTool_MissingPlaceholderFailsOpenWithoutCalling(t *testing.T) {
	host := newFakeHost(func(ctx context.Context, call ToolCall) (json.RawMessage, error) {
		return textResult(`{"decision":"block","reason":"no"}`), nil
	})
	e := newHostEngine(t, `{"PreToolUse": [{"hooks": [
		{"type": "mcp_tool", "server": "s", "tool": "t", "input": {"p": "${tool_input.missing}"}}]}]}`, host, 0)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(host.toolCalls()) != 0 {
		t.Error("the tool was called despite a missing field")
	}
	if res.Decision != DecisionNone || res.Hooks[0].Status != StatusFailed ||
		*res.Hooks[0].Error != "hook input placeholder `${tool_input.missing}` was not found" {
		t.Errorf("decision %s, hook %+v", res.Decision, res.Hooks[0])
	}
}

func TestMCPTool_OutputIsReadAsStdoutWithExitZero(t *testing.T) {
	host := newFakeHost(func(ctx context.Context, call ToolCall) (json.RawMessage, error) {
		return json.RawMessage(`{"content":[{"type":"text","text":"remember the style guide"},{"type":"image","data":"…"},{"type":"text","text":"and the tests"}]}`), nil
	})
	e := newHostEngine(t, `{"UserPromptSubmit": [{"hooks": [
		{"type": "mcp_tool", "server": "memory", "tool": "recall", "input": {"q": "${prompt}", "session": "${session_id}"}}]}]}`, host, 0)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"fix the bug"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "remember the style guide\nand the tests" {
		t.Errorf("plain text on UserPromptSubmit should be context: %+v", res.AdditionalContext)
	}
	if got := string(host.toolCalls()[0].Arguments); got != `{"q":"fix the bug","session":"sess_h"}` {
		t.Errorf("arguments %s", got)
	}
}

func TestMCPTool_FailuresNeverBlock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(ctx context.Context) (json.RawMessage, error)
		status Status
		err    string
	}{
		{"isError", func(context.Context) (json.RawMessage, error) {
			return json.RawMessage(`{"content":[{"type":"text","text":"scanner crashed"}],"isError":true}`), nil
		}, StatusFailed, "MCP tool returned an error: scanner crashed"},
		{"host error (missing server)", func(context.Context) (json.RawMessage, error) {
			return nil, errors.New(`unknown MCP server "security"`)
		}, StatusFailed, `MCP tool scan on server security: unknown MCP server "security"`},
		{"not a CallToolResult", func(context.Context) (json.RawMessage, error) {
			return json.RawMessage(`"just a string"`), nil
		}, StatusFailed, `MCP tool returned an invalid result: want a CallToolResult object, got "just a string"`},
		{"timeout", func(ctx context.Context) (json.RawMessage, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, StatusTimedOut, "hook timed out after 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := newFakeHost(func(ctx context.Context, call ToolCall) (json.RawMessage, error) { return tc.answer(ctx) })
			e := newHostEngine(t, `{"PreToolUse": [{"hooks": [
				{"type": "mcp_tool", "server": "security", "tool": "scan", "timeout": 1}]}]}`, host, 0)
			res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "")
			if err != nil {
				t.Fatal(err)
			}
			h := res.Hooks[0]
			if res.Decision != DecisionNone || h.Status != tc.status || h.Error == nil || *h.Error != tc.err {
				t.Errorf("decision %s status %s error %v, want %s %q", res.Decision, h.Status, strOr(h.Error), tc.status, tc.err)
			}
		})
	}
}

func strOr(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestMCPTool_WithoutHostFailsWithReason(t *testing.T) {
	e := newHostEngine(t, `{"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]}`, nil, 0)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if h := res.Hooks[0]; h.Status != StatusFailed || !strings.Contains(*h.Error, "no host to call MCP tools (hookd run has none)") {
		t.Errorf("hook %+v error %s", h, strOr(h.Error))
	}
}

func TestMCPTool_CancelledRunIsAnError(t *testing.T) {
	started := make(chan struct{})
	host := newFakeHost(func(ctx context.Context, call ToolCall) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	e := newHostEngine(t, `{"Stop": [{"hooks": [{"type": "mcp_tool", "server": "s", "tool": "t"}]}]}`, host, 0)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := e.Run(ctx, "Stop", nil, ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
}

func TestReadToolResult(t *testing.T) {
	for _, tc := range []struct{ name, res, stdout, err string }{
		{"one text item", `{"content":[{"type":"text","text":"{\"decision\":\"block\",\"reason\":\"x\"}"}]}`, `{"decision":"block","reason":"x"}`, ""},
		{"texts joined by newlines", `{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "a\nb", ""},
		{"structuredContent wins", `{"content":[{"type":"text","text":"summary"}],"structuredContent":{"decision":"block","reason":"s"}}`, `{"decision":"block","reason":"s"}`, ""},
		{"null structuredContent ignored", `{"content":[{"type":"text","text":"t"}],"structuredContent":null}`, "t", ""},
		{"the JSON item among several", `{"content":[{"type":"text","text":"Scan finished."},{"type":"text","text":" {\"continue\":false} "}]}`, `{"continue":false}`, ""},
		{"non-text items ignored", `{"content":[{"type":"resource","resource":{}},{"type":"text","text":"t"}]}`, "t", ""},
		{"no content", `{}`, "", ""},
		{"isError without text", `{"content":[],"isError":true}`, "", "MCP tool returned an error"},
		{"isError false", `{"content":[{"type":"text","text":"ok"}],"isError":false}`, "ok", ""},
		{"content not an array", `{"content":{"type":"text"}}`, "", "MCP tool returned an invalid result: content must be an array"},
		{"null result", `null`, "", "MCP tool returned an invalid result: want a CallToolResult object, got null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readToolResult(json.RawMessage(tc.res))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("got %q, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.stdout {
				t.Errorf("got %q, %v; want %q", got, err, tc.stdout)
			}
		})
	}
}
