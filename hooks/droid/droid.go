package droid

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Profile is Droid's profile.
var Profile = &hooks.Profile{
	Name:       "droid",
	HomeEnv:    "FACTORY_HOME",
	HomeDir:    ".factory",
	ProjectDir: ".factory",
	// Droid reads the project's files with no trust step (droid exec):
	// a project nobody answered for is read; the host's explicit "not
	// trusted" keeps it unread.
	ProjectTrustedByDefault: true,
	ProjectFiles:            []string{settingsName, hooksName},
	BareHooksFiles:          []string{hooksName},
	Events:                  eventRules(),
	CompileMatcher:          compileMatcher,
	Tools:                   tools,
	// Droid has no review step for hooks and no per-hook switch; project
	// hooks run as soon as the folder is opened (measured with droid exec).
	Trust:        false,
	NoEnablement: true,
	// Handlers of an event run at once (Promise.all) and their results
	// are read in configuration order.
	Serial: false,
	// A timed-out hook's process tree gets SIGTERM; hookd follows with
	// SIGKILL after a grace, so that nothing outlives the run.
	KillGrace: time.Second,
	// Hooks run in the session's working folder, not the project root
	// (measured in a subfolder of a git repository).
	ProjectCwd:   false,
	Discover:     discover,
	AfterCombine: afterCombine,
	QuietFields:  map[string]bool{"commandRegex": true, "preserveRiskLevel": true, "hooksDisabled": true, "showHookOutput": true},
	HandlerKinds: handlerKinds,
	HandlerTypes: []string{hooks.TypeCommand},
	Shell:        []string{"sh", "-c"},
}

func init() { hooks.Register(Profile) }

const (
	settingsName = "settings.json"
	hooksName    = "hooks.json"
)

type discovery struct{ hooks.DiscoveryRun }

// folderHooks is what one .factory folder gives: its hooks and whether its
// hooks object says hooksDisabled.
type folderHooks struct {
	path     string
	disabled *bool
}

// discover loads the project's .factory folder (when hookd knows the
// project root and no one said it is not trusted: Droid reads it with no
// trust step), then the user's
// (~/.factory, or $FACTORY_HOME), then the session hooks. In each folder
// hooks.json holds the map of events itself; an event it names replaces
// that event's groups in settings.json's "hooks". hooksDisabled: true in a
// hooks object turns every hook off.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	home := hooks.ResolveHome(p, opts.Home)
	var folders []folderHooks
	if dir := hooks.ProjectFolder(p, opts, home); dir != "" {
		folders = append(folders, d.folder(p, dir, hooks.LayerProject))
	}
	if home != "" {
		folders = append(folders, d.folder(p, home, hooks.LayerUser))
	}
	if len(opts.SessionHooks) > 0 {
		hs, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hs, warns)
	}
	var off *folderHooks
	for i := range folders {
		if f := &folders[i]; f.disabled != nil && *f.disabled {
			off = f
			break
		}
	}
	for i, h := range d.Hooks {
		h.Order = i
		h.Enabled = true
		h.Trust = hooks.TrustTrusted
		if off != nil {
			h.Policy = hooks.PolicyHooksDisabled
		}
	}
	if off != nil && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: off.path, Message: fmt.Sprintf(
			"hooks are turned off by hooksDisabled: true in %s", off.path)})
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal}
}

// folder reads one .factory folder: hooks.json's events, then the events of
// settings.json's "hooks" that hooks.json does not name.
func (d *discovery) folder(p *hooks.Profile, dir, layer string) folderHooks {
	out := folderHooks{path: filepath.Join(dir, settingsName)}
	named := map[string]bool{}
	hjPath := filepath.Join(dir, hooksName)
	var fromJSON []*hooks.Hook
	if data, ok := d.Read(hjPath); ok {
		w := hooks.NewWalker(p, hooks.Source{Layer: layer, Path: hjPath}, hjPath, data)
		clean, ok := w.CheckJSON(data)
		body := gjson.ParseBytes(clean)
		switch {
		case !ok:
			d.Add(nil, w.Warns)
		case !body.IsObject():
			d.Warns = append(d.Warns, hooks.Warning{Source: hjPath, Message: fmt.Sprintf("loading no hooks from %s: expected an object of hook events", hjPath)})
		default:
			body.ForEach(func(k, _ gjson.Result) bool {
				named[k.Str] = true
				return true
			})
			w.WalkHooks(body, "")
			commandRegexes(body, "", w.Hooks)
			fromJSON = w.Hooks
			d.Add(nil, w.Warns)
			if v := body.Get("hooksDisabled"); v.Type == gjson.True || v.Type == gjson.False {
				b := v.Bool()
				out.disabled, out.path = &b, hjPath
			}
		}
	}
	root, w, ok := d.ReadSettings(p, out.path, layer, hooks.SettingsOptions{})
	if ok {
		commandRegexes(root.Get("hooks"), "hooks", w.Hooks)
		var kept []*hooks.Hook
		for _, h := range w.Hooks {
			if !named[h.Event] {
				kept = append(kept, h)
			}
		}
		d.Add(kept, w.Warns)
		if v := root.Get("hooks.hooksDisabled"); out.disabled == nil && (v.Type == gjson.True || v.Type == gjson.False) {
			b := v.Bool()
			out.disabled = &b
		}
	}
	// hooks.json's events come first in hookd's list; Droid runs each
	// event's groups from one of the two files only, so the order between
	// them never matters.
	d.Add(fromJSON, nil)
	return out
}

// commandRegexes gives the hooks of groups with a commandRegex their
// command matcher. body is the events object the walker read; keys end in
// :<label>:<group>:<handler>.
func commandRegexes(body gjson.Result, _ string, hs []*hooks.Hook) {
	for _, h := range hs {
		parts := strings.Split(h.Key, ":")
		if len(parts) < 3 {
			continue
		}
		gi, err := strconv.Atoi(parts[len(parts)-2])
		if err != nil {
			continue
		}
		cr := body.Get(h.Event).Array()
		if gi >= len(cr) {
			continue
		}
		if v := cr[gi].Get("commandRegex"); truthy(v) {
			h.SetMatcher(withCommand(h.CompiledMatcher(), v))
		}
	}
}

// truthy is JavaScript's truth of a JSON value.
func truthy(v gjson.Result) bool {
	switch v.Type {
	case gjson.String:
		return v.Str != ""
	case gjson.Number:
		return v.Num != 0
	case gjson.True, gjson.JSON:
		return true
	}
	return false
}
