package plugins

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Candidates are read concurrently; what Load returns must still be what
// reading them one by one in walk order gives: plugins in folder order, the
// walk's warnings (here malformed manifests) in folder order, then for each
// plugin found, in order, the conflict over its id or its hooks' warnings.
func TestLoad_ConcurrentReadsKeepWalkOrder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var wantIDs, malformed, conflicts []string
	loads := map[int]bool{}
	for i := range 40 {
		base := fmt.Sprintf("m/p%02d/1.0.0/", i)
		switch {
		case i%7 == 3:
			files[base+".codex-plugin/plugin.json"] = `{"name": `
			malformed = append(malformed, fmt.Sprintf("p%02d/1.0.0/.codex-plugin/plugin.json", i))
		case i%5 == 4 && loads[i-1]:
			// Claims the id of the plugin before it: neither loads, and
			// its own hooks (a bad entry) are never read.
			files[base+".codex-plugin/plugin.json"] = fmt.Sprintf(`{"name": "p%02d", "hooks": 7}`, i-1)
			wantIDs = slices.DeleteFunc(wantIDs, func(id string) bool { return id == fmt.Sprintf("p%02d@m", i-1) })
			conflicts = append(conflicts, fmt.Sprintf("p%02d/1.0.0", i-1))
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
	wantWarn := append(malformed, conflicts...)
	if len(warns) != len(wantWarn) {
		t.Fatalf("%d warnings, want %d:\n%s", len(warns), len(wantWarn), messages(warns))
	}
	for i, w := range warns {
		if !strings.Contains(filepath.ToSlash(w.Source), wantWarn[i]) {
			t.Errorf("warning %d is about %s, want %s (%s)", i, w.Source, wantWarn[i], w.Message)
		}
	}
}
