package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A session started from the plugin load cache, cold or warm, tells the
// host what one with the cache off tells it (the initialize summary and
// hooks/list, hashes included), also after a hook is trusted, and a cache
// folder that cannot be made changes nothing the host sees, not even a log
// line.
func TestServe_PluginCacheIsNeverSeen(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	dir := t.TempDir()
	for _, name := range []string{"claude-policy", "codex-guard", "escape-path", "example-guard", "inline-hooks", "symlink-escape"} {
		copyPlugin(t, name, filepath.Join(dir, name))
	}
	copyPlugin(t, "claude-policy", filepath.Join(dir, "acme", "policy", "1.0.0"))
	// The cache keeps nothing changed in its last moments.
	time.Sleep(150 * time.Millisecond)
	cwd, home := t.TempDir(), t.TempDir()
	var trustKey string
	session := func() (initHooks, list string, log string) {
		t.Helper()
		ctx := context.Background()
		var stderr syncBuffer
		c, err := client.Start(ctx, hookdPath(t), &stderr, "serve", "--log-level", "debug")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Kill()
		res, err := c.Initialize(ctx, map[string]any{"session": map[string]any{"id": "sess_cache", "cwd": cwd},
			"config": map[string]any{"home": home, "pluginDirs": []string{dir}}})
		if err != nil {
			t.Fatalf("initialize: %v", err)
		}
		if trustKey != "" {
			// Trusted from this session, seen from the next.
			var trusted json.RawMessage
			if err := c.Call(ctx, "hooks/trust", map[string]any{"keys": []string{trustKey}}, &trusted); err != nil {
				t.Fatal(err)
			}
		}
		var listed json.RawMessage
		if err := c.Call(ctx, "hooks/list", map[string]any{}, &listed); err != nil {
			t.Fatal(err)
		}
		// Ended as a host ends it: the cache is written before hookd
		// exits.
		if _, err := c.Close(ctx); err != nil {
			t.Fatal(err)
		}
		return gjson.GetBytes(res, "hooks").Raw, string(listed), stderr.String()
	}
	t.Setenv("HOOKD_NO_CACHE", "1")
	wantInit, wantList, _ := session()
	if n := gjson.Get(wantList, "hooks.#").Int(); n < 8 || !strings.Contains(wantList, `"hash":"sha256:`) {
		t.Fatalf("%d hooks: the tree is not what the test means:\n%s", n, wantList)
	}
	t.Setenv("HOOKD_NO_CACHE", "")
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome)
	for _, load := range []string{"cold", "warm"} {
		gotInit, gotList, _ := session()
		if gotInit != wantInit || gotList != wantList {
			t.Errorf("%s cache: the session differs from one without the cache:\ninitialize %s\n      want %s\nhooks/list %s\n      want %s",
				load, gotInit, wantInit, gotList, wantList)
		}
		if files, _ := filepath.Glob(filepath.Join(cacheHome, "hookd", "plugins", "load-*.cache")); len(files) != 1 {
			t.Errorf("%s cache: cache files %v, want one", load, files)
		}
	}
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CACHE_HOME", blocker)
	gotInit, gotList, log := session()
	if gotInit != wantInit || gotList != wantList {
		t.Errorf("cache folder unwritable: the session differs:\ninitialize %s\n      want %s", gotInit, wantInit)
	}
	if strings.Contains(log, blocker) {
		t.Errorf("cache folder unwritable: hookd said so:\n%s", log)
	}

	t.Setenv("XDG_CACHE_HOME", cacheHome)
	// A hook trusted in a session from the cache is runnable in the next
	// one from the cache (its hash made from the hook taken back), as in
	// sessions without it.
	trustKey = gjson.Get(wantList, `hooks.#(source.layer=="plugin").key`).String()
	if trustKey == "" {
		t.Fatalf("no plugin hook to trust:\n%s", wantList)
	}
	session()
	key := trustKey
	trustKey = ""
	warmInit, warmList, _ := session()
	if gjson.Get(warmInit, "runnable").Int() == gjson.Get(wantInit, "runnable").Int() {
		t.Errorf("trusting %s changed nothing a session reports: %s", key, warmInit)
	}
	t.Setenv("HOOKD_NO_CACHE", "1")
	offInit, offList, _ := session()
	t.Setenv("HOOKD_NO_CACHE", "")
	if warmInit != offInit || warmList != offList {
		t.Errorf("after a trust: the session from the cache differs from one without it:\ninitialize %s\n      want %s\nhooks/list %s\n      want %s",
			warmInit, offInit, warmList, offList)
	}
}
