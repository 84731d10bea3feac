package plugins

import (
	"path/filepath"
	"runtime"
	"sync"
)

// Load works in three steps. The walk of Options.Plugins and Options.Dirs
// lists candidate plugin folders, and its own warnings, in order; it reads
// folders but no manifest. Each candidate is then read on its own (manifest,
// hooks files, symlink resolution), concurrently: with hundreds of plugins
// installed this is most of initialize's time, and nearly all of it is
// waiting on the file system. Last, the results are merged in walk order, so
// which plugin wins an id and the order of plugins and warnings are those of
// reading them one by one.

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

	// warns come before the plugin is known to load: they are always kept.
	warns []Warning
	// plugin is nil when the candidate does not load; real is its resolved
	// root, for telling a duplicate from the same folder found twice.
	plugin *Plugin
	real   string
	// hookWarns are about the plugin's hooks: kept only when it loads.
	hookWarns []Warning
}

// realCache resolves symlinks in absolute paths as filepath.EvalSymlinks
// does, remembering each folder it resolved: plugins share their parents
// (the scanned folder, a marketplace), so each costs one lstat per load
// instead of one per path component per plugin.
type realCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *realCache) resolve(p string) (string, error) {
	if c == nil {
		return filepath.EvalSymlinks(p)
	}
	c.mu.Lock()
	r, ok := c.m[p]
	c.mu.Unlock()
	if ok {
		return r, nil
	}
	parent := filepath.Dir(p)
	if parent == p || !filepath.IsAbs(p) {
		return filepath.EvalSymlinks(p)
	}
	rp, err := c.resolve(parent)
	if err == nil {
		r, err = resolveUnder(rp, filepath.Base(p))
	}
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]string{}
	}
	c.m[p] = r
	c.mu.Unlock()
	return r, nil
}

// maxReaders bounds the concurrent candidate reads.
var maxReaders = max(4, 2*runtime.GOMAXPROCS(0))

// readAll reads every queued candidate, concurrently.
func (l *loader) readAll() {
	sem := make(chan struct{}, maxReaders)
	var wg sync.WaitGroup
	for _, q := range l.queue {
		if q.job == nil {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			l.read(q.job)
		}()
	}
	wg.Wait()
}

// read identifies one candidate and reads its hooks. It touches only the
// loader's read-only settings; warnings go to the candidate.
func (l *loader) read(j *candidate) {
	sub := &loader{opts: l.opts}
	defer func() { j.warns = sub.warns }()
	var known *foundManifest
	if j.versions {
		path, agent := findManifest(j.c.Root)
		found := foundManifest{path, agent}
		if path == "" {
			var v string
			if v, found = sub.newestVersion(j.c.Root); v == "" {
				return
			}
			j.c.Root = v
		}
		// Both paths come from the same root spelling identify uses.
		known = &found
	}
	// real is as realPath gives it; resolved is "" when the root cannot be
	// resolved, and lets the hooks checks skip resolving it again.
	real := absClean(j.c.Root)
	resolved, err := l.reals.resolve(real)
	if err == nil {
		real = resolved
	} else {
		resolved = ""
	}
	if j.scanned && l.disabledRoots[real] {
		return
	}
	p, m, ok := sub.identify(j.c, j.fallback, known)
	if !ok || (j.scanned && l.disabledIDs[p.ID()]) {
		return
	}
	hooks := &loader{opts: l.opts, realRoot: resolved}
	hooks.loadHooks(p, m)
	j.plugin, j.real, j.hookWarns = p, real, hooks.warns
}

// merge applies the walk's order: warnings as they came, and for each id
// the first plugin that loads.
func (l *loader) merge() {
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
		if first, dup := l.seen[p.ID()]; dup {
			if first != j.real {
				l.warn(p.Root, "skipping plugin %s in %s: a plugin with that id was already loaded from %s", p.ID(), p.Root, first)
			}
			continue
		}
		l.seen[p.ID()] = j.real
		l.warns = append(l.warns, j.hookWarns...)
		l.plugins = append(l.plugins, p)
	}
	l.queue = nil
}
