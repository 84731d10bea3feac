package letta

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Profile is Letta Code's profile.
var Profile = &hooks.Profile{
	Name: "letta",
	// Letta reads $HOME/.letta/settings.json; LETTA_HOME moves its other
	// files, not the settings.
	HomeDir:    ".letta",
	ProjectDir: ".letta",
	// Project settings are read with no trust step: a project nobody
	// answered for is read; the host's explicit "not trusted" keeps it
	// unread.
	ProjectTrustedByDefault: true,
	ProjectFiles:            []string{localName, settingsName},
	Events:                  eventRules(),
	CompileMatcher:          compileMatcher,
	Trust:                   false,
	NoEnablement:            true,
	// Some events run their handlers one after another and stop at the
	// first exit 2; the others run them at once and read every result.
	// hookd runs all of them one after another (the results are the
	// same); only the first kind sets Outcome.Block, so only it stops.
	Serial:     true,
	StopAtDeny: true,
	// SIGTERM at the timeout, SIGKILL a second later.
	KillGrace:    time.Second,
	Discover:     discover,
	PrepareInput: prepareInput,
	EnvFilter:    envFilter,
	ReadHandler:  readHandler,
	HandlerKinds: handlerKinds,
	QuietFields:  map[string]bool{"disabled": true},
	Shell:        shell(),
}

func init() { hooks.Register(Profile) }

const (
	settingsName = "settings.json"
	localName    = "settings.local.json"
)

type discovery struct{ hooks.DiscoveryRun }

// discover loads, in Letta's order, the project's .letta/settings.local.json
// and .letta/settings.json (whenever hookd knows the project: Letta reads
// them with no trust step; it takes the project to be its working folder),
// then the user's settings.json, then the session hooks.
//
// hooks.disabled: the user's true turns every hook off and the user's false
// keeps them on whatever the project says; otherwise true in either project
// file turns them off.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	home := hooks.ResolveHome(p, opts.Home)
	type off struct {
		path  string
		value gjson.Result
	}
	var user off
	var project []off
	// ProjectFolder is "" when the project's folder is the user's: Letta
	// then reads settings.local.json there and the user's settings.json
	// once, as the user's.
	if dir := hooks.ProjectFolder(p, opts, home); dir != "" {
		for _, name := range []string{localName, settingsName} {
			path := filepath.Join(dir, name)
			if v, ok := d.settings(p, path, hooks.LayerProject); ok {
				project = append(project, off{path, v})
			}
		}
	}
	if home != "" {
		if v, ok := d.settings(p, filepath.Join(home, settingsName), hooks.LayerUser); ok {
			user = off{filepath.Join(home, settingsName), v}
		}
	}
	if len(opts.SessionHooks) > 0 {
		hs, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hs, warns)
	}
	disabledBy := ""
	switch user.value.Type {
	case gjson.True:
		disabledBy = user.path
	case gjson.False:
	default:
		for _, o := range project {
			if o.value.Type == gjson.True {
				disabledBy = o.path
				break
			}
		}
	}
	for i, h := range d.Hooks {
		h.Order = i
		h.Enabled = true
		h.Trust = hooks.TrustTrusted
		if disabledBy != "" {
			h.Policy = hooks.PolicyHooksDisabled
		}
	}
	if disabledBy != "" && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: disabledBy, Message: fmt.Sprintf("hooks are turned off by hooks.disabled: true in %s", disabledBy)})
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal}
}

// settings reads one settings file's hooks and returns its hooks.disabled.
func (d *discovery) settings(p *hooks.Profile, path, layer string) (gjson.Result, bool) {
	root, w, ok := d.ReadSettings(p, path, layer, hooks.SettingsOptions{})
	if !ok {
		return gjson.Result{}, false
	}
	d.Add(w.Hooks, w.Warns)
	return root.Get("hooks.disabled"), true
}
