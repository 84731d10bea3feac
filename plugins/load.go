package plugins

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/hookd/hookd/internal/par"
)

// Load works in three steps. The walk of Options.Plugins and Options.Dirs
// lists candidate plugin folders, and its own warnings, in order; it reads
// folders but no manifest. Each candidate is then read on its own,
// concurrently: its folder opened once (dir.go), its newest version, its
// manifest and, unless it cannot load, its hooks files. The results are
// merged in walk order, which decides the plugins found and the ids claimed
// twice; a plugin that does not load reports nothing about its hooks. With
// hundreds of plugins installed this is most of initialize's time, and
// nearly all of it is system calls; the plugins and warnings are exactly
// those of reading one plugin after the other.

// queued is one entry of the walk: a warning or a candidate.
type queued struct {
	warn *Warning
	job  *candidate
}

// candidate is a folder that may be a plugin, and what reading it found.
type candidate struct {
	c        Config
	fallback string
	scanned  bool
	// versions: c.Root is an install-cache plugin folder; the plugin is the
	// folder itself when it has a manifest, else its newest version.
	versions bool
	// real is c.Root resolved when the walk could tell without a lookup
	// (its marketplace folder resolved, itself no symlink); "" otherwise.
	real string

	// warns are identify's (and the version lookup's): always kept.
	warns []Warning
	// plugin is nil when the candidate does not load.
	plugin *Plugin
	// hookWarns are what reading its hooks gave: reported only if it
	// loads.
	hookWarns []Warning
}

// readAll identifies every queued candidate, concurrently.
func (l *loader) readAll() {
	par.Each(len(l.queue), func(i int) {
		if j := l.queue[i].job; j != nil {
			l.read(j)
		}
	})
}

// read identifies one candidate and, when it may load, reads its hooks. It
// touches only the loader's read-only settings; warnings go to the
// candidate (identify's always reported, the hooks' only if it loads).
// With a cache (cache.go), a candidate whose files are all as the cache
// saw them is given what the cache kept instead, and one read from its
// files is offered to the cache.
func (l *loader) read(j *candidate) {
	if l.cache.replay(j) {
		return
	}
	rec := l.cache.recorder()
	key := cacheKey(j)
	l.readFiles(j, rec)
	l.cache.store(key, j, rec)
}

// readFiles is read from the files themselves; rec, when not nil, is told
// every lookup.
func (l *loader) readFiles(j *candidate, rec *recorder) {
	sub := &loader{opts: l.opts}
	defer func() { j.warns = sub.warns }()
	// The root is opened and resolved once here; identify and loadHooks
	// read its files through it and check them against this resolution.
	var d *rootDir
	var known *foundManifest
	if j.versions {
		d, known = l.versionRoot(sub, j, rec)
		if d == nil {
			return
		}
	} else {
		d = openRoot(absClean(j.c.Root))
		if rec != nil {
			rec.root = d.real
			d.obs = rec
		}
	}
	defer d.close()
	real := d.realOr()
	if j.scanned && l.disabledRoots[real] {
		return
	}
	p, m, ok := sub.identify(j.c, j.fallback, known, d)
	if !ok || (j.scanned && l.disabledIDs[p.ID()]) {
		return
	}
	p.RealRoot = real
	p.InstallCache = inInstallCache(l.installCache, p)
	hooks := &loader{opts: l.opts}
	hooks.loadHooks(p, m)
	j.plugin, j.hookWarns = p, hooks.warns
}

// versionRoot opens the plugin of an install-cache plugin folder: the
// folder itself when it has a manifest, else its newest version (j.c.Root
// is then that version's folder). nil: no plugin there. rec, when not nil,
// is told the lookups when the folder is held open, and the load is marked
// as one it cannot vouch for when it is read by path.
func (l *loader) versionRoot(sub *loader, j *candidate, rec *recorder) (*rootDir, *foundManifest) {
	root := absClean(j.c.Root)
	if j.real != "" {
		// Held open where the system allows (dir_linux.go): the folder
		// listed and its versions opened relative to it, resolved by name.
		if names, versions, ok := openVersions(root, j.real); ok {
			if !mayHoldManifest(names) {
				if rec != nil {
					rec.root = j.real
					for _, d := range versions {
						d.obs, d.obsRel = rec, filepath.Base(d.path)
					}
				}
				return l.newest(j, versions)
			}
			for _, d := range versions {
				d.close()
			}
		}
	}
	rec.fail()
	entries, err := os.ReadDir(root)
	if err != nil || mayHoldManifest(entryNames(entries)) {
		// The folder may be a plugin itself (an unlistable folder may
		// still hold a manifest): look it up as a plugin first.
		d := openRoot(root)
		if path, agent, data := d.findManifest(); path != "" {
			return d, &foundManifest{path, agent, data}
		}
		d.close()
		if err != nil {
			// Listing it again gives the warning.
			sub.list(root, false)
			return nil, nil
		}
	}
	return l.newest(j, openDirs(childDirs(root, entries)))
}

// newest picks the newest of the version folders (newestVersion) and makes
// it the candidate's root.
func (l *loader) newest(j *candidate, versions []*rootDir) (*rootDir, *foundManifest) {
	d, found := newestVersion(versions)
	if d == nil {
		return nil, nil
	}
	j.c.Root = d.path
	return d, &found
}

// merge records the candidates in walk order: warnings as they came, one
// plugin per id, and the other folders claiming an id. A folder that loaded
// under one id does not load again under another (a plugin named with
// --plugin that the install cache or installed_plugins.json also lists
// runs once, as the hosts run it): the first, the one named, wins.
func (l *loader) merge() {
	roots := map[string]bool{}
	for _, f := range l.found {
		roots[f.p.RealRoot] = true
	}
	for _, q := range l.queue {
		if q.warn != nil {
			l.warns = append(l.warns, *q.warn)
			continue
		}
		j := q.job
		l.warns = append(l.warns, j.warns...)
		p := j.plugin
		if p == nil {
			continue
		}
		if first, dup := l.byID[p.ID()]; dup {
			if first.p.RealRoot != p.RealRoot && !slices.Contains(first.others, p.RealRoot) {
				first.others = append(first.others, p.RealRoot)
			}
			continue
		}
		if roots[p.RealRoot] {
			continue
		}
		roots[p.RealRoot] = true
		f := &found{p: p, hookWarns: j.hookWarns}
		l.byID[p.ID()] = f
		l.found = append(l.found, f)
	}
	l.queue = nil
}
