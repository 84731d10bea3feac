package plugins

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// rootDir is a plugin folder as one load reads it: found at path, resolved
// once to real, and, where the system allows it (dir_linux.go), held open so
// that its files are looked up relative to the folder itself, with the kernel
// keeping every lookup inside it. That is what makes a load with hundreds of
// plugins cheap: a file costs an open, a stat, a read and a close, with no
// path walked from / again and no symlink resolved in user space.
//
// Each lookup the open folder cannot settle (a symlink that leaves the
// folder, a kernel without the call, anything unusual) is made again the
// portable way, by path (readInRoot, escapes), so what a load finds and the
// words of its warnings are the same either way; the open folder only ever
// answers the cases it can prove.
type rootDir struct {
	// path is the folder as found (absolute, symlinks not resolved).
	path string
	// real is path with symlinks resolved, "" when it could not be: each
	// check then resolves again and fails as it would have.
	real string
	h    handle
	// obs, when a cache is on, is told every lookup below the folder
	// (cache.go); obsRel is the folder's place below obs.root.
	obs    *recorder
	obsRel string
}

// heldOpen says whether openRoot holds folders open where the system can;
// tests turn it off to compare a load both ways.
var heldOpen = true

// openRoot opens the plugin folder path (absolute and clean) for one load.
// Close it when done.
func openRoot(path string) *rootDir {
	d := &rootDir{path: path}
	if heldOpen {
		if h, real, ok := openHandle(path); ok {
			d.h, d.real = h, real
			return d
		}
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		d.real = r
	}
	return d
}

// byPath is a plugin folder looked up by path alone, resolved by each check
// (for one-off lookups outside a load).
func byPath(path string) *rootDir { return &rootDir{path: path} }

func (d *rootDir) close() { d.h.close() }

// realOr is the resolved folder, or its path when it could not be resolved.
func (d *rootDir) realOr() string {
	if d.real != "" {
		return d.real
	}
	return d.path
}

// rel is path relative to the folder, when path is inside it lexically.
func (d *rootDir) rel(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, d.path+string(filepath.Separator))
	if !ok || rest == "" {
		return "", false
	}
	for part := range strings.SplitSeq(rest, string(filepath.Separator)) {
		if part == "" || part == "." || part == ".." {
			return "", false
		}
	}
	return rest, true
}

// note tells the recorder, if any, that rel (relative to the folder) was
// looked up.
func (d *rootDir) note(rel string) {
	if d.obs != nil {
		d.obs.note(filepath.Join(d.obsRel, rel))
	}
}

// read is readInRoot for a file of this folder.
func (d *rootDir) read(path string) ([]byte, error) {
	rel, ok := d.rel(path)
	if !ok {
		// Not below the folder: nothing a recorder can vouch for.
		d.obs.fail()
		return readInRoot(d.path, d.real, path)
	}
	data, id, settled, err := d.h.read(rel, d.obs != nil)
	switch {
	case !settled:
		// Read by path: through a symlink, or something odd, that a
		// recorder cannot vouch for.
		d.obs.fail()
		return readInRoot(d.path, d.real, path)
	case err == nil:
		d.obs.found(filepath.Join(d.obsRel, rel), id)
		return data, nil
	case conclusive(err):
		d.obs.missing(d.obsRel, rel)
	default:
		d.note(rel)
	}
	return nil, &fs.PathError{Op: "open", Path: path, Err: err}
}

// isFile reports whether rel names something other than a folder (symlinks
// followed): os.Stat succeeds and it is not a directory.
func (d *rootDir) isFile(rel string) bool {
	d.note(rel)
	if isDir, settled, err := d.h.stat(rel); settled {
		return err == nil && !isDir
	}
	fi, err := os.Stat(filepath.Join(d.path, rel))
	return err == nil && !fi.IsDir()
}

// escapes is the package's escapes for a path relative to this folder.
func (d *rootDir) escapes(rel string) error {
	d.note(filepath.FromSlash(rel))
	if d.h.inside(filepath.FromSlash(rel)) {
		return nil
	}
	return escapes(d.path, d.real, rel)
}

// findManifest returns the path of the folder's manifest, or "" when it has
// none; agent is true when it is an Agent Plugins root plugin.json. data is
// the manifest when finding it meant reading it already (nil: not read).
func (d *rootDir) findManifest() (path string, agent bool, data []byte) {
	rootManifest := filepath.Join(d.path, "plugin.json")
	if data, err := d.read(rootManifest); err == nil {
		if isAgentManifest(data) {
			return rootManifest, true, data
		}
	}
	for _, rel := range manifestPaths {
		p := filepath.Join(d.path, rel)
		if data, err := d.read(p); err == nil {
			return p, false, data
		} else if !errors.Is(err, fs.ErrNotExist) && d.isFile(rel) {
			// There but unreadable: it is still the manifest, and
			// reading it again gives identify its warning.
			return p, false, nil
		}
	}
	return "", false, nil
}
