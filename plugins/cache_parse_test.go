package plugins

import (
	"path/filepath"
	"sync/atomic"
	"testing"
)

// A caller's parse offered with a plugin the cache reads is made once, by
// the cache's write after the load, and given back by the next loads that
// find the plugin as it was; nothing to keep is kept as such, so no later
// load asks again; a plugin changed since is read, and its parse asked
// for, anew; and a plugin taken from an entry kept without a parse has the
// offer made and written then.
func TestCache_KeepsTheCallersParse(t *testing.T) {
	needCache(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"p/.codex-plugin/plugin.json": `{"name": "p"}`, "p/hooks/hooks.json": stopHooks,
		"q/.codex-plugin/plugin.json": `{"name": "q"}`, "q/hooks/hooks.json": stopHooks,
	})
	aged()
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule, CacheDir: t.TempDir()}
	var made atomic.Int32
	// load loads with opts and returns what CachedParse gave each plugin
	// ("-" for nothing); with offer, it offers a parse for each that has
	// none: q's is nothing to keep.
	load := func(offer bool) map[string]string {
		ps, _ := Load(opts)
		got := map[string]string{}
		for _, p := range ps {
			data, ok := p.CachedParse()
			switch {
			case !ok:
				got[p.Name] = "-"
				if offer {
					p.OfferParse(func() []byte {
						made.Add(1)
						if p.Name == "q" {
							return nil
						}
						return []byte("parse of " + string(p.Sources[0].File))
					})
				}
			default:
				got[p.Name] = string(data)
			}
		}
		WaitCacheWrites()
		return got
	}
	check := func(step string, got map[string]string, p, q string, wantMade int32, wantWrites int64, before counts) {
		t.Helper()
		if got["p"] != p || got["q"] != q {
			t.Errorf("%s: p gave %q, q %q; want %q and %q", step, got["p"], got["q"], p, q)
		}
		if n := made.Load(); n != wantMade {
			t.Errorf("%s: %d parses made in all, want %d", step, n, wantMade)
		}
		if c := cacheCounts().since(before); c.writes != wantWrites {
			t.Errorf("%s: %+v, want %d writes", step, c, wantWrites)
		}
	}

	before := cacheCounts()
	check("a first load that offers nothing", load(false), "-", "-", 0, 1, before)
	before = cacheCounts()
	check("a load from entries without a parse, offering", load(true), "-", "-", 2, 1, before)
	before = cacheCounts()
	check("the next load", load(true), "parse of "+stopHooks, "", 2, 0, before)

	rewrite(t, filepath.Join(dir, "p", "hooks", "hooks.json"), otherStopHooks[:len(stopHooks)])
	aged()
	before = cacheCounts()
	check("after p changed", load(true), "-", "", 3, 1, before)
	before = cacheCounts()
	check("and then", load(true), "parse of "+otherStopHooks[:len(stopHooks)], "", 3, 0, before)

	// Without a cache there is nothing to give back, and an offer is not
	// taken.
	opts.CacheDir = ""
	check("without a cache", load(true), "-", "-", 3, 0, cacheCounts())
}
