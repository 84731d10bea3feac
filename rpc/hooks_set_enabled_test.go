package rpc

import (
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

func TestHooksSetEnabled_DisablesAndReportsTheStateAfterReload(t *testing.T) {
	home, key := trustHome(t)
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home, "bypassTrust": true}})
	res, err := h.call(t, "hooks/setEnabled", map[string]any{"key": key, "enabled": false})
	if err != nil {
		t.Fatal(err)
	}
	if res.Get("key").Str != key || res.Get("enabled").Bool() {
		t.Errorf("hooks/setEnabled = %s", res.Raw)
	}
	run, err := h.call(t, "hooks/run", map[string]any{"event": "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	if run.Get("skipped.0.reason").Str != "disabled" || run.Get("hooks.#").Int() != 0 {
		t.Errorf("disabled hook ran (bypass does not override enabled): %s", run.Raw)
	}
	if _, err := h.call(t, "hooks/setEnabled", map[string]any{"key": key, "enabled": "no"}); codeOf(err) != jsonrpc2.CodeInvalidParams || !strings.Contains(err.Error(), "enabled") {
		t.Errorf("enabled of the wrong type: %v", err)
	}
	if _, err := h.call(t, "hooks/setEnabled", map[string]any{"enabled": true}); codeOf(err) != jsonrpc2.CodeInvalidParams || !strings.Contains(err.Error(), `"key"`) {
		t.Errorf("missing key: %v", err)
	}
}
