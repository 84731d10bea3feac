package plugins

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// manifestPaths are where a plugin's manifest may be, in lookup order.
var manifestPaths = []string{
	filepath.Join(".codex-plugin", "plugin.json"),
	filepath.Join(".claude-plugin", "plugin.json"),
	filepath.Join(".cursor-plugin", "plugin.json"),
}

// agentPluginsSchema starts the $schema of an Agent Plugins (agent-plugins.org)
// root plugin.json. Codex reads such a manifest before any other and loads no
// hooks from the plugin; hookd does the same, but says so.
const agentPluginsSchema = "agent-plugins.org/schemas/"

// orphanMarker marks an install-cache version folder that Claude Code has
// replaced with a newer one and will delete later.
const orphanMarker = ".orphaned_at"

// findManifest returns the path of root's manifest, or "" when it has none.
// agent is true when it is an Agent Plugins root plugin.json.
func findManifest(root string) (path string, agent bool) {
	path, agent, _ = byPath(root).findManifest()
	return path, agent
}

// isAgentManifest reports whether data, a root plugin.json, is an Agent
// Plugins manifest.
func isAgentManifest(data []byte) bool {
	schema := gjson.GetBytes(bytes.TrimPrefix(data, utf8BOM), gjson.Escape("$schema"))
	return schema.Type == gjson.String && isAgentPluginsSchema(schema.Str)
}

// maxFileSize bounds what is read of a manifest or hooks file: real ones are
// a few kilobytes, and a plugin folder must not be able to exhaust memory.
const maxFileSize = 16 << 20

func isAgentPluginsSchema(s string) bool {
	for _, scheme := range []string{"https://", "http://"} {
		if strings.HasPrefix(s, scheme+agentPluginsSchema) {
			return true
		}
	}
	return false
}

func isPlugin(dir string) bool {
	p, _ := findManifest(dir)
	return p != ""
}

// explicit loads a plugin the host named.
func (l *loader) explicit(c Config) {
	if strings.TrimSpace(c.Root) == "" {
		l.warn("plugins", "skipping a plugin entry without a root folder")
		return
	}
	root := absClean(c.Root)
	fi, err := os.Stat(root)
	switch {
	case err != nil:
		l.warn(root, "skipping plugin %s: %v", root, pathErr(err))
		return
	case !fi.IsDir():
		l.warn(root, "skipping plugin %s: not a folder", root)
		return
	}
	c.Root = root
	l.add(c, filepath.Base(root), false)
}

// scan loads the plugins in one folder (see Options.Dirs).
func (l *loader) scan(dir string) {
	if isPlugin(dir) {
		l.scanned(dir, DefaultMarketplace, filepath.Base(dir))
		return
	}
	children, ok := l.subdirs(dir, true)
	if !ok {
		return
	}
	for _, c := range children {
		if isPlugin(c) {
			l.scanned(c, DefaultMarketplace, filepath.Base(c))
			continue
		}
		// Not a plugin: a marketplace folder of the install cache.
		// Whether each of its folders is a plugin or holds versions of one
		// is decided by the concurrent read (candidate.versions). The
		// marketplace folder is resolved once here, so that a plugin
		// folder that is no symlink is resolved by name (candidate.real).
		marketplace := filepath.Base(c)
		entries, _ := l.list(c, false)
		realMarket, err := filepath.EvalSymlinks(c)
		if err != nil {
			realMarket = ""
		}
		for _, e := range entries {
			p := filepath.Join(c, e.Name())
			if !isChildDir(p, e) {
				continue
			}
			j := &candidate{c: Config{Root: p, Marketplace: marketplace}, fallback: e.Name(), scanned: true, versions: true}
			if realMarket != "" && e.Type().IsDir() {
				j.real = filepath.Join(realMarket, e.Name())
			}
			l.queue = append(l.queue, queued{job: j})
		}
	}
}

func (l *loader) scanned(root, marketplace, name string) {
	l.add(Config{Root: root, Marketplace: marketplace}, name, true)
}

// subdirs lists dir's child folders (symlinks to folders included), sorted,
// without hidden ones. A missing top-level folder is not worth a warning: a
// host may name the install cache before anything is installed.
func (l *loader) subdirs(dir string, top bool) ([]string, bool) {
	entries, ok := l.list(dir, top)
	if !ok {
		return nil, false
	}
	return childDirs(dir, entries), true
}

// list reads dir's entries, with subdirs' warning when it cannot.
func (l *loader) list(dir string, top bool) ([]os.DirEntry, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !top || !errors.Is(err, fs.ErrNotExist) {
			l.warn(dir, "cannot scan plugin folder %s: %v", dir, pathErr(err))
		}
		return nil, false
	}
	return entries, true
}

// childDirs are the folders among dir's entries, as subdirs gives them. An
// entry the listing says is a folder needs no stat; a symlink (or an entry
// of unknown type) is stat'ed, so a link to a folder counts.
func childDirs(dir string, entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		if p := filepath.Join(dir, e.Name()); isChildDir(p, e) {
			out = append(out, p)
		}
	}
	return out
}

// isChildDir reports whether the entry e, at path p, is a folder subdirs
// lists: not hidden, and a folder once symlinks are followed.
func isChildDir(p string, e os.DirEntry) bool {
	if strings.HasPrefix(e.Name(), ".") {
		return false
	}
	switch t := e.Type(); {
	case t.IsDir():
		return true
	case t.IsRegular():
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// mayHoldManifest reports whether a folder with these entries can have a
// manifest of its own: findManifest looks for nothing else at its top.
func mayHoldManifest(names []string) bool {
	for _, name := range names {
		switch name {
		case "plugin.json", ".codex-plugin", ".claude-plugin", ".cursor-plugin":
			return true
		}
	}
	return false
}

// newestVersion picks the plugin's current version among its version
// folders, opened, or nil when none holds a manifest. A folder marked
// orphaned loses to any unmarked one; then the newest version wins (see
// compareVersions); then the latest modified; then the greater name.
//
// It closes every folder but the winner, which it returns with its
// manifest as findManifest gives it. Orphan markers and modification times
// are looked up only when there are versions to compare.
func newestVersion(versions []*rootDir) (*rootDir, foundManifest) {
	type candidate struct {
		dir      *rootDir
		name     string
		found    foundManifest
		looked   bool
		orphaned bool
		mod      time.Time
	}
	look := func(c *candidate) {
		if c.looked {
			return
		}
		c.looked = true
		c.dir.note(orphanMarker)
		if _, err := os.Stat(filepath.Join(c.dir.path, orphanMarker)); err == nil {
			c.orphaned = true
		}
		if fi, err := os.Stat(c.dir.path); err == nil {
			c.mod = fi.ModTime()
		}
	}
	var best *candidate
	for _, d := range versions {
		path, agent, data := d.findManifest()
		if path == "" {
			d.close()
			continue
		}
		c := &candidate{dir: d, name: filepath.Base(d.path), found: foundManifest{path, agent, data}}
		if best == nil {
			best = c
			continue
		}
		look(c)
		look(best)
		newer := false
		switch cmp := compareVersions(c.name, best.name); {
		case c.orphaned != best.orphaned:
			newer = !c.orphaned
		case cmp != 0:
			newer = cmp > 0
		case !c.mod.Equal(best.mod):
			newer = c.mod.After(best.mod)
		default:
			newer = c.name > best.name
		}
		if newer {
			best.dir.close()
			best = c
		} else {
			c.dir.close()
		}
	}
	if best == nil {
		return nil, foundManifest{}
	}
	return best.dir, best.found
}

// openDirs opens each folder for a load (openRoot).
func openDirs(paths []string) []*rootDir {
	out := make([]*rootDir, len(paths))
	for i, p := range paths {
		out[i] = openRoot(p)
	}
	return out
}

// entryNames are the entries' names.
func entryNames(entries []os.DirEntry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name()
	}
	return out
}

// foundManifest is what findManifest said about a folder.
type foundManifest struct {
	path  string
	agent bool
	// data is the manifest when finding it read it (nil: read it again).
	data []byte
}

func absClean(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// realPath resolves symlinks; a path that cannot be resolved is kept as is.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// pathErr drops the path an *fs.PathError repeats, since messages name the
// path already.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// InstalledRoot is the folder of the current version of plugin name from
// marketplace in an install cache laid out as
// <cache>/<marketplace>/<plugin>/<version>/ (Codex's
// $CODEX_HOME/plugins/cache), or "" when none is installed there. The
// newest version wins, as in a Dirs scan.
func InstalledRoot(cache, marketplace, name string) string {
	if marketplace == "" || name == "" || strings.ContainsAny(marketplace+name, `/\`) || marketplace == ".." || name == ".." {
		return ""
	}
	dir := filepath.Join(cache, marketplace, name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	d, _ := newestVersion(openDirs(childDirs(dir, entries)))
	if d == nil {
		return ""
	}
	d.close()
	return d.path
}
