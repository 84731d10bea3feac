package plugins

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// manifest is what identify learned from a plugin's manifest.
type manifest struct {
	// hooks is the manifest's "hooks" entry (it may not exist).
	hooks gjson.Result
	// agent: an Agent Plugins root plugin.json, which has no hooks.
	agent bool
	// dir is the plugin root, opened and resolved once for the whole
	// load: its files are read through it.
	dir *rootDir
}

// identify reads the plugin's manifest far enough to name it. ok is false
// when the plugin cannot load at all (its manifest is unreadable or
// malformed), with a warning.
//
// known is the root's manifest when the caller already looked it up (nil:
// look it up). d is absClean(c.Root), opened.
func (l *loader) identify(c Config, fallbackName string, known *foundManifest, d *rootDir) (*Plugin, manifest, bool) {
	p := &Plugin{Root: absClean(c.Root), Marketplace: marketplaceOr(c.Marketplace), Name: strings.TrimSpace(c.Name)}
	m := manifest{dir: d}
	var data []byte
	if known != nil {
		p.Manifest, m.agent, data = known.path, known.agent, known.data
	} else {
		p.Manifest, m.agent, data = d.findManifest()
	}
	if p.Manifest != "" {
		if data == nil {
			var err error
			if data, err = d.read(p.Manifest); err != nil {
				l.warn(p.Manifest, "skipping plugin %s: failed to read plugin manifest %s: %v", p.Root, p.Manifest, pathErr(err))
				return nil, m, false
			}
		}
		data = bytes.TrimPrefix(data, utf8BOM)
		if msg := jsonProblem(data); msg != "" {
			l.warn(p.Manifest, "skipping plugin %s: failed to parse plugin manifest %s: %s", p.Root, p.Manifest, msg)
			return nil, m, false
		}
		root := gjson.ParseBytes(data)
		if !root.IsObject() {
			l.warn(p.Manifest, "skipping plugin %s: failed to parse plugin manifest %s: expected a JSON object", p.Root, p.Manifest)
			return nil, m, false
		}
		if name := root.Get("name"); p.Name == "" && name.Type == gjson.String {
			p.Name = strings.TrimSpace(name.Str)
		}
		m.hooks = root.Get("hooks")
	}
	if p.Name == "" {
		p.Name = fallbackName
	}
	p.DataDir = c.DataDir
	if p.DataDir == "" {
		market := p.Marketplace
		if l.opts.Rule == ClaudeRule && c.Marketplace == "" {
			// Claude Code names a plugin given inline (--plugin-dir)
			// <name>-inline.
			market = inlineMarketplace
		}
		p.DataDir = filepath.Join(l.opts.DataHome, dataDirName(p.Name, market))
	} else {
		p.DataDir = absClean(p.DataDir)
	}
	return p, m, true
}

// inlineMarketplace names the data folder of a Claude plugin given inline.
const inlineMarketplace = "inline"

// utf8BOM starts files saved by some Windows editors; JSON parsers refuse it.
var utf8BOM = []byte("\xef\xbb\xbf")

// jsonProblem says why data is not valid JSON, or "" when it is.
func jsonProblem(data []byte) string {
	if len(bytes.TrimSpace(data)) == 0 {
		return "empty file"
	}
	if json.Valid(data) {
		return ""
	}
	var v json.RawMessage
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Sprintf("%v (byte %d)", strings.TrimPrefix(err.Error(), "json: "), se.Offset)
		}
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return ""
}

// entry is a manifest "hooks" entry sorted into its forms.
type entry struct {
	present bool
	paths   []string
	inline  []gjson.Result
}

// readEntry sorts the "hooks" entry: a path, an array of paths, an inline
// hooks object or an array of them. Anything else, an empty array included,
// counts as no entry, with a warning for a wrong type.
func (l *loader) readEntry(p *Plugin, v gjson.Result) entry {
	var e entry
	switch {
	case !v.Exists() || v.Type == gjson.Null:
	case v.Type == gjson.String:
		e = entry{present: true, paths: []string{v.Str}}
	case v.IsObject():
		e = entry{present: true, inline: []gjson.Result{v}}
	case v.IsArray():
		items := v.Array()
		strs, objs := 0, 0
		for _, it := range items {
			switch {
			case it.Type == gjson.String:
				strs++
				e.paths = append(e.paths, it.Str)
			case it.IsObject():
				objs++
				e.inline = append(e.inline, it)
			}
		}
		switch {
		case len(items) == 0:
			return entry{}
		case strs == len(items) || objs == len(items):
			e.present = true
		default:
			l.warn(p.Manifest, "ignoring hooks in %s: expected a string, string array, object, or object array; found an array of %s", p.Manifest, arrayKinds(items))
			return entry{}
		}
	default:
		l.warn(p.Manifest, "ignoring hooks in %s: expected a string, string array, object, or object array; found %s", p.Manifest, kind(v))
	}
	return e
}

func kind(v gjson.Result) string {
	switch {
	case v.Type == gjson.True || v.Type == gjson.False:
		return "a boolean"
	case v.Type == gjson.Number:
		return "a number"
	case v.Type == gjson.String:
		return "a string"
	case v.IsArray():
		return "an array"
	case v.IsObject():
		return "an object"
	}
	return "null"
}

func arrayKinds(items []gjson.Result) string {
	var kinds []string
	seen := map[string]bool{}
	for _, it := range items {
		if k := strings.TrimPrefix(strings.TrimPrefix(kind(it), "a "), "an "); !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	return strings.Join(kinds, " and ")
}

// loadHooks fills p.Sources from the manifest entry and the default hooks
// file, by the loader's rule.
func (l *loader) loadHooks(p *Plugin, m manifest) {
	if m.agent {
		l.warn(p.Manifest, "loading no hooks for plugin %s: %s is an Agent Plugins manifest (agent-plugins.org), which has no hooks and takes precedence over .codex-plugin/ and .claude-plugin/ (Codex does the same, silently); remove it to load the plugin's hooks", p.ID(), p.Manifest)
		return
	}
	if p.Manifest == "" {
		// Claude Code's manifest is optional: a folder with only
		// hooks/hooks.json is a plugin named after the folder.
		if !l.addFile(p, m.dir, DefaultHooksFile, true) {
			l.warn(p.Root, "plugin %s in %s has no manifest (%s) and no %s: it has no hooks", p.ID(), p.Root, strings.Join(manifestPaths, ", "), DefaultHooksFile)
		}
		return
	}
	e := l.readEntry(p, m.hooks)
	var valid []string
	seen := map[string]bool{}
	for _, raw := range e.paths {
		rel, err := checkPath(raw)
		if err == nil {
			err = m.dir.escapes(rel)
		}
		if err != nil {
			l.warn(p.Manifest, "ignoring hooks path %q in %s: %v", raw, p.Manifest, err)
			continue
		}
		if seen[rel] {
			l.warn(p.Manifest, "ignoring hooks path %q in %s: the file is already listed", raw, p.Manifest)
			continue
		}
		seen[rel] = true
		valid = append(valid, rel)
	}
	// The forms are never mixed: paths, or inline objects.
	allInvalid := len(e.paths) > 0 && len(valid) == 0

	switch l.opts.Rule {
	case ClaudeRule:
		if seen[DefaultHooksFile] {
			l.warn(p.Manifest, "loading no hooks for plugin %s: Duplicate hooks file detected: %s names ./%s, which always loads; manifest.hooks should only reference additional hook files", p.ID(), p.Manifest, DefaultHooksFile)
			return
		}
		l.addFile(p, m.dir, DefaultHooksFile, true)
	default:
		if allInvalid {
			l.warn(p.Manifest, "no valid hooks path in %s: loading the default ./%s instead", p.Manifest, DefaultHooksFile)
		}
		if !e.present || allInvalid {
			l.addFile(p, m.dir, DefaultHooksFile, true)
			return
		}
	}
	for _, rel := range valid {
		l.addFile(p, m.dir, rel, false)
	}
	for i, obj := range e.inline {
		l.addInline(p, i, obj)
	}
}

// addFile adds the hooks file root/rel, read through d (the root). It
// reports whether the file exists; a missing default file is the normal
// case and says nothing.
func (l *loader) addFile(p *Plugin, d *rootDir, rel string, isDefault bool) bool {
	full := filepath.Join(p.Root, filepath.FromSlash(rel))
	// A file read is one that exists and does not escape (readInRoot
	// checks both), so the default file's own checks, and their messages,
	// are needed only when the read fails: the file and its path are
	// resolved once per plugin, not twice.
	data, err := d.read(full)
	if err != nil {
		if isDefault {
			if _, err := os.Lstat(full); errors.Is(err, fs.ErrNotExist) {
				return false
			}
			if err := d.escapes(rel); err != nil {
				l.warn(full, "ignoring hooks file %s of plugin %s: %v", full, p.ID(), err)
				return true
			}
		}
		l.warn(full, "failed to read plugin hooks config %s: %v", full, pathErr(err))
		return true
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// Codex skips an empty hooks file without a word.
		return true
	}
	p.Sources = append(p.Sources, Source{Key: p.ID() + ":" + rel, Path: full, File: data})
	return true
}

// addInline adds the i-th inline hooks object of the manifest. It may be
// shaped like a hooks file ({"description"?, "hooks": {...}}, as Codex
// documents) or be the event map itself (as Claude Code's marketplace docs
// show); both are read.
func (l *loader) addInline(p *Plugin, i int, obj gjson.Result) {
	hooks := obj
	if h := obj.Get("hooks"); h.Exists() {
		obj.ForEach(func(k, _ gjson.Result) bool {
			if k.Str != "hooks" && k.Str != "description" {
				l.warn(p.Manifest, "ignoring unknown field %q in inline hooks[%d] of %s", k.Str, i, p.Manifest)
			}
			return true
		})
		switch {
		case h.Type == gjson.Null:
			return
		case !h.IsObject():
			l.warn(p.Manifest, "ignoring inline hooks[%d] in %s: field \"hooks\" must be an object of hook events", i, p.Manifest)
			return
		}
		hooks = h
	}
	empty := true
	hooks.ForEach(func(_, _ gjson.Result) bool { empty = false; return false })
	if empty {
		// "hooks": {} is how a Codex plugin turns its default file off.
		return
	}
	p.Sources = append(p.Sources, Source{Key: fmt.Sprintf("%s:plugin.json#hooks[%d]", p.ID(), i), Path: p.Manifest, Inline: []byte(hooks.Raw)})
}

// checkPath applies the lexical rules to a manifest path and returns it
// cleaned, relative to the root, with forward slashes.
func checkPath(raw string) (string, error) {
	rest, ok := strings.CutPrefix(raw, "./")
	if !ok {
		return "", errors.New(`a hooks path must start with "./"`)
	}
	// Both separators count, so "..\\x" is refused on every system alike.
	for _, part := range strings.FieldsFunc(rest, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "", errors.New(`a hooks path must not contain ".."`)
		}
	}
	if strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, `\`) || filepath.VolumeName(rest) != "" {
		return "", errors.New("a hooks path must be relative to the plugin root")
	}
	clean := path.Clean(filepath.ToSlash(rest))
	if clean == "." {
		return "", errors.New("a hooks path must name a file, not the plugin root")
	}
	return clean, nil
}

// escapes reports, as an error, whether root/rel leads outside root once
// symlinks are resolved. A path that does not exist does not escape; reading
// it fails later with its own message. realRoot is as for readInRoot.
func escapes(root, realRoot, rel string) error {
	realRoot, err := resolveRoot(root, realRoot)
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return nil
	}
	r, err := filepath.Rel(realRoot, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return fmt.Errorf("it resolves to %s, outside the plugin root %s (through a symlink)", real, realRoot)
	}
	return nil
}
