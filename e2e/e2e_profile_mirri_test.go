package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// mirriHome writes a Mirri user folder whose config.toml is doc.
func mirriHome(t *testing.T, doc string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// startMirri spawns "hookd serve" and sends initialize with the mirri
// profile, home as config.home and config merged in; it returns the client
// and initialize's result or error.
func startMirri(t *testing.T, home string, config map[string]any) (*client.Client, json.RawMessage, error) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("MIRRICODE_EXPERIMENTAL_HOOK_COMMAND_REWRITE", "")
	return startProfile(t, "mirri", "sess_mirri", home, config)
}

func TestServeMirri_InitializeRefusesAConfigThatDoesNotLoad(t *testing.T) {
	home := mirriHome(t, "[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\nasync = true\n")
	_, _, err := startMirri(t, home, nil)
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), `line 4: unknown field "async"`) ||
		!strings.Contains(err.Error(), filepath.Join(home, "config.toml")) {
		t.Fatalf("initialize: %v; want -32602 naming the file, the line and the field", err)
	}
}

func TestServeMirri_InitializeReportsTheProfile(t *testing.T) {
	c, res, err := startMirri(t, mirriHome(t, "[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(res, "profile").Str != "mirri" || gjson.GetBytes(res, "capabilities.events.#").Int() != 19 ||
		gjson.GetBytes(res, "hooks.runnable").Int() != 1 {
		t.Fatalf("initialize result %s", res)
	}
	var list json.RawMessage
	if err := c.Call(context.Background(), "hooks/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	key := gjson.GetBytes(list, "hooks.0.key").Str
	if !strings.HasSuffix(key, "config.toml:stop:0:0") || gjson.GetBytes(list, "hooks.0.handler.timeout").Int() != 30 {
		t.Fatalf("hooks/list %s", list)
	}
	err = c.Call(context.Background(), "hooks/setEnabled", map[string]any{"key": key, "enabled": false}, nil)
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), "no per-hook enable switch") {
		t.Fatalf("hooks/setEnabled: %v; want -32602", err)
	}
}

// The spec: a Stop deny continues the conversation at most once per turn.
// hookd keeps that across hooks/run calls of one session.
func TestServeMirri_StopContinuesAtMostOncePerTurn(t *testing.T) {
	c, _, err := startMirri(t, mirriHome(t, `
[[hooks]]
event = "Stop"
command = "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"keep going\"}}'"
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := func(event, turn string) string {
		t.Helper()
		var res json.RawMessage
		params := map[string]any{"event": event, "input": map[string]any{}}
		if turn != "" {
			params["turnId"] = turn
		}
		if err := c.Call(ctx, "hooks/run", params, &res); err != nil {
			t.Fatal(err)
		}
		if event != "Stop" {
			return ""
		}
		if d := gjson.GetBytes(res, "decision").Str; d == "block" && gjson.GetBytes(res, "continuation").Str == "keep going" {
			return "continue"
		}
		if !strings.Contains(gjson.GetBytes(res, "systemMessages.0.text").Str, "continuation already used this turn") {
			t.Errorf("capped Stop without a note: %s", res)
		}
		return "end"
	}
	// Without turn ids: the Stop right after a continuation is the same turn.
	got := []string{run("Stop", ""), run("Stop", "")}
	run("UserPromptSubmit", "")
	got = append(got, run("Stop", ""), run("Stop", ""), run("Stop", ""))
	// With the host's turn ids.
	got = append(got, run("Stop", "t1"), run("Stop", "t1"), run("Stop", "t2"))
	if want := "continue,end,continue,end,continue,continue,end,continue"; strings.Join(got, ",") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}

func TestServeMirri_FeaturesSelectTheRewriteEngine(t *testing.T) {
	home := mirriHome(t, `
[[hooks]]
event = "PreToolUse"
command = "echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"rg TODO\"}}}'"
[[hooks]]
event = "RewriteToolInput"
command = "echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"my-tool grep TODO\"}}}'"
`)
	input := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "grep TODO"}, "tool_call_id": "c1"}
	for _, tc := range []struct {
		name     string
		features map[string]any
		pre      string // PreToolUse updatedInput.command
		rewrite  string // RewriteToolInput updatedInput.command, or the skip reason
	}{
		{"flag off", nil, "", "rewriteDisabled"},
		{"v1 with the flag", map[string]any{"hookCommandRewrite": true}, "", "my-tool grep TODO"},
		{"v2 with the flag", map[string]any{"hookCommandRewrite": true, "hookEngine": "v2"}, "rg TODO", "unsupportedByEngine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := startMirri(t, home, map[string]any{"features": tc.features})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			res, err := c.Run(ctx, "PreToolUse", input)
			if err != nil {
				t.Fatal(err)
			}
			if got := gjson.GetBytes(res, "updatedInput.command").Str; got != tc.pre {
				t.Errorf("PreToolUse rewrite %q, want %q: %s", got, tc.pre, res)
			}
			res, err = c.Run(ctx, "RewriteToolInput", input)
			if err != nil {
				t.Fatal(err)
			}
			got := gjson.GetBytes(res, "updatedInput.command").Str
			if got == "" {
				got = gjson.GetBytes(res, "skipped.0.reason").Str
			}
			if got != tc.rewrite {
				t.Errorf("RewriteToolInput: %q, want %q: %s", got, tc.rewrite, res)
			}
		})
	}
	for _, bad := range []map[string]any{{"hookEngine": "v3"}, {"hookCommandRewrite": "maybe"}, {"hookEngine": []int{2}}} {
		_, _, err := startMirri(t, home, map[string]any{"features": bad})
		if rpcCode(err) != -32602 || !strings.Contains(err.Error(), "config.features.") {
			t.Errorf("features %v: %v; want -32602 naming the feature", bad, err)
		}
	}
}
