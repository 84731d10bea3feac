package claude

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
)

// notesHost records the notifications the engine sends.
type notesHost struct{ async chan hooks.AsyncResult }

func (h notesHost) CallTool(context.Context, hooks.ToolCall) (json.RawMessage, error) {
	return nil, errors.New("no MCP here")
}

func (h notesHost) Notify(method string, params any) {
	if ar, ok := params.(hooks.AsyncResult); ok && method == hooks.MethodAsyncCompleted {
		h.async <- ar
	}
}

// An asyncRewake hook that exits 2 hands its stderr to the host with its
// async result, labelled with its command, for the model's next request
// (Claude Code 2.1.332); one that exits 0 hands nothing.
func TestClaudeAsyncRewake_Exit2DeliversStderr(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("PostToolUse", `[{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "cat >/dev/null; echo 'tests failed: 3' >&2; exit 2", "asyncRewake": true},
		{"type": "command", "command": "cat >/dev/null; echo fine >&2", "asyncRewake": true}]}]`)})
	host := notesHost{async: make(chan hooks.AsyncResult, 2)}
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Host = host })
	res := claudeRun(t, e, "PostToolUse", `{"tool_name": "Bash", "tool_input": {"command": "make"}, "tool_response": {}}`)
	if res.Hooks[0].Status != hooks.StatusStarted || res.Decision != hooks.DecisionNone {
		t.Fatalf("the hooks did not start in the background: %+v", res)
	}
	got := map[string]string{}
	for range 2 {
		select {
		case ar := <-host.async:
			got[ar.Hook] = ar.Rewake
		case <-time.After(30 * time.Second):
			t.Fatal("no hooks/asyncCompleted")
		}
	}
	want := "[cat >/dev/null; echo 'tests failed: 3' >&2; exit 2]: tests failed: 3"
	if got[res.Hooks[0].Key] != want || got[res.Hooks[1].Key] != "" {
		t.Fatalf("rewake texts %q", got)
	}
}

// onFailure: "block" turns a failure (here exit 1, and a command that
// cannot start) into a block worded as Claude Code words it; without it a
// failure never blocks.
func TestClaudeOnFailure_BlockTurnsAFailureIntoADeny(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("PreToolUse", `[
		{"matcher": "Write", "hooks": [{"type": "command", "command": "cat >/dev/null; exit 1", "onFailure": "block"}]},
		{"matcher": "Edit", "hooks": [{"type": "command", "command": "cat >/dev/null; exit 1"}]},
		{"matcher": "Read", "hooks": [{"type": "command", "command": "cat >/dev/null; echo 'not {json' ; echo oops >&2; exit 3", "onFailure": "block"}]}]`)})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Write", "tool_input": {"file_path": "/x"}}`)
	want := "[cat >/dev/null; exit 1]: failed; blocking because onFailure is \"block\"\nNo stderr output"
	if res.Decision != hooks.DecisionDeny || res.Reason != want {
		t.Fatalf("Write: decision %s reason %q, want deny %q", res.Decision, res.Reason, want)
	}
	if res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Edit", "tool_input": {"file_path": "/x"}}`); res.Decision != hooks.DecisionNone {
		t.Fatalf("Edit without onFailure: %s", res.Decision)
	}
	res = claudeRun(t, e, "PreToolUse", `{"tool_name": "Read", "tool_input": {"file_path": "/x"}}`)
	if res.Decision != hooks.DecisionDeny || !strings.HasSuffix(res.Reason, "\noops") {
		t.Fatalf("Read: decision %s reason %q", res.Decision, res.Reason)
	}
}
