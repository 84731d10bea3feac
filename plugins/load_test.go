package plugins

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Candidates are read concurrently; what Load returns must still be what
// reading them one by one in walk order gives: plugins and warnings in
// folder order, and for a repeated id the first folder's plugin.
func TestLoad_ConcurrentReadsKeepWalkOrder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var wantIDs, wantWarn []string
	loads := map[int]bool{}
	for i := range 40 {
		base := fmt.Sprintf("m/p%02d/1.0.0/", i)
		switch {
		case i%7 == 3:
			files[base+".codex-plugin/plugin.json"] = `{"name": `
			wantWarn = append(wantWarn, fmt.Sprintf("p%02d/1.0.0/.codex-plugin/plugin.json", i))
		case i%5 == 4 && loads[i-1]:
			// The same id as the plugin before it: skipped, with a warning,
			// and the warnings about its hooks are not given.
			files[base+".codex-plugin/plugin.json"] = fmt.Sprintf(`{"name": "p%02d", "hooks": 7}`, i-1)
			wantWarn = append(wantWarn, fmt.Sprintf("p%02d/1.0.0", i))
		default:
			files[base+".codex-plugin/plugin.json"] = fmt.Sprintf(`{"name": "p%02d"}`, i)
			files[base+"hooks/hooks.json"] = stopHooks
			wantIDs = append(wantIDs, fmt.Sprintf("p%02d@m", i))
			loads[i] = true
		}
	}
	writeTree(t, dir, files)
	ps, warns := Load(Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule})
	var ids []string
	for _, p := range ps {
		ids = append(ids, p.ID())
	}
	if strings.Join(ids, " ") != strings.Join(wantIDs, " ") {
		t.Errorf("plugins\n got %v\nwant %v", ids, wantIDs)
	}
	if len(warns) != len(wantWarn) {
		t.Fatalf("%d warnings, want %d:\n%s", len(warns), len(wantWarn), messages(warns))
	}
	for i, w := range warns {
		if !strings.Contains(filepath.ToSlash(w.Source), wantWarn[i]) {
			t.Errorf("warning %d is about %s, want %s (%s)", i, w.Source, wantWarn[i], w.Message)
		}
	}
}

func TestRealCache_ResolvesAsEvalSymlinks(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeTree(t, base, map[string]string{"a/b/c/plugin.json": "{}", "x/y/f": ""})
	symlink(t, filepath.Join(base, "a", "b"), filepath.Join(base, "abs"))
	symlink(t, "../a/b", filepath.Join(base, "x", "rel"))
	symlink(t, "rel", filepath.Join(base, "x", "chain"))
	var c realCache
	for _, p := range []string{"a/b/c", "abs/c", "x/rel/c", "x/chain/c/plugin.json", "x/y", "abs", "missing/p", "a/b/nope"} {
		full := filepath.Join(base, p)
		want, wantErr := filepath.EvalSymlinks(full)
		for range 2 { // the second time from the cache
			got, err := c.resolve(full)
			if got != want || (err == nil) != (wantErr == nil) {
				t.Errorf("resolve(%s) = %q, %v; EvalSymlinks gives %q, %v", p, got, err, want, wantErr)
			}
		}
	}
}
