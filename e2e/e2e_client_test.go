package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hookd/hookd/client"
)

// strictDecode decodes raw into v and fails on any field v does not declare:
// the Go client's types must cover everything hookd sends.
func strictDecode(t *testing.T, what string, raw json.RawMessage, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s: client types miss a field hookd sends: %v\n%s", what, err, raw)
	}
}

func TestClient_TypedResultsCoverEveryFieldHookdSends(t *testing.T) {
	home := testHome(t, `{
		"PreToolUse": [{"matcher": "Bash", "hooks": [
			{"type": "command", "statusMessage": "Checking", "command": "echo '{\"systemMessage\":\"careful\",\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\",\"additionalContext\":\"noted\"}}'"},
			{"type": "command", "command": "echo oops >&2; exit 3"}]}],
		"PermissionRequest": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PermissionRequest\",\"decision\":{\"behavior\":\"deny\",\"message\":\"not now\"}}}'"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"again\"}'", "bogus": true}]}]}`)
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)

	raw, err := c.Initialize(ctx, client.InitializeParams{
		Session: &client.SessionParams{ID: "sess_typed", Cwd: t.TempDir(), Model: "gpt-5"},
		Config:  &client.ConfigParams{Home: home, BypassTrust: new(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	var init client.InitializeResult
	strictDecode(t, "initialize", raw, &init)
	if init.Session.ID != "sess_typed" || !reflect.DeepEqual(init.Hooks, client.Summary{Installed: 4, Runnable: 4, Warnings: 1}) {
		t.Errorf("initialize = %+v", init)
	}

	for _, run := range []client.RunParams{
		{Event: "PreToolUse", TurnID: "t1", Input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}},
		{Event: "PermissionRequest", Input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}},
		{Event: "Stop"},
	} {
		var raw json.RawMessage
		if err := c.Call(ctx, "hooks/run", run, &raw); err != nil {
			t.Fatal(err)
		}
		var res client.RunResult
		strictDecode(t, run.Event, raw, &res)
	}

	res, err := c.RunEvent(ctx, client.RunParams{Event: "PreToolUse", Input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Blocks() || res.Decision != client.DecisionDeny || res.Reason != "no" || res.AdditionalContext[0].Text != "noted" || res.SystemMessages[0].Text != "careful" {
		t.Errorf("RunEvent = %+v", res)
	}
	if len(res.Hooks) != 2 || res.Hooks[0].Status != client.StatusBlocked || res.Hooks[1].Status != client.StatusFailed ||
		*res.Hooks[1].ExitCode != 3 || res.Hooks[1].Stderr != "oops\n" || *res.Hooks[1].Error != "hook exited with code 3" {
		t.Errorf("RunEvent hooks = %+v", res.Hooks)
	}
	perm, err := c.RunEvent(ctx, client.RunParams{Event: "PermissionRequest", Input: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}})
	if err != nil || perm.Permission == nil || *perm.Permission != (client.Permission{Behavior: "deny", Message: "not now"}) {
		t.Errorf("PermissionRequest = %+v, %v", perm, err)
	}

	if err := c.Call(ctx, "hooks/list", map[string]any{}, &raw); err != nil {
		t.Fatal(err)
	}
	var list client.ListResult
	strictDecode(t, "hooks/list", raw, &list)
	typed, err := c.List(ctx, "Stop")
	if err != nil || len(typed.Hooks) != 1 || typed.Hooks[0].Source.Layer != "user" || typed.Hooks[0].Matcher != nil || !typed.Hooks[0].Runnable || !typed.Hooks[0].Bypassed {
		t.Errorf("List(Stop) = %+v, %v", typed, err)
	}
	if len(list.Warnings) != 1 || list.Warnings[0].Event != "Stop" || *list.Warnings[0].Group != 0 {
		t.Errorf("warnings = %+v", list.Warnings)
	}
	bash := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}}
	if err := c.Call(ctx, "hooks/explain", client.RunParams{Event: "PreToolUse", Input: bash}, &raw); err != nil {
		t.Fatal(err)
	}
	var explained client.ExplainResult
	strictDecode(t, "hooks/explain", raw, &explained)
	ex, err := c.Explain(ctx, client.RunParams{Event: "PreToolUse", Input: bash})
	if err != nil || len(ex.Hooks) != 4 || !ex.Hooks[0].Runs || ex.Hooks[0].MatchedAgainst[0] != "Bash" || ex.Hooks[0].Line == 0 ||
		ex.Hooks[2].Runs || ex.Hooks[2].Reason != "otherEvent" {
		t.Errorf("Explain = %+v, %v", ex, err)
	}
	sum, err := c.Reload(ctx)
	if err != nil || !reflect.DeepEqual(*sum, init.Hooks) {
		t.Errorf("Reload = %+v, %v; want %+v", sum, err, init.Hooks)
	}
	_, err = c.RunEvent(ctx, client.RunParams{Event: "Nope"})
	if client.Code(err) != client.CodeInvalidParams {
		t.Errorf("unknown event: %v, want code %d", err, client.CodeInvalidParams)
	}
	var n client.LogMessageParams
	if err := (<-c.Notifications).Decode(&n); err != nil || n.Type != 2 {
		t.Errorf("first notification: %+v, %v; want the discovery warning", n, err)
	}
	if code, err := c.Close(ctx); code != 0 || err != nil {
		t.Errorf("Close = %d, %v", code, err)
	}
}
