package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
	"github.com/hookd/hookd/spill"
)

// startSoong spawns "hookd serve" and initializes a soong session on the
// shipped demo home with the given extra config.
func startSoong(t *testing.T, config map[string]any) (*client.Client, json.RawMessage, error) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	return startProfile(t, "soong", "soong_e2e", mustAbs(t, filepath.Join("..", "fixtures", "profiles", "soong", "home")), config)
}

func TestServe_SoongSessionOverRealPipes(t *testing.T) {
	t.Setenv("SOONG_DEMO_SECRET", "s3cret")
	c, init, err := startSoong(t, map[string]any{"envAllowlist": []string{"PATH", "SOONG_DEMO_SECRET"}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	in := gjson.ParseBytes(init)
	if in.Get("profile").Str != "soong" || in.Get("capabilities.handlerTypes").Raw != `["command"]` ||
		in.Get("capabilities.events").Raw != `["SessionStart","UserPromptSubmit","PreToolUse","PostToolUse","Stop"]` ||
		in.Get("hooks.installed").Int() != 7 || in.Get("hooks.runnable").Int() != 7 {
		t.Fatalf("initialize result %s", init)
	}
	ctx := context.Background()

	// The host's allowlist replaces the default one.
	res, err := c.Run(ctx, "SessionStart", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(res, "hooks.0.metadata.secret").Str; got != "s3cret" {
		t.Errorf("secret %q through the host's allowlist: %s", got, res)
	}

	// A deny over the wire, with the hooks after it reported.
	res, err = c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "c1", "tool_input": map[string]any{"command": "rm -rf /"}})
	if err != nil {
		t.Fatal(err)
	}
	r := gjson.ParseBytes(res)
	if r.Get("decision").Str != "deny" || r.Get("hooks.#").Int() != 2 || r.Get("skipped.0.reason").Str != "afterDeny" ||
		r.Get("hooks.1.logs.0").Str != "guard: denied" {
		t.Fatalf("PreToolUse %s", res)
	}

	// A large tool result becomes an artifact in the session's spill folder,
	// which goes when the session ends.
	big := strings.Repeat("0123456789abcdef\n", 1000)
	res, err = c.Run(ctx, "PostToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": "big.log"}, "tool_response": big})
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(res, "hooks.0.metadata.artifact_bytes").Int(); got != int64(len(big)) || gjson.GetBytes(res, "decision").Str != "none" {
		t.Fatalf("PostToolUse %s", res)
	}
	entries, err := os.ReadDir(spill.Dir("soong_e2e"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("spill folder: %v %v", entries, err)
	}
	if code, err := c.Close(ctx); err != nil || code != 0 {
		t.Fatalf("close: %d %v", code, err)
	}
	if _, err := os.Stat(spill.Dir("soong_e2e")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("artifact folder left after shutdown: %v", err)
	}
}

func TestServe_SoongIgnoresCodexSourcesAndPerHookState(t *testing.T) {
	c, _, err := startSoong(t, map[string]any{
		"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "true"}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	msg := waitLog(t, c, "ignoring session hooks (config.hooks)")
	if !strings.Contains(msg, "reads hooks only from") {
		t.Errorf("log message %q", msg)
	}
	var list struct {
		Hooks []struct {
			Key string `json:"key"`
		} `json:"hooks"`
	}
	if err := c.Call(context.Background(), "hooks/list", map[string]any{"event": "Stop"}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Hooks) != 1 || strings.HasPrefix(list.Hooks[0].Key, "session:") {
		t.Fatalf("Stop hooks %+v", list.Hooks)
	}
	// No per-hook state to record: setEnabled is refused and writes nothing.
	err = c.Call(context.Background(), "hooks/setEnabled", map[string]any{"key": list.Hooks[0].Key, "enabled": false}, nil)
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), "the soong profile has no per-hook enable switch") {
		t.Fatalf("setEnabled: %v", err)
	}
}

func TestServe_SoongRejectsABadEnvAllowlist(t *testing.T) {
	_, _, err := startSoong(t, map[string]any{"envAllowlist": []string{"PATH", "A=B"}})
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), `config.envAllowlist: entry 1 ("A=B") is not a variable name`) {
		t.Fatalf("err %v", err)
	}
}
