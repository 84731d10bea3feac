package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
	"github.com/hookd/hookd/spill"
)

// startServeHost is startServe for a host that answers mcp/callTool. The
// answer func is set before initialize, so no request can miss it.
func startServeHost(t *testing.T, home string, callTool func(ctx context.Context, params json.RawMessage) (any, error)) *client.Client {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	c.CallTool = callTool
	if _, err := c.Initialize(ctx, map[string]any{
		"processId": os.Getpid(),
		"session":   map[string]any{"id": "sess_mcp", "cwd": t.TempDir(), "model": "gpt-5"},
		"config":    map[string]any{"home": home, "bypassTrust": true},
	}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

func TestServe_MCPToolHookAnsweredByTheHostOverRealPipes(t *testing.T) {
	home := testHome(t, `{
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "mcp_tool", "server": "security", "tool": "scan",
			"timeout": 20, "statusMessage": "Scanning command", "input": {"command": "${tool_input.command}", "session": "${session_id}", "limits": {"max": "${tool_input.max}"}}}]}],
		"UserPromptSubmit": [{"hooks": [{"type": "mcp_tool", "server": "gone", "tool": "recall", "input": {"q": "${prompt}"}}]}]}`)
	var mu sync.Mutex
	var calls []string
	c := startServeHost(t, home, func(ctx context.Context, params json.RawMessage) (any, error) {
		mu.Lock()
		calls = append(calls, string(params))
		mu.Unlock()
		p := gjson.ParseBytes(params)
		if p.Get("server").Str != "security" {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: "unknown MCP server " + p.Get("server").Raw}
		}
		if strings.Contains(p.Get("arguments.command").Str, "rm ") {
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "scan complete"}},
				"structuredContent": map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse",
					"permissionDecision": "deny", "permissionDecisionReason": "MCP blocked " + p.Get("arguments.command").Str}}}, nil
		}
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "clean"}}}, nil
	})
	ctx := context.Background()

	res, err := c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "c1", "tool_input": map[string]any{"command": "rm important.txt", "max": 3}})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "decision").Str != "deny" || gjson.GetBytes(res, "reason").Str != "MCP blocked rm important.txt" {
		t.Fatalf("result %s", res)
	}
	mu.Lock()
	first := gjson.Parse(calls[0])
	mu.Unlock()
	// (The Go host's JSON-RPC library decodes params into a map, so the keys
	// arrive sorted.)
	if first.Get("tool").Str != "scan" || first.Get("timeoutMs").Int() != 20000 ||
		first.Get("arguments").Raw != `{"command":"rm important.txt","limits":{"max":3},"session":"sess_mcp"}` {
		t.Errorf("mcp/callTool params %s", first.Raw)
	}
	var states []string
	for len(states) < 2 {
		n := <-c.Notifications
		if n.Method == "hooks/status" {
			p := gjson.ParseBytes(n.Params)
			if p.Get("runId").Str != gjson.GetBytes(res, "runId").Str || p.Get("statusMessage").Str != "Scanning command" {
				t.Errorf("hooks/status %s", n.Params)
			}
			states = append(states, p.Get("state").Str)
		}
	}
	if strings.Join(states, ",") != "started,finished" {
		t.Errorf("status states %v", states)
	}

	// A plain answer is plain stdout: ignored on PreToolUse.
	res, err = c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls", "max": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "decision").Str != "none" || gjson.GetBytes(res, "hooks.0.status").Str != "succeeded" {
		t.Errorf("clean scan %s", res)
	}

	// A missing field: the hook fails, the tool is not called.
	mu.Lock()
	before := len(calls)
	mu.Unlock()
	res, err = c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	after := len(calls)
	mu.Unlock()
	if after != before || gjson.GetBytes(res, "hooks.0.error").Str != "hook input placeholder `${tool_input.max}` was not found" {
		t.Errorf("missing field: %d calls, result %s", after-before, res)
	}

	// A server the host does not have: a JSON-RPC error, which never blocks.
	res, err = c.Run(ctx, "UserPromptSubmit", map[string]any{"prompt": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "decision").Str != "none" || gjson.GetBytes(res, "hooks.0.status").Str != "failed" ||
		!strings.Contains(gjson.GetBytes(res, "hooks.0.error").Str, `unknown MCP server "gone"`) {
		t.Errorf("missing server %s", res)
	}
}

func TestServe_SessionEndAnswersThenCleansUp(t *testing.T) {
	home := testHome(t, `{
		"SessionStart": [{"hooks": [{"type": "command", "command": "head -c 40000 /dev/zero | tr '\\0' x"}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": "echo '{\"continue\":false,\"decision\":\"block\"}'"}]}]}`)
	c := startServe(t, home, nil)
	ctx := context.Background()
	res, err := c.Run(ctx, "SessionStart", map[string]any{"source": "startup"})
	if err != nil {
		t.Fatal(err)
	}
	dir := spill.Dir("sess_test")
	if p := gjson.GetBytes(res, "additionalContext.0.spilled").Str; !strings.HasPrefix(p, dir) {
		t.Fatalf("no spill in %s: %s", dir, res)
	}
	res, err = c.Run(ctx, "SessionEnd", map[string]any{"reason": "other"})
	if err != nil {
		t.Fatal(err)
	}
	// Output is ignored: nothing stops, nothing blocks.
	if gjson.GetBytes(res, "decision").Str != "none" || !gjson.GetBytes(res, "continue").Bool() {
		t.Errorf("SessionEnd output was applied: %s", res)
	}
	// The folder goes once the answer is out; hookd keeps serving.
	waitGone(t, dir)
	if err := c.Call(ctx, "hooks/list", nil, nil); err != nil {
		t.Errorf("after SessionEnd: %v", err)
	}
}

// waitGone waits (bounded) for a path to disappear: hookd removes it after
// its answer, with no message to wait on.
func waitGone(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still exists", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
