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
	// DataDir is the value of PLUGIN_DATA. Load does not create it.
	DataDir string
	// Manifest is the manifest's path, "" when the plugin has none.
	Manifest string
	// Sources are its hooks documents, in load order.
	Sources []Source
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
// twice is loaded once, from the first place it was found.
func Load(opts Options) ([]*Plugin, []Warning) {
	l := &loader{opts: opts, seen: map[string]string{}, disabledRoots: map[string]bool{}, disabledIDs: map[string]bool{}, reals: &realCache{}}
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
	// The walk only lists candidates (and its own warnings) in order; their
	// manifests and hooks files are read concurrently, then merged in that
	// order (load.go).
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
	l.merge()
	return l.plugins, l.warns
}

type loader struct {
	opts    Options
	plugins []*Plugin
	warns   []Warning
	// seen maps a loaded plugin id to its resolved root.
	seen          map[string]string
	disabledRoots map[string]bool
	disabledIDs   map[string]bool
	// walking: warnings and candidates are queued in walk order (load.go).
	walking bool
	queue   []queued
	// realRoot is the resolved root of the plugin whose hooks a reader's
	// loader reads ("" elsewhere).
	realRoot string
	// reals resolves plugin roots during one Load (load.go).
	reals *realCache
}

func (l *loader) warn(source, format string, args ...any) {
	w := Warning{Source: source, Message: fmt.Sprintf(format, args...)}
	if l.walking {
		l.queue = append(l.queue, queued{warn: &w})
		return
	}
	l.warns = append(l.warns, w)
}

// add queues the plugin at c.Root. It loads unless its id was loaded
// already; a scanned plugin is also skipped when an explicit entry disabled
// its id. Hooks read for a plugin that is skipped give no warnings.
func (l *loader) add(c Config, fallbackName string, scanned bool) {
	l.queue = append(l.queue, queued{job: &candidate{c: c, fallback: fallbackName, scanned: scanned}})
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
