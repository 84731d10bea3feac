package plugins

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkLoad_InstallCache loads a scanned install cache of 50 plugins with
// three versions each, every plugin with one hooks file: what discovery pays
// at initialize and at every hooks/reload.
func BenchmarkLoad_InstallCache(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	for i := range 50 {
		for _, v := range []string{"1.0.0", "1.1.0", "2.0.0"} {
			base := fmt.Sprintf("mp/p%02d/%s/", i, v)
			files[base+".codex-plugin/plugin.json"] = fmt.Sprintf(`{"name": "p%02d", "version": %q}`, i, v)
			files[base+"hooks/hooks.json"] = stopHooks
		}
	}
	writeTree(b, dir, files)
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule}
	for b.Loop() {
		ps, warns := Load(opts)
		if len(ps) != 50 || len(warns) != 0 {
			b.Fatalf("%d plugins, warnings %v", len(ps), warns)
		}
	}
}
