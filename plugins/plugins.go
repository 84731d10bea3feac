package plugins

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"
)

// Rule says how a manifest's "hooks" entry relates to the default hooks file
// hooks/hooks.json. The zero value loads no plugins at all, so a profile that
// does not set a rule never runs plugin code by accident.
type Rule int

const (
	// NoPlugins: the profile does not load plugin hooks.
	NoPlugins Rule = iota
	// CodexRule: the manifest's entry, when present, replaces the default file;
	// "hooks": {} turns the default off.
	CodexRule
	// ClaudeRule: the default file always loads and the manifest's entry names
	// extra hooks; naming the default file again is an error that drops every
	// hook of that plugin (Claude Code's "Duplicate hooks file detected").
	ClaudeRule
)

// DefaultMarketplace is the marketplace of a plugin loaded from a folder.
const DefaultMarketplace = "local"

// DefaultHooksFile is the hooks file a plugin has without saying so.
const DefaultHooksFile = "hooks/hooks.json"

// Config is one plugin the host names explicitly.
type Config struct {
	// Root is the plugin folder (the one holding .codex-plugin/ or
	// .claude-plugin/).
	Root string
	// Name overrides the manifest's name; Marketplace defaults to "local".
	Name        string
	Marketplace string
	// Enabled false loads nothing from the plugin, and also hides a plugin of
	// the same root or id that a Dirs scan finds. Nil means enabled.
	Enabled *bool
	// DataDir is the plugin's writable data folder; "" gives one under the
	// data home (Options.DataHome).
	DataDir string
}

// Options say which plugins to load and how.
type Options struct {
	// Plugins are loaded first, in order.
	Plugins []Config
	// Dirs are scanned in order: each child folder with a manifest is a
	// plugin of marketplace "local"; a child without one is read as the
	// install cache layout <marketplace>/<plugin>/<version>/, where the newest
	// version of each plugin wins. A folder that is itself a plugin is loaded
	// as one. A missing folder is skipped silently.
	Dirs []string
	// DataHome is the folder per-plugin data folders are made in ("" means
	// DefaultDataHome()).
	DataHome string
	// Rule is how manifest entries and the default hooks file combine.
	Rule Rule
	// InstallCache is the host's plugin install cache, laid out as
	// <marketplace>/<plugin>/<version>/ (Codex: $CODEX_HOME/plugins/cache);
	// "" when the host has none. A plugin found there, in the folder its id
	// names, is marked InstallCache.
	InstallCache string
	// CacheDir is where the load cache keeps what a load read, for the
	// next load to check and use (cache.go); "" keeps nothing.
	// DefaultCacheDir is the usual value.
	CacheDir string
}

// DefaultDataHome is where plugin data folders go when neither the host nor
// the plugin entry names one: <XDG data home>/hookd/plugins/data.
func DefaultDataHome() string {
	return filepath.Join(xdg.DataHome, "hookd", "plugins", "data")
}

// Plugin is one loaded plugin.
type Plugin struct {
	Name        string
	Marketplace string
	// Root is the absolute plugin folder, as found (symlinks not resolved):
	// the value of PLUGIN_ROOT.
	Root string
	// RealRoot is Root with symlinks resolved: the folder whose files run.
	RealRoot string
	// InstallCache is true when the plugin sits in the host's install cache
	// at <marketplace>/<name>/<version>/, the folder its id names (see
	// Options.InstallCache). Only such a plugin is identified by its id
	// alone; any other is identified by its id and RealRoot together.
	InstallCache bool
	// DataDir is the value of PLUGIN_DATA. Load does not create it.
	DataDir string
	// Manifest is the manifest's path, "" when the plugin has none.
	Manifest string
	// Sources are its hooks documents, in load order.
	Sources []Source
	// parse is the load cache's room for the caller's parse of Sources
	// (CachedParse, OfferParse); nil when the cache did not read it.
	parse *parseSlot
}

// ID is the plugin's id, "<name>@<marketplace>": the first part of its hook
// keys.
func (p *Plugin) ID() string { return p.Name + "@" + p.Marketplace }

// Env is what the plugin's command hooks get in their environment (see Env).
func (p *Plugin) Env() map[string]string { return Env(p.Root, p.DataDir) }

// Source is one hooks document of a plugin. Exactly one of File and Inline is
// set.
type Source struct {
	// Key names the document in hook keys: "<plugin>@<marketplace>:<path>"
	// with the path relative to the root in forward slashes, or
	// "<plugin>@<marketplace>:plugin.json#hooks[i]" for the i-th inline
	// object of the manifest (literally "plugin.json", whichever manifest
	// folder it is in, as Codex names it).
	Key string
	// Path is the file the hooks were read from: the hooks file, or the
	// manifest for inline hooks. Warnings and hooks/list show it.
	Path string
	// File is a hooks file's content: {"description"?, "hooks": {Event: [...]}}.
	File []byte
	// Inline is an inline hooks object from the manifest: {Event: [...]}.
	Inline []byte
}

// Warning is a problem found while loading; Source is the file or folder it
// is about.
type Warning struct {
	Source  string
	Message string
}

// Load finds the plugins opts names and reads their manifests and hooks
// files. Disabled plugins are left out. A plugin id (name@marketplace) found
// twice in the same folder is loaded once; an id claimed by two different
// folders is an error for both, and neither loads: picking one would let a
// folder that sorts first shadow the plugin the user meant.
func Load(opts Options) ([]*Plugin, []Warning) {
	l := &loader{opts: opts, byID: map[string]*found{}, disabledRoots: map[string]bool{}, disabledIDs: map[string]bool{}}
	if l.opts.DataHome == "" {
		l.opts.DataHome = DefaultDataHome()
	}
	for _, c := range opts.Plugins {
		if c.Enabled != nil && !*c.Enabled {
			if strings.TrimSpace(c.Root) != "" {
				l.disabledRoots[realPath(absClean(c.Root))] = true
			}
			if c.Name != "" {
				l.disabledIDs[c.Name+"@"+marketplaceOr(c.Marketplace)] = true
			}
		}
	}
	if opts.InstallCache != "" {
		l.installCache = realPath(absClean(opts.InstallCache))
	}
	// The walk only lists candidates (and its own warnings) in order; their
	// manifests are read concurrently, then merged in that order, and the
	// hooks files of the plugins that load are read concurrently too
	// (load.go). Plugins and warnings come out as reading them one by one
	// would give them.
	l.cache = openCache(opts.CacheDir, l)
	l.walking = true
	for _, c := range opts.Plugins {
		if c.Enabled != nil && !*c.Enabled {
			continue
		}
		l.explicit(c)
	}
	for _, dir := range opts.Dirs {
		l.scan(absClean(dir))
	}
	l.walking = false
	l.readAll()
	l.cache.save()
	l.merge()
	var out []*Plugin
	for _, f := range l.found {
		if len(f.others) > 0 {
			l.warn(f.p.Root, "loading neither plugin %s: the id is claimed by %s and by %s; rename one (its manifest \"name\" or its marketplace) or disable one", f.p.ID(), f.p.RealRoot, strings.Join(f.others, " and by "))
			continue
		}
		l.warns = append(l.warns, f.hookWarns...)
		out = append(out, f.p)
	}
	return out, l.warns
}

type loader struct {
	opts  Options
	found []*found
	byID  map[string]*found
	warns []Warning
	// disabledRoots are resolved roots.
	disabledRoots map[string]bool
	disabledIDs   map[string]bool
	// installCache is Options.InstallCache resolved ("" when not given).
	installCache string
	// walking: warnings and candidates are queued in walk order (load.go).
	walking bool
	queue   []queued
	// cache is the load cache, nil without one.
	cache *loadCache
}

// found is a plugin identified but not loaded yet.
type found struct {
	p *Plugin
	// others are the other folders claiming the same id.
	others []string
	// hookWarns are the warnings reading its hooks gave (load.go).
	hookWarns []Warning
}

func (l *loader) warn(source, format string, args ...any) {
	w := Warning{Source: source, Message: fmt.Sprintf(format, args...)}
	if l.walking {
		l.queue = append(l.queue, queued{warn: &w})
		return
	}
	l.warns = append(l.warns, w)
}

// add queues the plugin at c.Root; reading it and recording it are
// load.go's (candidate, read, merge). A scanned plugin is skipped when an
// explicit entry disabled its id. The same folder found twice counts once;
// another folder with the same id marks a conflict. Hooks are read only once
// every plugin is known (Load), so a plugin that does not load gives no
// warnings about its hooks.
func (l *loader) add(c Config, fallbackName string, scanned bool) {
	l.queue = append(l.queue, queued{job: &candidate{c: c, fallback: fallbackName, scanned: scanned}})
}

// inInstallCache reports whether p's resolved root is
// <cache>/<marketplace>/<name>/<version>: the folder a host installs the
// plugin with p's id into, so that the folder's place vouches for the id.
// cache is already resolved.
func inInstallCache(cache string, p *Plugin) bool {
	if cache == "" {
		return false
	}
	rel, err := filepath.Rel(cache, p.RealRoot)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	return len(parts) == 3 && parts[0] == p.Marketplace && parts[1] == p.Name
}

func marketplaceOr(m string) string {
	if m == "" {
		return DefaultMarketplace
	}
	return m
}

// dataDirName turns an id into a folder name: characters other than ASCII
// letters, digits, '_' and '-' become '-', as Claude Code does, so
// "fmt@acme.tools" keeps its data in "fmt-acme-tools".
func dataDirName(name, marketplace string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '-'
	}, name+"-"+marketplace)
}
