package hooks

import (
	"fmt"
	"path/filepath"
	"testing"
)

// codexVectorHooks is the hook of the first Codex vector of
// reference/codex-hooks.md 2.3, whose hash Codex computes as codexVectorHash.
const (
	codexVectorHooks = `{"hooks":{"PreToolUse":[{"matcher":"^Bash$","hooks":[{"type":"command","command":"echo hello"}]}]}}`
	codexVectorHash  = "sha256:63b52e87a8a4caef01cc989b31ad95ce5f4d3470c9a00e8407847e469cd1b31f"
)

func plgTrustConfig(t *testing.T, home, key, hash string) {
	t.Helper()
	discWriteFile(t, filepath.Join(home, "config.toml"), fmt.Sprintf("[hooks.state.%q]\ntrusted_hash = %q\n", key, hash))
}

func TestTrust_InstallCachePluginKeepsCodexKeyAndHash(t *testing.T) {
	home := discCodexHome(t)
	cache := filepath.Join(home, "plugins", "cache")
	plgWritePlugin(t, filepath.Join(cache, "acme", "guard", "1.2.0"), map[string]string{
		".codex-plugin/plugin.json": `{"name": "guard"}`,
		"hooks/hooks.json":          codexVectorHooks,
	})
	// What Codex writes when the user trusts the hook in its /hooks screen.
	const key = "guard@acme:hooks/hooks.json:pre_tool_use:0:0"
	plgTrustConfig(t, home, key, codexVectorHash)
	r := DiscoverAll(codexProfile(), DiscoverOptions{PluginDirs: []string{cache}, DataHome: t.TempDir()})
	h := hookByKey(t, r.Hooks, key)
	if h.Hash() != codexVectorHash || h.Trust != TrustTrusted {
		t.Errorf("hash %s trust %q, want Codex's %s and trusted", h.Hash(), h.Trust, codexVectorHash)
	}
}

func TestTrust_PluginTrustStaysWithItsFolder(t *testing.T) {
	home := discCodexHome(t)
	// Two folders whose manifests say "guard" with the same hook text: the
	// user reviewed good; evil copies its name to borrow its trust.
	dir := t.TempDir()
	files := map[string]string{".codex-plugin/plugin.json": `{"name": "guard"}`, "hooks/hooks.json": codexVectorHooks}
	good := plgWritePlugin(t, filepath.Join(dir, "good"), files)
	evil := plgWritePlugin(t, filepath.Join(dir, "evil"), files)
	// A copy of good in Codex's cache, but in a folder another id names.
	misplaced := plgWritePlugin(t, filepath.Join(home, "plugins", "cache", "acme", "other", "1.0.0"), files)
	const key = "guard@local:hooks/hooks.json:pre_tool_use:0:0"

	discover := func(root string) *Hook {
		r := DiscoverAll(codexProfile(), DiscoverOptions{Plugins: []PluginConfig{{Root: root}}, DataHome: t.TempDir()})
		return hookByKey(t, r.Hooks, key)
	}
	trusted := discover(good)
	if trusted.Hash() == codexVectorHash {
		t.Fatalf("a plugin outside the install cache has Codex's bare hash %s: trust would follow the name, not the folder", trusted.Hash())
	}
	plgTrustConfig(t, home, key, trusted.Hash())
	if h := discover(good); h.Trust != TrustTrusted {
		t.Errorf("the reviewed folder: %q, want trusted", h.Trust)
	}
	for _, root := range []string{evil, misplaced} {
		if h := discover(root); h.Trust != TrustModified {
			t.Errorf("%s: %q, want modified (same id and command, another folder)", root, h.Trust)
		}
	}
	// Trust recorded by Codex for the id is not trust for a folder either.
	plgTrustConfig(t, home, key, codexVectorHash)
	if h := discover(good); h.Trust != TrustModified {
		t.Errorf("with Codex's hash for the id: %q, want modified", h.Trust)
	}
}
