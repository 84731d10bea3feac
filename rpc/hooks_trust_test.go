package rpc

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// trustHome is a user folder with one Stop hook; it returns the folder and
// the hook's key.
func trustHome(t *testing.T) (string, string) {
	t.Helper()
	home := t.TempDir()
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return home, filepath.Join(home, "hooks.json") + ":stop:0:0"
}

func (h *harness) call(t *testing.T, method string, params any) (gjson.Result, error) {
	t.Helper()
	var res any
	err := h.conn.Call(context.Background(), method, params, &res)
	b, _ := json.Marshal(res)
	return gjson.ParseBytes(b), err
}

func TestHooksTrust_RecordsTheListedHashAndReloads(t *testing.T) {
	home, key := trustHome(t)
	h := newHarness(t)
	if got := h.init(t, map[string]any{"config": map[string]any{"home": home}}); got.Get("hooks.runnable").Int() != 0 {
		t.Fatalf("untrusted hook counted runnable: %s", got.Raw)
	}
	list, err := h.call(t, "hooks/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	hash := list.Get("hooks.0.hash").Str
	res, err := h.call(t, "hooks/trust", map[string]any{"keys": []string{" " + key}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Get("trusted.0.key").Str != key || res.Get("trusted.0.hash").Str != hash {
		t.Errorf("hooks/trust = %s, want %s %s", res.Raw, key, hash)
	}
	list, _ = h.call(t, "hooks/list", nil)
	if list.Get("hooks.0.trust").Str != "trusted" || !list.Get("hooks.0.runnable").Bool() {
		t.Errorf("not reloaded after trust: %s", list.Raw)
	}
	data, _ := os.ReadFile(filepath.Join(home, "config.toml"))
	if !strings.Contains(string(data), hash) {
		t.Errorf("config.toml: %s", data)
	}
}

func TestHooksTrust_UnwritableStateIsInternalErrorAndLosesNothing(t *testing.T) {
	home, key := trustHome(t)
	path := filepath.Join(home, "config.toml")
	bad := "model = \n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home}})
	_, err := h.call(t, "hooks/trust", map[string]any{"keys": []string{key}})
	if codeOf(err) != jsonrpc2.CodeInternalError || !strings.Contains(err.Error(), "not valid TOML") || !strings.Contains(err.Error(), path) {
		t.Errorf("trust with a broken config.toml: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Errorf("config.toml changed to %q", data)
	}
}
