package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// A claude prompt hook under hookd serve: hookd sends the host
// model/evaluate with the prompt ($ARGUMENTS replaced by the compact input)
// and the handler's model, and reads {ok, reason} as Claude Code does. A
// host that did not say capabilities.evaluate gets no request, and the hook
// fails saying why.
func TestServeClaude_PromptHookAsksTheHost(t *testing.T) {
	home := t.TempDir()
	settings := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "prompt", "prompt": "Judge: $ARGUMENTS", "model": "claude-haiku-4-5", "continueOnBlock": true}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	start := func(evaluate bool) (*client.Client, *[]json.RawMessage) {
		ctx := context.Background()
		c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "error")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Kill)
		var mu sync.Mutex
		var asked []json.RawMessage
		c.Evaluate = func(_ context.Context, p json.RawMessage) (any, error) {
			mu.Lock()
			asked = append(asked, p)
			mu.Unlock()
			return map[string]any{"ok": false, "reason": "too risky"}, nil
		}
		init := map[string]any{"profile": "claude", "session": map[string]any{"id": "s1", "cwd": home},
			"config": map[string]any{"home": home}}
		if evaluate {
			init["capabilities"] = map[string]any{"evaluate": true}
		}
		if _, err := c.Initialize(ctx, init); err != nil {
			t.Fatal(err)
		}
		return c, &asked
	}
	input := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"}, "tool_use_id": "t1"}

	c, asked := start(true)
	res, err := c.Run(context.Background(), "PreToolUse", input)
	if err != nil {
		t.Fatal(err)
	}
	r := gjson.ParseBytes(res)
	if r.Get("decision").Str != "deny" || r.Get("reason").Str != "[Judge: $ARGUMENTS]: too risky" || !r.Get("continue").Bool() {
		t.Fatalf("result %s", res)
	}
	if len(*asked) != 1 {
		t.Fatalf("model/evaluate requests: %d", len(*asked))
	}
	req := gjson.ParseBytes((*asked)[0])
	if req.Get("kind").Str != "prompt" || req.Get("model").Str != "claude-haiku-4-5" || req.Get("runId").Str != r.Get("runId").Str ||
		req.Get("input.tool_input.command").Str != "rm -rf build" {
		t.Errorf("request %s", (*asked)[0])
	}
	// $ARGUMENTS is the input as one line of compact JSON.
	var inPrompt, inRequest map[string]any
	p := req.Get("prompt").Str
	if !strings.HasPrefix(p, "Judge: {") || strings.Contains(p, "\n") ||
		json.Unmarshal([]byte(p[len("Judge: "):]), &inPrompt) != nil || json.Unmarshal([]byte(req.Get("input").Raw), &inRequest) != nil ||
		!reflect.DeepEqual(inPrompt, inRequest) {
		t.Errorf("prompt %q", p)
	}

	c, asked = start(false)
	res, err = c.Run(context.Background(), "PreToolUse", input)
	if err != nil {
		t.Fatal(err)
	}
	r = gjson.ParseBytes(res)
	if len(*asked) != 0 || r.Get("decision").Str != "none" || r.Get("hooks.0.status").Str != "failed" ||
		r.Get("hooks.0.error").Str == "" {
		t.Fatalf("without the capability: %d requests, result %s", len(*asked), res)
	}
}
