package plugins

import (
	"path/filepath"
	"runtime"
	"slices"
	"sync"
)

// Load works in four steps. The walk of Options.Plugins and Options.Dirs
// lists candidate plugin folders, and its own warnings, in order; it reads
// folders but no manifest. Each candidate is then identified on its own
// (newest version, manifest, resolved root), concurrently. The results are
// merged in walk order, which decides the plugins found and the ids claimed
// twice. Last, the hooks files of the plugins that load are read, again
// concurrently, and their warnings kept in order. With hundreds of plugins
// installed this is most of initialize's time, and nearly all of it is
// system calls; the order of plugins and warnings is exactly that of
// reading one plugin after the other.

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

	// warns are identify's (and the version lookup's): always kept.
	warns []Warning
	// plugin is nil when the candidate does not load.
	plugin *Plugin
	m      manifest
}

// maxReaders bounds the concurrent reads.
var maxReaders = max(4, 2*runtime.GOMAXPROCS(0))

// each calls fn(i) for i in [0, n), at most maxReaders at a time.
func each(n int, fn func(i int)) {
	sem := make(chan struct{}, maxReaders)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fn(i)
		}()
	}
	wg.Wait()
}

// readAll identifies every queued candidate, concurrently.
func (l *loader) readAll() {
	each(len(l.queue), func(i int) {
		if j := l.queue[i].job; j != nil {
			l.read(j)
		}
	})
}

// read identifies one candidate. It touches only the loader's read-only
// settings; warnings go to the candidate.
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
		// Both paths come from the root spelling identify uses.
		known = &found
	}
	// The root is resolved once here; identify and loadHooks check the
	// files they open against this resolution.
	resolved, err := filepath.EvalSymlinks(absClean(j.c.Root))
	real := resolved
	if err != nil {
		resolved, real = "", absClean(j.c.Root)
	}
	if j.scanned && l.disabledRoots[real] {
		return
	}
	p, m, ok := sub.identify(j.c, j.fallback, known, resolved)
	if !ok || (j.scanned && l.disabledIDs[p.ID()]) {
		return
	}
	p.RealRoot = real
	p.InstallCache = inInstallCache(l.installCache, p)
	j.plugin, j.m = p, m
}

// merge records the candidates in walk order: warnings as they came, one
// plugin per id, and the other folders claiming an id.
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
		if first, dup := l.byID[p.ID()]; dup {
			if first.p.RealRoot != p.RealRoot && !slices.Contains(first.others, p.RealRoot) {
				first.others = append(first.others, p.RealRoot)
			}
			continue
		}
		f := &found{p: p, m: j.m}
		l.byID[p.ID()] = f
		l.found = append(l.found, f)
	}
	l.queue = nil
}

// readAllHooks reads the hooks of every plugin that loads, concurrently;
// each keeps its warnings for Load to report in order.
func (l *loader) readAllHooks() {
	each(len(l.found), func(i int) {
		f := l.found[i]
		if len(f.others) > 0 {
			return
		}
		sub := &loader{opts: l.opts}
		sub.loadHooks(f.p, f.m)
		f.hookWarns = sub.warns
	})
}
