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

// startClaude spawns hookd serve and initializes a claude session on the
// fixture user folder and project, with the fixture plugin.
func startClaude(t *testing.T, env ...string) (*client.Client, json.RawMessage) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	fx, err := filepath.Abs(filepath.Join("..", "fixtures", "profiles", "claude"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	project := filepath.Join(fx, "project")
	res, err := c.Initialize(ctx, map[string]any{
		"processId": os.Getpid(),
		"profile":   "claude",
		"session":   map[string]any{"id": "sess_claude", "cwd": project, "permissionMode": "acceptEdits"},
		"config": map[string]any{
			"home":    filepath.Join(fx, "home"),
			"project": map[string]any{"root": project, "trusted": true},
			"plugins": []map[string]any{{"root": filepath.Join(fx, "plugins", "claude-guard"), "dataDir": t.TempDir()}},
		},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c, res
}

func TestServeClaude_InitializeListsTheProfileAndItsEvents(t *testing.T) {
	_, res := startClaude(t)
	if p := gjson.GetBytes(res, "profile").Str; p != "claude" {
		t.Fatalf("profile %q", p)
	}
	events := gjson.GetBytes(res, "capabilities.events").Array()
	if len(events) != 34 || events[0].Str != "SessionStart" || events[32].Str != "SessionEnd" || events[33].Str != "PreSkillShellCommand" {
		t.Fatalf("events %v", events)
	}
	// Every hook runs: the profile has no review.
	if inst, run := gjson.GetBytes(res, "hooks.installed").Int(), gjson.GetBytes(res, "hooks.runnable").Int(); inst == 0 || inst != run {
		t.Fatalf("installed %d, runnable %d", inst, run)
	}
}

// The Stop cap needs state across runs, so it is tested through a session:
// the fixture's Stop hook blocks until the checks pass; Claude Code honours 8
// blocks in a row, then lets the agent stop.
func TestServeClaude_StopBlocksAreOverriddenAfterEightInARow(t *testing.T) {
	c, _ := startClaude(t)
	ctx := context.Background()
	stop := map[string]any{"stop_hook_active": true, "last_assistant_message": "still working"}
	for i := 1; i <= 8; i++ {
		res, err := c.Run(ctx, "Stop", stop)
		if err != nil {
			t.Fatal(err)
		}
		if d := gjson.GetBytes(res, "decision").Str; d != "block" {
			t.Fatalf("block %d: decision %s: %s", i, d, res)
		}
	}
	res, err := c.Run(ctx, "Stop", stop)
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.GetBytes(res, "decision").Str; d != "none" || gjson.GetBytes(res, "continuation").Exists() {
		t.Fatalf("ninth block not overridden: %s", res)
	}
	if msg := gjson.GetBytes(res, "systemMessages.0.text").Str; !strings.Contains(msg, "Stop hooks blocked 8 times in a row") {
		t.Fatalf("no word to the user: %s", res)
	}
	// The count starts again: the next Stop blocks.
	res, err = c.Run(ctx, "Stop", stop)
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.GetBytes(res, "decision").Str; d != "block" {
		t.Fatalf("after the override: %s", res)
	}
}

func TestServeClaude_HookInputAndEnvironmentAreClaudeShaped(t *testing.T) {
	c, _ := startClaude(t)
	ctx := context.Background()
	// The plugin's env guard (if: Edit(.env*)) denies .env edits; the deny
	// comes without a reason, and permission_mode from the session reaches
	// the hooks.
	res, err := c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "toolu_9",
		"tool_input": map[string]any{"file_path": "/repo/.env", "old_string": "A=0", "new_string": "A=1"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.GetBytes(res, "decision").Str; d != "deny" {
		t.Fatalf("decision %s: %s", d, res)
	}
	res, err = c.Run(ctx, "SessionStart", map[string]any{"source": "resume"})
	if err != nil {
		t.Fatal(err)
	}
	texts := gjson.GetBytes(res, "additionalContext.#.text").String()
	if !strings.Contains(texts, "(project: project)") || !strings.Contains(texts, "claude-guard loaded from ") {
		t.Fatalf("context %s", texts)
	}
}
