package plugins

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adrg/xdg"

	"github.com/hookd/hookd/internal/bincode"
	"github.com/hookd/hookd/internal/regfile"
)

// The load cache keeps, between loads, what reading each candidate plugin
// folder gave (its plugin, its hooks files' bytes, its warnings), together
// with a witness: the identity and metadata (device, inode, type and
// permissions, size, modification and change times) of every folder and
// file that reading looked at, the folders on the way included. A later
// load with the same settings looks at the same things again, but only
// with one lstat each; when every one is as recorded, the candidate reads
// exactly as it did, and the kept result is used. Any difference, a
// missing entry, a file that cannot be decoded: the candidate is read from
// its files, as without a cache.
//
// Why a witness that matches means the same read. Every lookup a read
// makes is below one folder, its root, whose place the load settles anew
// each time (the walk resolves it, or the root is resolved again). The
// witness holds the root and every path component of every lookup, up to
// the first one that is missing, each by lstat, so no symlink is followed
// (a file the read opened with no symlink on its way is stamped from the
// opened file itself, which is what lstat would say): a read that met a
// symlink, or anything but folders and regular files, is not kept at all.
// Folders that only lead to stamped children are left out (witness). A folder's entries change only with its change time
// (and modification time), and a file's bytes only with its own; so when
// every folder on the way is the same inode with the same times, every
// name resolves to the same inode as before, every missing name is still
// missing, and every file holds the same bytes. Only plain local file
// systems are trusted to keep those times (localFS); on others nothing is
// kept.
//
// Racy times. A file system stamps times from a coarse clock, so a change
// made right after a stamp can carry the same stamp. A witness is kept only
// when every time in it is older than the start of the read by racyWindow:
// any change after the read started then has a later stamp.
//
// The cache holds no verdicts: the bytes it keeps are parsed and hashed by
// the caller as the files' own would be, and trust is decided on those
// hashes as always. The cache file is read through regfile (no FIFO waits,
// no symlink followed, bounded), checked whole (magic, settings,
// checksum), and ignored when anything is off; it is replaced by a
// temporary file renamed over it, so two processes sharing it see one
// whole file or the other. Failing to read or write it is never an error.

// CacheEnv turns the cache off when set to anything but "" or "0".
const CacheEnv = "HOOKD_NO_CACHE"

// DefaultCacheDir is where the load cache lives: <XDG cache home>/hookd/
// plugins, or "" when CacheEnv turns it off.
func DefaultCacheDir() string {
	if v := os.Getenv(CacheEnv); v != "" && v != "0" {
		return ""
	}
	return filepath.Join(xdg.CacheHome, "hookd", "plugins")
}

// Bounds of the cache: a file larger than maxCacheFile is not read (and
// none larger is written); a candidate whose files hold more than
// maxCachedBytes is not kept; at most maxCacheFiles files (one per set of
// load settings) are kept in the folder.
const (
	maxCacheFile   = 32 << 20
	maxCachedBytes = 1 << 20
	maxCacheFiles  = 16
)

// racyWindow: see "Racy times" above. It is far longer than any file
// system clock's step, and short enough that a plugin installed a moment
// ago is kept by the next load.
var racyWindow = 100 * time.Millisecond

// cacheMagic names the file layout; the executable's identity is in the
// settings too (cacheSettings), so another build never uses this one's file.
const cacheMagic = "hookd plugin load cache 2\n"

// stamp is the identity and metadata of one path, as lstat gives them.
type stamp struct {
	path         string
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

// recorder collects the lookups of one candidate's read, relative to its
// root (the real folder); bad marks a read it cannot vouch for. A nil
// recorder records nothing.
type recorder struct {
	root  string
	notes []lookup
	bad   bool
}

// lookup is one lookup below the root: rel, and what the read learned of
// it. A file read with no symlink on the way (found) has its stamp from
// the opened file; a name missing right below a folder the read held
// (missing) ends at that folder; any other lookup is stamped component by
// component (witness).
type lookup struct {
	rel     string
	found   bool
	id      stamp
	missing bool
}

func (r *recorder) note(rel string) {
	if r != nil {
		r.notes = append(r.notes, lookup{rel: rel})
	}
}

// found records that rel is the regular file id, reached through folders
// alone.
func (r *recorder) found(rel string, id stamp) {
	if r != nil {
		r.notes = append(r.notes, lookup{rel: rel, found: true, id: id})
	}
}

// missing records that rel, below the folder dir (both relative to the
// root), is not there, no symlink on the way.
func (r *recorder) missing(dir, rel string) {
	if r == nil {
		return
	}
	if strings.ContainsRune(rel, filepath.Separator) {
		// Which folder on the way lacks the name is not known.
		r.note(filepath.Join(dir, rel))
		return
	}
	r.notes = append(r.notes, lookup{rel: dir, missing: true})
}

func (r *recorder) fail() {
	if r != nil {
		r.bad = true
	}
}

// cacheEntry is one candidate's read: the witness and what the read gave.
type cacheEntry struct {
	key     string
	witness []stamp
	// resolve: the candidate's root must still resolve to witness[0]
	// (a root named by path; a scanned version folder's place is the
	// walk's, in the key).
	resolve   bool
	root      string // j.c.Root after the read
	warns     []Warning
	plugin    *Plugin
	hookWarns []Warning
}

// loadCache is the cache of one load: what the file held and what this
// load keeps.
type loadCache struct {
	file     string
	settings string
	start    time.Time
	old      map[string]*cacheEntry
	mu       sync.Mutex
	next     []*cacheEntry
	hits     int
	// unparsed counts the hits whose entry has no parse kept (parseSlot):
	// the caller may offer one, which is worth a write.
	unparsed int
	// pending are this load's reads that may be kept (store).
	pending []pendingEntry
	// anchors are the folders witnesses are looked up from; local are the
	// devices localFS found local.
	anchors anchors
	local   localDevs
}

// cacheStats count what the caches of this process did.
var cacheStats struct{ hits, misses, writes atomic.Int64 }

// CacheStats says what the load caches of this process did so far: plugin
// folders taken from the cache, read from their files while a cache was
// on, and cache files written.
func CacheStats() (hits, misses, writes int64) {
	return cacheStats.hits.Load(), cacheStats.misses.Load(), cacheStats.writes.Load()
}

// openCache reads the cache file for the load l describes, in dir; nil
// when dir is "" or the system has no cache.
func openCache(dir string, l *loader) *loadCache {
	if dir == "" || !cacheSupported {
		return nil
	}
	settings, ok := cacheSettings(l)
	if !ok {
		return nil
	}
	c := &loadCache{file: filepath.Join(dir, cacheFileName(settings)), settings: settings, start: time.Now(), old: map[string]*cacheEntry{}}
	if data, err := readCacheFile(c.file); err == nil {
		if entries, ok := decodeCache(data, settings); ok {
			for _, e := range entries {
				c.old[e.key] = e
			}
		}
	}
	return c
}

// cacheSettings is everything besides a candidate's own key that its read
// depends on: the executable (another build may read differently) and the
// loader's options.
func cacheSettings(l *loader) (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	field := func(s string) { b.WriteString(strconv.Quote(s)); b.WriteByte(' ') }
	field(exe)
	field(fileIdentity(fi))
	field(l.opts.DataHome)
	field(strconv.Itoa(int(l.opts.Rule)))
	field(l.installCache)
	for _, set := range []map[string]bool{l.disabledRoots, l.disabledIDs} {
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		field(strings.Join(keys, "\x00"))
	}
	return b.String(), true
}

// cacheFileName names the file of one set of settings.
func cacheFileName(settings string) string {
	return "load-" + strconv.FormatUint(uint64(crc32.ChecksumIEEE([]byte(settings))), 16) + ".cache"
}

// cacheKey is what a candidate is before it is read: each field with its
// length before it, so no two candidates share a key.
func cacheKey(j *candidate) string {
	b := make([]byte, 0, 2*len(j.c.Root)+64)
	for _, s := range []string{j.c.Root, j.c.Name, j.c.Marketplace, j.c.DataDir, j.fallback, j.real} {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	b = strconv.AppendBool(b, j.scanned)
	b = strconv.AppendBool(b, j.versions)
	return string(b)
}

// recorder is a new recorder for one read, nil without a cache.
func (c *loadCache) recorder() *recorder {
	if c == nil {
		return nil
	}
	return &recorder{}
}

// replay gives j what the cache kept for it when its witness still holds.
func (c *loadCache) replay(j *candidate) bool {
	if c == nil {
		return false
	}
	key := cacheKey(j)
	e := c.old[key]
	if e == nil || !c.holds(e, j) {
		cacheStats.misses.Add(1)
		return false
	}
	cacheStats.hits.Add(1)
	j.c.Root, j.warns, j.hookWarns = e.root, slices.Clone(e.warns), slices.Clone(e.hookWarns)
	if e.plugin != nil {
		p := *e.plugin
		p.Sources = slices.Clone(p.Sources)
		j.plugin = &p
	}
	c.mu.Lock()
	c.next = append(c.next, e)
	c.hits++
	if e.plugin != nil && !e.plugin.parse.answered() {
		c.unparsed++
	}
	c.mu.Unlock()
	return true
}

// holds reports whether every path of the witness is as recorded, each
// looked up from the root's parent folder (anchors.lstamper).
func (c *loadCache) holds(e *cacheEntry, j *candidate) bool {
	if len(e.witness) == 0 {
		return false
	}
	root := e.witness[0].path
	if e.resolve {
		real, ok := resolveDir(absClean(j.c.Root))
		if !ok || real != root {
			return false
		}
	}
	lstamp := c.anchors.lstamper(filepath.Dir(root))
	for _, want := range e.witness {
		if got, err := lstamp(want.path); err != nil || got != want {
			return false
		}
	}
	return true
}

// lstamper is lstamp for paths below the folder anchor, which it holds open
// for the load: the same lookup as by the whole path, without walking
// from / for each.
func (a *anchors) lstamper(anchor string) func(string) (stamp, error) {
	fd, held := a.open(anchor)
	return func(path string) (stamp, error) {
		if rel, inside := strings.CutPrefix(path, anchor+string(filepath.Separator)); held && inside {
			return lstampAt(fd, rel, path)
		}
		return lstamp(path)
	}
}

// store offers what readFiles gave j to the cache: kept when rec can
// vouch for it. The witness is stamped later, off the load's path (save):
// that is as sound as stamping now, since anything changed after the load
// started carries a later time and is refused (witness).
func (c *loadCache) store(key string, j *candidate, rec *recorder) {
	if c == nil || rec == nil || rec.bad || cachedBytes(j) > maxCachedBytes {
		return
	}
	e := &cacheEntry{key: key, resolve: !j.versions, root: j.c.Root, warns: slices.Clone(j.warns), hookWarns: slices.Clone(j.hookWarns)}
	if j.plugin != nil {
		// A copy: the caller's plugin is its own while the cache is
		// written. The two share the room for the caller's parse.
		j.plugin.parse = &parseSlot{}
		p := *j.plugin
		p.Sources = slices.Clone(p.Sources)
		e.plugin = &p
	}
	c.mu.Lock()
	c.pending = append(c.pending, pendingEntry{e, rec})
	c.mu.Unlock()
}

// pendingEntry is a read waiting for its witness.
type pendingEntry struct {
	e   *cacheEntry
	rec *recorder
}

// cachedBytes is about what keeping j's read costs.
func cachedBytes(j *candidate) int {
	n := 0
	if j.plugin != nil {
		for _, s := range j.plugin.Sources {
			n += len(s.File) + len(s.Inline)
		}
	}
	return n
}

// witness stamps the root and the components of every lookup (see the
// package's cache notes); ok is false when the read cannot be vouched for.
//
// A folder that every lookup passed through on the way to a child that is
// there, and whose own folder is in the witness, is left out: its entry in
// that folder is fixed (so it is the same folder, and no symlink), and each
// child is stamped itself, lstat showing what the folder holds at that
// name now. A folder where a lookup ended (a name missing below it, or the
// folder itself looked at) is always in. A file the read opened with no
// symlink on the way is stamped from the opened file, and the folders on
// its way need no lstat of their own unless they are in the witness.
func (r *recorder) witness(start time.Time, local *localDevs, anchors *anchors) ([]stamp, bool) {
	if r == nil || r.bad || r.root == "" {
		return nil, false
	}
	// Looked up from the root's parent, as holds does.
	lstamp := anchors.lstamper(filepath.Dir(r.root))
	rootStamp, err := lstamp(r.root)
	if err != nil || !isDirMode(rootStamp.mode) {
		return nil, false
	}
	type node struct {
		stamp
		known  bool // stamp (and type) known; else a folder to lstat if kept
		parent int  // index in all; -1 for the root
		ended  bool
	}
	// A plugin's read looks at a handful of paths: a slice searched from
	// the end does better than a map.
	all := make([]node, 1, 8)
	all[0] = node{stamp: rootStamp, known: true, parent: -1}
	// at is the node of path, made (with parent) when new.
	at := func(path string, parent int) (int, bool) {
		for i := len(all) - 1; i >= 0; i-- {
			if all[i].path == path {
				return i, false
			}
		}
		all = append(all, node{stamp: stamp{path: path}, parent: parent})
		return len(all) - 1, true
	}
	for _, n := range r.notes {
		rest := n.rel
		cur, i := r.root, 0
		for rest != "" {
			part, after, more := strings.Cut(rest, string(filepath.Separator))
			rest = after
			last := !more
			switch part {
			case "", ".":
				continue
			case "..":
				return nil, false
			}
			cur = cur + string(filepath.Separator) + part
			j, fresh := at(cur, i)
			switch {
			case n.found && last:
				id := n.id
				id.path = cur
				all[j].stamp, all[j].known = id, true
			case n.found:
				// A folder on a way without symlinks: stamped only if
				// kept.
			case fresh || !all[j].known:
				st, err := lstamp(cur)
				if (errors.Is(err, fs.ErrNotExist) || isNotDir(err)) && fresh {
					// Missing: the folder above says so.
					all = all[:j]
					goto ended
				}
				if err != nil || !(isDirMode(st.mode) || isRegularMode(st.mode)) {
					return nil, false
				}
				all[j].stamp, all[j].known = st, true
			}
			i = j
			if all[j].known && isRegularMode(all[j].mode) {
				break
			}
		}
	ended:
		if !n.found {
			// i is where this lookup ended: its last component, or the
			// deepest folder on its way that is there.
			all[i].ended = true
		}
	}
	kept := make([]bool, len(all))
	out := make([]stamp, 0, len(all))
	limit := start.Add(-racyWindow).UnixNano()
	for i := range all {
		s := &all[i]
		// Parents come before their children in all.
		kept[i] = i == 0 || s.ended || (s.known && isRegularMode(s.mode)) || !kept[s.parent]
		if !kept[i] {
			continue
		}
		if !s.known {
			st, err := lstamp(s.path)
			if err != nil || !isDirMode(st.mode) {
				return nil, false
			}
			s.stamp, s.known = st, true
		}
		if s.mtime >= limit || s.ctime >= limit {
			return nil, false
		}
		out = append(out, s.stamp)
	}
	if !local.check(out) {
		return nil, false
	}
	return out, true
}

// localDevs remembers, for one load, the devices found on local file
// systems (localFS).
type localDevs struct {
	mu    sync.Mutex
	known map[uint64]bool
}

// check reports whether every stamp is on a local file system.
func (l *localDevs) check(stamps []stamp) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.known == nil {
		l.known = map[uint64]bool{}
	}
	for _, s := range stamps {
		local, ok := l.known[s.dev]
		if !ok {
			local = localFS(s.path)
			l.known[s.dev] = local
		}
		if !local {
			return false
		}
	}
	return true
}

// cacheWrites are the cache files being written (save).
var cacheWrites sync.WaitGroup

// WaitCacheWrites returns once every load cache file this process started
// writing is written (or given up). A process that is about to exit calls it,
// so that what its loads read is kept for the next one.
func WaitCacheWrites() { cacheWrites.Wait() }

// cacheHolds are the holds on cache writes (HoldCacheWrites) and the
// writes put off until the last is released.
var cacheHolds struct {
	mu     sync.Mutex
	n      int
	queued []*loadCache
}

// HoldCacheWrites puts off the writing of load cache files until the
// function it returns is called (once; holds may overlap, and the last
// release starts what they put off). A server holds them while it answers a
// load, so that a first start's write does not compete with the reply the
// host waits for. WaitCacheWrites waits for held writes too, so a hold must
// always be released.
func HoldCacheWrites() (release func()) {
	cacheHolds.mu.Lock()
	cacheHolds.n++
	cacheHolds.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			cacheHolds.mu.Lock()
			cacheHolds.n--
			var start []*loadCache
			if cacheHolds.n == 0 {
				start, cacheHolds.queued = cacheHolds.queued, nil
			}
			cacheHolds.mu.Unlock()
			for _, c := range start {
				go c.background()
			}
		})
	}
}

// save writes, in the background, the entries this load used or read when
// they differ from the file's, and then lets go of the anchors; while a hold
// is on (HoldCacheWrites), once it is released. Errors are dropped: the
// next load reads the files again.
func (c *loadCache) save() {
	if c == nil {
		return
	}
	if len(c.pending) == 0 && c.hits == len(c.old) && c.unparsed == 0 {
		c.anchors.close()
		return
	}
	cacheWrites.Add(1)
	cacheHolds.mu.Lock()
	held := cacheHolds.n > 0
	if held {
		cacheHolds.queued = append(cacheHolds.queued, c)
	}
	cacheHolds.mu.Unlock()
	if !held {
		go c.background()
	}
}

// background is save's write, on a goroutine of its own.
func (c *loadCache) background() {
	defer cacheWrites.Done()
	defer c.anchors.close()
	c.write()
}

// write stamps the witnesses of the reads waiting for them and writes the
// file, unless nothing new is kept and nothing old was dropped.
func (c *loadCache) write() {
	kept := 0
	for _, p := range c.pending {
		if witness, ok := p.rec.witness(c.start, &c.local, &c.anchors); ok {
			p.e.witness = witness
			c.next = append(c.next, p.e)
			kept++
		}
	}
	parsed := 0
	for _, e := range c.next {
		if e.plugin != nil && e.plugin.parse.take() {
			parsed++
		}
	}
	if kept == 0 && c.hits == len(c.old) && parsed == 0 {
		return
	}
	slices.SortFunc(c.next, func(a, b *cacheEntry) int { return strings.Compare(a.key, b.key) })
	data := encodeCache(c.settings, c.next)
	if len(data) > maxCacheFile {
		return
	}
	if writeCacheFile(c.file, data) == nil {
		cacheStats.writes.Add(1)
	}
}

// readCacheFile reads the cache file, refusing a symlink, a FIFO and
// anything too large.
func readCacheFile(path string) ([]byte, error) {
	f, err := regfile.OpenNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return regfile.ReadAll(f, maxCacheFile)
}

// writeCacheFile replaces the cache file with data: written to a new
// temporary file in the folder, then renamed over the old name, so a
// reader sees one whole file or the other and whatever was planted at the
// name is replaced, never written through. Old files of other settings
// beyond maxCacheFiles go.
func writeCacheFile(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".load-*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	pruneCacheDir(dir, filepath.Base(path))
	return nil
}

// pruneCacheDir removes the oldest cache files beyond maxCacheFiles, and
// temporary files a writer left more than an hour ago. Only regular files
// with the cache's names are removed.
func pruneCacheDir(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		name := e.Name()
		isTemp := strings.HasPrefix(name, ".load-") && strings.HasSuffix(name, ".tmp")
		if !isTemp && !(strings.HasPrefix(name, "load-") && strings.HasSuffix(name, ".cache")) || name == keep {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if isTemp {
			if time.Since(fi.ModTime()) > time.Hour {
				_ = os.Remove(filepath.Join(dir, name))
			}
			continue
		}
		files = append(files, file{name, fi.ModTime()})
	}
	if len(files) < maxCacheFiles {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:len(files)-maxCacheFiles+1] {
		_ = os.Remove(filepath.Join(dir, f.name))
	}
}

// The file: cacheMagic, the settings, the entries, and a CRC-32 of all
// that. Numbers are uvarints, strings and byte strings a length and their
// bytes.

// writeWarnings appends ws; readWarnings reads them.
func writeWarnings(w *bincode.Writer, ws []Warning) {
	w.Num(uint64(len(ws)))
	for _, x := range ws {
		w.Str(x.Source)
		w.Str(x.Message)
	}
}

func encodeCache(settings string, entries []*cacheEntry) []byte {
	w := &bincode.Writer{B: []byte(cacheMagic)}
	w.Str(settings)
	w.Num(uint64(len(entries)))
	for _, e := range entries {
		w.Str(e.key)
		w.Num(uint64(len(e.witness)))
		for _, s := range e.witness {
			w.Str(s.path)
			w.Num(s.dev)
			w.Num(s.ino)
			w.Num(uint64(s.mode))
			w.Num(uint64(s.size))
			w.Num(uint64(s.mtime))
			w.Num(uint64(s.ctime))
		}
		w.Flag(e.resolve)
		w.Str(e.root)
		writeWarnings(w, e.warns)
		writeWarnings(w, e.hookWarns)
		w.Flag(e.plugin != nil)
		if p := e.plugin; p != nil {
			for _, s := range []string{p.Name, p.Marketplace, p.Root, p.RealRoot, p.DataDir, p.Manifest} {
				w.Str(s)
			}
			w.Flag(p.InstallCache)
			w.Num(uint64(len(p.Sources)))
			for _, s := range p.Sources {
				w.Str(s.Key)
				w.Str(s.Path)
				w.Flag(s.File != nil)
				w.Bytes(s.File)
				w.Flag(s.Inline != nil)
				w.Bytes(s.Inline)
			}
			kept := p.parse.data()
			w.Flag(kept != nil)
			w.Bytes(kept)
		}
	}
	return binary.LittleEndian.AppendUint32(w.B, crc32.ChecksumIEEE(w.B))
}

func readWarnings(r *bincode.Reader) []Warning {
	n := r.Count(2)
	var out []Warning
	for range n {
		out = append(out, Warning{Source: r.Str(), Message: r.Str()})
	}
	return out
}

// decodeCache reads a cache file written for settings; ok is false for
// anything else: another layout or settings, a wrong checksum, a file cut
// short or with bytes left over.
func decodeCache(data []byte, settings string) ([]*cacheEntry, bool) {
	if len(data) < len(cacheMagic)+4 || !bytes.HasPrefix(data, []byte(cacheMagic)) {
		return nil, false
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, false
	}
	// The entries' bytes and strings stay in data (str).
	r := &bincode.Reader{B: body[len(cacheMagic):]}
	if r.Str() != settings {
		return nil, false
	}
	n := r.Count(8)
	out := make([]*cacheEntry, 0, n)
	for range n {
		e := &cacheEntry{key: r.Str()}
		for range r.Count(7) {
			e.witness = append(e.witness, stamp{path: r.Str(), dev: r.Num(), ino: r.Num(), mode: uint32(r.Num()),
				size: int64(r.Num()), mtime: int64(r.Num()), ctime: int64(r.Num())})
		}
		e.resolve = r.Flag()
		e.root = r.Str()
		e.warns = readWarnings(r)
		e.hookWarns = readWarnings(r)
		if r.Flag() {
			p := &Plugin{Name: r.Str(), Marketplace: r.Str(), Root: r.Str(), RealRoot: r.Str(), DataDir: r.Str(), Manifest: r.Str()}
			p.InstallCache = r.Flag()
			for range r.Count(6) {
				s := Source{Key: r.Str(), Path: r.Str()}
				if file, data := r.Flag(), r.Raw(); file {
					s.File = data
				}
				if inline, data := r.Flag(), r.Raw(); inline {
					s.Inline = data
				}
				p.Sources = append(p.Sources, s)
			}
			p.parse = &parseSlot{}
			if answered, kept := r.Flag(), r.Raw(); answered {
				// In place, as the sources are (str).
				p.parse.kept = answer(kept)
			}
			e.plugin = p
		}
		if r.Bad {
			return nil, false
		}
		out = append(out, e)
	}
	if r.Bad || len(r.B) != 0 {
		return nil, false
	}
	return out, true
}

// parseSlot is the load cache's room, in a plugin it read, for what the
// caller derives from the plugin's sources (its parse): kept is what the
// cache holds (nil: nothing asked yet; empty: the caller had nothing to
// keep), offer what the caller gave to make it (OfferParse), called by
// the cache's write. A plugin from a cache entry shares its entry's slot.
type parseSlot struct {
	mu    sync.Mutex
	kept  []byte
	offer func() []byte
}

func (s *parseSlot) answered() bool { return s.data() != nil }

// answer is kept as a slot holds it: never nil, even when empty.
func answer(kept []byte) []byte {
	if kept == nil {
		return []byte{}
	}
	return kept
}

func (s *parseSlot) data() []byte {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kept
}

// take makes the parse the caller offered, when nothing is kept yet, and
// reports whether it kept something new. offer runs outside the lock: it
// parses, and CachedParse must not wait for that.
func (s *parseSlot) take() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	offer := s.offer
	s.offer = nil
	done := s.kept != nil
	s.mu.Unlock()
	if done || offer == nil {
		return false
	}
	kept := answer(offer())
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept != nil {
		return false
	}
	s.kept = kept
	return true
}

// CachedParse is what a caller's OfferParse made of this plugin's sources
// in an earlier load, kept by the load cache with the plugin's read, and
// whether there is any: data may be empty when that caller found nothing
// to keep. It is false for a plugin the cache did not take from an entry.
// The bytes are the cache's: the caller must not change them.
func (p *Plugin) CachedParse() (data []byte, ok bool) {
	data = p.parse.data()
	return data, data != nil
}

// OfferParse lets the load cache keep what the caller derives from this
// plugin's sources, for CachedParse in later loads that read the plugin
// the same. The cache calls make at most once, on the goroutine that writes
// its file (after the load, never on the caller's way), and keeps what it
// returns (nil: nothing to keep; later loads do not ask again): make must
// derive it from p's sources alone, as the caller would from the same
// bytes. A plugin the cache will not keep, or that has a parse kept
// already, ignores the offer.
func (p *Plugin) OfferParse(make func() []byte) {
	s := p.parse
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		s.offer = make
	}
}
