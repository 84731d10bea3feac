package rpc

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/sourcegraph/jsonrpc2"
)

func TestHooksSetEnabled_HeldLockDoesNotStopTheReader(t *testing.T) {
	// Another process (a stuck `hookd trust`, a second session) holds
	// config.toml.lock. While hooks/setEnabled waits for it, later requests
	// and $/cancelRequest must still be read and answered.
	home, key := trustHome(t)
	lock := flock.New(filepath.Join(home, "config.toml.lock"))
	if err := lock.Lock(); err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home, "bypassTrust": true}})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a wedge fails, never hangs
	defer cancel()
	setID := jsonrpc2.ID{Num: 900}
	waiting, err := h.conn.DispatchCall(ctx, "hooks/setEnabled", map[string]any{"key": key, "enabled": false}, jsonrpc2.PickID(setID))
	if err != nil {
		t.Fatal(err)
	}
	// Read after the setEnabled: it runs once the setEnabled is done, so it
	// cannot answer before the cancel below is read.
	listed, err := h.conn.DispatchCall(ctx, "hooks/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Notify(ctx, "$/cancelRequest", map[string]any{"id": 900}); err != nil {
		t.Fatal(err)
	}
	if err := waiting.Wait(ctx, nil); codeOf(err) != CodeRequestCancelled {
		t.Fatalf("hooks/setEnabled cancelled while waiting for the lock: %v, want %d", err, CodeRequestCancelled)
	}
	if err := listed.Wait(ctx, nil); err != nil {
		t.Fatalf("hooks/list after the cancelled setEnabled: %v", err)
	}

	// Once the other writer lets go, the same request goes through.
	lock.Unlock()
	res, err := h.call(t, "hooks/setEnabled", map[string]any{"key": key, "enabled": false})
	if err != nil || res.Get("enabled").Bool() {
		t.Fatalf("hooks/setEnabled after the lock was released: %s, %v", res.Raw, err)
	}
}

func TestHooksTrust_RequestsAfterItSeeItsState(t *testing.T) {
	// hooks/trust runs off the reader, but a hooks/run read after it still
	// sees the hook trusted: wire order is kept.
	home, key := trustHome(t)
	h := newHarness(t)
	h.init(t, map[string]any{"config": map[string]any{"home": home}})
	ctx := context.Background()
	trust, err := h.conn.DispatchCall(ctx, "hooks/trust", map[string]any{"keys": []string{key}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := h.call(t, "hooks/run", map[string]any{"event": "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	if err := trust.Wait(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if run.Get("hooks.#").Int() != 1 {
		t.Errorf("hooks/run sent after hooks/trust did not run the trusted hook: %s", run.Raw)
	}
}
