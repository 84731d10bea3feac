package plugins

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// aged waits until the files a test just wrote are older than the cache's
// racy window: the cache keeps nothing changed more recently (racyWindow),
// so what it keeps can only be tested once the clock has moved on.
func aged() { time.Sleep(racyWindow + 20*time.Millisecond) }

// cachedLoad is Load, and the cache file it writes written.
func cachedLoad(opts Options) ([]*Plugin, []Warning) {
	ps, ws := Load(opts)
	WaitCacheWrites()
	return fieldsOnly(ps), ws
}

// fieldsOnly is ps without the load cache's room for a caller's parse,
// which differs from load to load: what a caller reads of a plugin.
func fieldsOnly(ps []*Plugin) []*Plugin {
	out := make([]*Plugin, len(ps))
	for i, p := range ps {
		c := *p
		c.parse = nil
		out[i] = &c
	}
	return out
}

func needCache(t *testing.T) {
	t.Helper()
	if !cacheSupported {
		t.Skipf("the load cache is kept on Linux only, not on %s", runtime.GOOS)
	}
}

// counts is what the process's caches did since the last call.
type counts struct{ hits, misses, writes int64 }

func cacheCounts() counts {
	return counts{cacheStats.hits.Load(), cacheStats.misses.Load(), cacheStats.writes.Load()}
}

func (c counts) since(before counts) counts {
	return counts{c.hits - before.hits, c.misses - before.misses, c.writes - before.writes}
}

// sameLoad fails the test unless two loads found the same plugins and
// warnings, byte for byte.
func sameLoad(t *testing.T, what string, got []*Plugin, gotWarns []Warning, want []*Plugin, wantWarns []Warning) {
	t.Helper()
	for i := range max(len(got), len(want)) {
		var a, b any
		if i < len(got) {
			a = *got[i]
		}
		if i < len(want) {
			b = *want[i]
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s, plugin %d:\n got %+v\nwant %+v", what, i, a, b)
		}
	}
	if !reflect.DeepEqual(gotWarns, wantWarns) {
		t.Errorf("%s: warnings differ:\n got:\n%s\nwant:\n%s", what, messages(gotWarns), messages(wantWarns))
	}
}

// A load from the cache finds exactly what a load from the files finds,
// over the tree of cases the held-open folders are tested on, under both
// rules; and most of the tree is taken from the cache.
func TestCache_GivesWhatTheFilesGive(t *testing.T) {
	needCache(t)
	caseOpts := caseTree(t)
	aged()
	for _, rule := range []Rule{CodexRule, ClaudeRule} {
		opts := caseOpts(rule)
		want, wantWarns := cachedLoad(opts)
		opts.CacheDir = t.TempDir()
		before := cacheCounts()
		cold, coldWarns := cachedLoad(opts)
		sameLoad(t, fmt.Sprintf("rule %d, cold cache", rule), cold, coldWarns, want, wantWarns)
		if c := cacheCounts().since(before); c.hits != 0 || c.writes != 1 {
			t.Errorf("rule %d: the cold load did %+v, want no hits and one write", rule, c)
		}
		before = cacheCounts()
		warm, warmWarns := cachedLoad(opts)
		sameLoad(t, fmt.Sprintf("rule %d, warm cache", rule), warm, warmWarns, want, wantWarns)
		c := cacheCounts().since(before)
		if c.hits < 15 || c.writes != 0 {
			t.Errorf("rule %d: the warm load did %+v, want most of the tree from the cache and no write", rule, c)
		}
		t.Logf("rule %d: %d candidates from the cache, %d read from their files", rule, c.hits, c.misses)
	}
}

// changeCase is one change to a plugin tree that a load must see.
type changeCase struct {
	name string
	// change changes the tree at dir.
	change func(t *testing.T, dir string)
	// same: the change leaves what a load finds as it was (a mode change
	// the test's user can still read through); the cache must still not
	// be used for that plugin.
	same bool
}

// rewrite replaces path's bytes with body (of the same length) and puts its
// modification time back: only its change time tells.
func rewrite(t *testing.T, path, body string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(body)) != fi.Size() {
		t.Fatalf("rewrite %s: %d bytes for a file of %d", path, len(body), fi.Size())
	}
	if err := os.WriteFile(path, []byte(body), fi.Mode()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// replaceByRename puts a new file with body at path by renaming it over
// path (a new inode), with path's old modification time.
func replaceByRename(t *testing.T, path, body string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte(body), fi.Mode()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

const otherStopHooks = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}`

// Every change to a plugin's files or folders after the cache kept it is
// seen by the next load: what it finds is what a load without the cache
// finds after the change.
func TestCache_SeesEveryChange(t *testing.T) {
	needCache(t)
	// Each tree has an install cache, dir/cache, and an explicit plugin
	// whose root is a symlink, dir/explicit -> dir/target.
	version := func(dir string) string { return filepath.Join(dir, "cache", "m", "p", "1.0.0") }
	hooksFile := func(dir string) string { return filepath.Join(version(dir), "hooks", "hooks.json") }
	manifest := func(dir string) string { return filepath.Join(version(dir), ".codex-plugin", "plugin.json") }
	cases := []changeCase{
		{name: "hooks file rewritten, same size and modification time", change: func(t *testing.T, dir string) {
			rewrite(t, hooksFile(dir), strings.Replace(stopHooks, "true", "echo", 1))
		}},
		{name: "manifest rewritten, same size and modification time", change: func(t *testing.T, dir string) {
			rewrite(t, manifest(dir), `{"name": "q"}`)
		}},
		{name: "hooks file renamed over, same size and modification time", change: func(t *testing.T, dir string) {
			replaceByRename(t, hooksFile(dir), strings.Replace(stopHooks, "true", "echo", 1))
		}},
		{name: "hooks file swapped for another inode with the same bytes", change: func(t *testing.T, dir string) {
			replaceByRename(t, hooksFile(dir), stopHooks)
		}, same: true},
		{name: "hooks file's permissions changed", change: func(t *testing.T, dir string) {
			if err := os.Chmod(hooksFile(dir), 0o600); err != nil {
				t.Fatal(err)
			}
		}, same: true},
		{name: "hooks file unreadable", change: func(t *testing.T, dir string) {
			if err := os.Chmod(hooksFile(dir), 0); err != nil {
				t.Fatal(err)
			}
		}, same: os.Geteuid() == 0}, // root reads it anyway
		{name: "hooks file removed", change: func(t *testing.T, dir string) {
			if err := os.Remove(hooksFile(dir)); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "newer version folder added", change: func(t *testing.T, dir string) {
			writeTree(t, filepath.Join(dir, "cache", "m", "p", "2.0.0"), map[string]string{
				".codex-plugin/plugin.json": `{"name": "p"}`, "hooks/hooks.json": otherStopHooks})
		}},
		{name: "root manifest added to the version folder", change: func(t *testing.T, dir string) {
			writeTree(t, version(dir), map[string]string{
				"plugin.json": `{"$schema": "https://agent-plugins.org/schemas/plugin.json", "name": "p"}`})
		}},
		{name: "entry added to the manifest's folder", change: func(t *testing.T, dir string) {
			// Not looked at by a load: nothing found changes, and the
			// cache may keep serving the plugin.
			writeTree(t, filepath.Dir(manifest(dir)), map[string]string{"notes.txt": "x"})
		}, same: true},
		{name: "hooks folder swapped for a symlink out of the plugin to the same file", change: func(t *testing.T, dir string) {
			// The same inode, reached through a symlink that leaves the
			// plugin: a load refuses it, so the cache must not serve it.
			out := filepath.Join(dir, "outside")
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(hooksFile(dir), filepath.Join(out, "hooks.json")); err != nil {
				t.Fatal(err)
			}
			hooks := filepath.Dir(hooksFile(dir))
			if err := os.Rename(hooks, hooks+".old"); err != nil {
				t.Fatal(err)
			}
			symlink(t, out, hooks)
		}},
		{name: "plugin folder renamed", change: func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "cache", "m", "p"), filepath.Join(dir, "cache", "m", "r")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "explicit plugin's root symlink pointed at a copy", change: func(t *testing.T, dir string) {
			link := filepath.Join(dir, "explicit")
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join(dir, "copy"), link)
		}},
		{name: "explicit plugin's hooks file rewritten, same size and modification time", change: func(t *testing.T, dir string) {
			rewrite(t, filepath.Join(dir, "target", "hooks", "hooks.json"), strings.Replace(stopHooks, "true", "echo", 1))
		}},
	}
	type prepared struct {
		dir, cacheDir string
		opts          Options
	}
	var trees []prepared
	for range cases {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"cache/m/p/1.0.0/.codex-plugin/plugin.json": `{"name": "p"}`,
			"cache/m/p/1.0.0/hooks/hooks.json":          stopHooks,
			"target/.codex-plugin/plugin.json":          `{"name": "x"}`,
			"target/hooks/hooks.json":                   stopHooks,
			"copy/.codex-plugin/plugin.json":            `{"name": "x"}`,
			"copy/hooks/hooks.json":                     stopHooks,
		})
		symlink(t, filepath.Join(dir, "target"), filepath.Join(dir, "explicit"))
		opts := Options{Plugins: []Config{{Root: filepath.Join(dir, "explicit")}}, Dirs: []string{filepath.Join(dir, "cache")},
			DataHome: filepath.Join(dir, "data"), Rule: CodexRule}
		trees = append(trees, prepared{dir: dir, cacheDir: t.TempDir(), opts: opts})
	}
	aged()
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := trees[i]
			withCache := tr.opts
			withCache.CacheDir = tr.cacheDir
			cachedLoad(withCache)
			before := cacheCounts()
			kept, keptWarns := cachedLoad(withCache)
			if got := cacheCounts().since(before); got.hits != 2 {
				t.Fatalf("before the change: %+v, want both plugins from the cache", got)
			}
			c.change(t, tr.dir)
			want, wantWarns := cachedLoad(tr.opts)
			before = cacheCounts()
			got, gotWarns := cachedLoad(withCache)
			sameLoad(t, "after the change", got, gotWarns, want, wantWarns)
			if c.same {
				sameLoad(t, "the change changes nothing found", want, wantWarns, kept, keptWarns)
				return
			}
			if reflect.DeepEqual(want, kept) && reflect.DeepEqual(wantWarns, keptWarns) {
				t.Fatalf("the change changed nothing a load finds: the case tests nothing")
			}
			if n := cacheCounts().since(before); n.misses == 0 {
				t.Errorf("after the change: %+v, want the changed plugin read from its files", n)
			}
		})
	}
}

// A file changed a moment ago is not kept: a change right after the load,
// which a coarse file system clock may stamp with the same times, is seen.
func TestCache_KeepsNothingJustChanged(t *testing.T) {
	needCache(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"p/.codex-plugin/plugin.json": `{"name": "p"}`, "p/hooks/hooks.json": stopHooks})
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule, CacheDir: t.TempDir()}
	before := cacheCounts()
	cachedLoad(opts)
	rewrite(t, filepath.Join(dir, "p", "hooks", "hooks.json"), otherStopHooks[:len(stopHooks)])
	got, _ := cachedLoad(opts)
	if c := cacheCounts().since(before); c.hits != 0 || c.writes != 0 {
		t.Errorf("%+v: a tree written just now was kept", c)
	}
	if len(got) != 1 || len(got[0].Sources) != 1 || string(got[0].Sources[0].File) != otherStopHooks[:len(stopHooks)] {
		t.Errorf("the change was not seen: %+v", got)
	}
}

// cacheFileOf is the one cache file a load with opts wrote.
func cacheFileOf(t *testing.T, dir string) string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(dir, "load-*.cache"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("cache files in %s: %v %v", dir, matches, err)
	}
	return matches[0]
}

// A cache file that is cut short, damaged, foreign, too large, a FIFO, a
// symlink or a folder is ignored: the load reads the files, finds what they
// say, never waits, and (but for the folder) writes a good file in its
// place, which the next load uses. A symlink's target is left alone.
func TestCache_IgnoresABadCacheFile(t *testing.T) {
	needCache(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"m/a/1.0.0/.codex-plugin/plugin.json": `{"name": "a"}`, "m/a/1.0.0/hooks/hooks.json": stopHooks,
		"m/b/1.0.0/.claude-plugin/plugin.json": `{"name": "b", "hooks": "./h.json"}`, "m/b/1.0.0/h.json": stopHooks,
	})
	aged()
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule}
	want, wantWarns := cachedLoad(opts)
	opts.CacheDir = t.TempDir()
	cachedLoad(opts)
	path := cacheFileOf(t, opts.CacheDir)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := filepath.Join(t.TempDir(), "elsewhere.cache")
	if err := os.WriteFile(elsewhere, good, 0o600); err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x40
	foreign := append([]byte(nil), good...)
	copy(foreign, "hookd plugin load cache 9\n")
	cases := []struct {
		name  string
		plant func(t *testing.T)
		// stays: the planted thing is still there after the load.
		stays bool
	}{
		{name: "cut short", plant: func(t *testing.T) { writeFile(t, path, good[:len(good)-7]) }},
		{name: "empty", plant: func(t *testing.T) { writeFile(t, path, nil) }},
		{name: "one byte changed", plant: func(t *testing.T) { writeFile(t, path, flipped) }},
		{name: "another layout", plant: func(t *testing.T) { writeFile(t, path, foreign) }},
		{name: "not a cache file", plant: func(t *testing.T) { writeFile(t, path, []byte(`{"plugins": []}`)) }},
		{name: "too large", plant: func(t *testing.T) {
			writeFile(t, path, good)
			if err := os.Truncate(path, maxCacheFile+1); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "FIFO", plant: func(t *testing.T) {
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
		}},
		{name: "symlink to a good cache file", plant: func(t *testing.T) { symlink(t, elsewhere, path) }},
		{name: "folder", plant: func(t *testing.T) {
			if err := os.MkdirAll(filepath.Join(path, "x"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, stays: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			c.plant(t)
			before := cacheCounts()
			got, gotWarns := cachedLoad(opts)
			sameLoad(t, "with the bad file", got, gotWarns, want, wantWarns)
			if n := cacheCounts().since(before); n.hits != 0 {
				t.Errorf("%+v: the bad file was used", n)
			}
			fi, err := os.Lstat(path)
			switch {
			case err != nil:
				t.Fatal(err)
			case c.stays:
				if !fi.IsDir() {
					t.Errorf("the folder became %v", fi.Mode())
				}
				return
			case !fi.Mode().IsRegular():
				t.Fatalf("not rewritten: %v", fi.Mode())
			}
			before = cacheCounts()
			got, gotWarns = cachedLoad(opts)
			sameLoad(t, "from the rewritten file", got, gotWarns, want, wantWarns)
			if n := cacheCounts().since(before); n.hits != 2 {
				t.Errorf("%+v: the rewritten file was not used", n)
			}
			if data, err := os.ReadFile(elsewhere); err != nil || string(data) != string(good) {
				t.Errorf("the symlink's target changed: %v", err)
			}
		})
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A cache folder that cannot be made costs nothing but the cache: the load
// finds what the files say, with no word about it.
func TestCache_UnwritableFolderIsNoError(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"p/.codex-plugin/plugin.json": `{"name": "p"}`, "p/hooks/hooks.json": stopHooks})
	aged()
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule}
	want, wantWarns := cachedLoad(opts)
	blocker := filepath.Join(t.TempDir(), "a-file")
	writeFile(t, blocker, []byte("x"))
	opts.CacheDir = filepath.Join(blocker, "cache")
	for range 2 {
		got, gotWarns := cachedLoad(opts)
		sameLoad(t, "with an unwritable cache folder", got, gotWarns, want, wantWarns)
	}
	if fi, err := os.Stat(blocker); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the file in the way: %v %v", fi, err)
	}
}

// $HOOKD_NO_CACHE turns the cache off; "0" or nothing leaves it on, in the
// user's cache folder.
func TestDefaultCacheDir_TurnedOffByTheEnvironment(t *testing.T) {
	t.Setenv(CacheEnv, "1")
	if got := DefaultCacheDir(); got != "" {
		t.Errorf("with %s=1: %q, want no cache", CacheEnv, got)
	}
	for _, v := range []string{"", "0"} {
		t.Setenv(CacheEnv, v)
		if got := DefaultCacheDir(); !strings.HasSuffix(got, filepath.Join("hookd", "plugins")) {
			t.Errorf("with %s=%q: %q, want <cache home>/hookd/plugins", CacheEnv, v, got)
		}
	}
}

// childEnv makes the test binary a process that shares a cache (see
// TestCache_TwoProcessesShareIt).
const childEnv = "HOOKD_PLUGINS_CACHE_CHILD"

// Two processes that load the same plugins at once, each emptying the
// cache folder between loads so that they keep writing over each other,
// both always find what the files say.
func TestCache_TwoProcessesShareIt(t *testing.T) {
	if spec := os.Getenv(childEnv); spec != "" {
		cacheChild(t, spec)
		return
	}
	needCache(t)
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		base := fmt.Sprintf("m/p%02d/1.0.0/", i)
		files[base+".codex-plugin/plugin.json"] = fmt.Sprintf(`{"name": "p%02d"}`, i)
		files[base+"hooks/hooks.json"] = stopHooks
	}
	writeTree(t, dir, files)
	aged()
	cacheDir := t.TempDir()
	var cmds []*exec.Cmd
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCache_TwoProcessesShareIt$")
		cmd.Env = append(os.Environ(), childEnv+"="+dir+string(os.PathListSeparator)+cacheDir+string(os.PathListSeparator)+fmt.Sprint(i))
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if cmd.ProcessState == nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			}
		})
		cmds = append(cmds, cmd)
		defer func() {
			if t.Failed() {
				t.Logf("process %d:\n%s", i, out.String())
			}
		}()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", i, err)
		}
	}
}

// cacheChild is one of the processes of TestCache_TwoProcessesShareIt.
func cacheChild(t *testing.T, spec string) {
	parts := strings.Split(spec, string(os.PathListSeparator))
	dir, cacheDir := parts[0], parts[1]
	opts := Options{Dirs: []string{dir}, DataHome: filepath.Join(dir, "data"), Rule: CodexRule}
	want, wantWarns := cachedLoad(opts)
	opts.CacheDir = cacheDir
	before := cacheCounts()
	for i := range 60 {
		if i%3 == 0 {
			entries, _ := os.ReadDir(cacheDir)
			for _, e := range entries {
				_ = os.Remove(filepath.Join(cacheDir, e.Name()))
			}
		}
		got, gotWarns := cachedLoad(opts)
		sameLoad(t, fmt.Sprintf("load %d", i), got, gotWarns, want, wantWarns)
		if t.Failed() {
			return
		}
	}
	c := cacheCounts().since(before)
	if c.hits == 0 || c.writes == 0 {
		t.Errorf("%+v: the cache was not shared", c)
	}
	t.Logf("%+v", c)
}

// A held write (HoldCacheWrites, as a server holds it while it answers a
// load) starts only when the last hold is released, and WaitCacheWrites
// waits for it.
func TestCache_HeldWritesWaitForTheLastRelease(t *testing.T) {
	needCache(t)
	opts := caseTree(t)(CodexRule)
	aged()
	opts.CacheDir = t.TempDir()
	first, second := HoldCacheWrites(), HoldCacheWrites()
	before := cacheCounts()
	Load(opts)
	files := func() int {
		t.Helper()
		entries, err := os.ReadDir(opts.CacheDir)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return len(entries)
	}
	cacheHolds.mu.Lock()
	queued := len(cacheHolds.queued)
	cacheHolds.mu.Unlock()
	if queued != 1 {
		t.Fatalf("%d writes put off by the hold; want 1", queued)
	}
	first()
	first() // a second call of one release changes nothing
	if n := files(); n != 0 {
		t.Fatalf("%d files in the cache folder while a hold is on", n)
	}
	second()
	WaitCacheWrites()
	if c := cacheCounts().since(before); c.writes != 1 || files() != 1 {
		t.Fatalf("after the last release: %d writes, %d files; want 1 and 1", c.writes, files())
	}
}
