package soong

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Soong discovery (spec 002, "Hooks" and "Hook Config"). Hooks come from one
// file, <home>/hooks.json, where home is config.home / --home, else
// $SOONG_AGENT_HOME, else ~/.soong-agent:
//
//	{
//	  "version": 1,
//	  "hooks": {
//	    "PreToolUse": [
//	      {"matcher": {"tool": "Bash"}, "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 10}]}
//	    ]
//	  }
//	}
//
// They run only when <home>/config.toml says
//
//	[hooks]
//	enabled = true
//
// which is off when absent: the document makes the switch the user's, and a
// first-version feature that runs shell commands is opted into. Hooks that are
// off are still listed (enabled: false) with a warning saying what to set.
// There is no project layer, no plugin, managed or session source, and no
// trust review: the hooks come from the user's own folder, which the document
// treats as reviewed (no permission prompt for hook commands).
//
// Reading is forgiving in the codex way (a bad rule or handler skips itself
// with a warning that has its line and column), with two exceptions where
// loading anyway would do something the file did not ask for: a matcher with
// a field hookd does not know skips its rule (ignoring the field would widen
// the match), and a version other than 1 loads nothing.

// soongVersion is the only hooks.json version this build reads.
const soongVersion = "1"

// soongRuleFields and soongHandlerFields are the fields a rule and a handler
// may have; others are reported and ignored.
var (
	soongRuleFields    = map[string]bool{"matcher": true, "hooks": true}
	soongHandlerFields = map[string]bool{"type": true, "command": true, "timeout": true}
	soongMatcherFields = []string{"tool", "tag", "pathPrefix"}
)

// discoverSoong is the soong Discover.
func discoverSoong(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	home := hooks.ResolveHome(p, opts.Home)
	d.soongIgnored(opts, home)
	if home == "" {
		d.Warns = append(d.Warns, hooks.Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
		return &hooks.Discovery{Warnings: d.Warns}
	}
	root := opts.ProjectRoot
	if root == "" {
		root, _ = os.Getwd()
	}
	if root != "" {
		root = hooks.AbsClean(root)
	}
	d.soongProjectFile(p, root, home)

	path := filepath.Join(home, hooks.HooksJSONName)
	if data, ok := d.readRegular(path); ok {
		d.Add(parseSoongHooks(p, data, path, root))
	}
	for i, h := range d.Hooks {
		h.Order = i
	}
	enabled, why := d.soongEnabled(filepath.Join(home, hooks.ConfigTOMLName))
	if !enabled && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("hooks in %s do not run: %s", path, why)})
	}
	for _, h := range d.Hooks {
		h.Enabled = enabled
		// The folder the hook came from, whichever way it was named, so a
		// command can call scripts kept beside hooks.json.
		h.Env = map[string]string{p.HomeEnv: home}
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns}
}

// discovery is the engine's discovery run with this host's own steps.
type discovery struct{ hooks.DiscoveryRun }

// soongIgnored warns about sources a host may give that Soong does not have,
// so a host porting its codex setup learns why those hooks never run.
func (d *discovery) soongIgnored(opts hooks.DiscoverOptions, home string) {
	file := "<home>/hooks.json"
	if home != "" {
		file = filepath.Join(home, hooks.HooksJSONName)
	}
	ignore := func(what string) {
		d.Warns = append(d.Warns, hooks.Warning{Source: what, Message: fmt.Sprintf(
			"ignoring %s: the soong profile reads hooks only from %s", what, file)})
	}
	if h := strings.TrimSpace(string(opts.SessionHooks)); h != "" && h != "null" && h != "{}" {
		ignore("session hooks (config.hooks)")
	}
	if len(opts.Plugins) > 0 || len(opts.PluginDirs) > 0 {
		ignore("plugins")
	}
	if opts.Managed != "" {
		ignore("managed requirements " + opts.Managed)
	}
	if len(opts.StateOverrides) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: "--hook-state", Message: "ignoring hook state: the soong profile has no per-hook trust or enablement (only [hooks] enabled in config.toml)"})
	}
}

// soongProjectFile warns when the project has a .soong-agent/hooks.json: the
// document says the runtime never reads it, and a user who wrote one should
// hear that it does nothing. The file itself is not opened.
func (d *discovery) soongProjectFile(p *hooks.Profile, root, home string) {
	if root == "" {
		return
	}
	dir := filepath.Join(root, p.HomeDir)
	if hooks.SameDir(dir, home) {
		return
	}
	path := filepath.Join(dir, hooks.HooksJSONName)
	if _, err := os.Lstat(path); err == nil {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
			"ignoring %s: the soong profile has no project hooks; user hooks go in %s", path, filepath.Join(home, hooks.HooksJSONName))})
	}
}

// readRegular reads a config file that must be a regular file (a FIFO or a
// device there must not hang discovery). Missing is silent.
func (d *discovery) readRegular(path string) ([]byte, bool) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err != nil:
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("failed to read hooks config %s: %v", path, err)})
		return nil, false
	case !fi.Mode().IsRegular():
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("failed to read hooks config %s: not a regular file", path)})
		return nil, false
	}
	return d.Read(path)
}

// soongEnabled reads [hooks] enabled from config.toml. Anything but
// enabled = true leaves hooks off; why says what was found and what to set.
func (d *discovery) soongEnabled(path string) (on bool, why string) {
	want := fmt.Sprintf("set [hooks] enabled = true in %s to run them", path)
	data, ok := d.readRegular(path)
	if !ok {
		return false, fmt.Sprintf("hooks are off unless enabled: %s", want)
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		msg := fmt.Sprintf("failed to parse %s: %v", path, err)
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg += fmt.Sprintf(" (line %d, column %d)", line, col)
		}
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: msg})
		return false, fmt.Sprintf("%s cannot be read, so hooks stay off", path)
	}
	table, ok := doc["hooks"].(map[string]any)
	if !ok {
		if _, present := doc["hooks"]; present {
			d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("ignoring hooks in %s: expected a table", path)})
		}
		return false, fmt.Sprintf("hooks are off unless enabled: %s", want)
	}
	v, present := table["enabled"]
	if !present {
		return false, fmt.Sprintf("hooks are off unless enabled: %s", want)
	}
	b, isBool := v.(bool)
	if !isBool {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("ignoring hooks.enabled in %s: expected true or false", path)})
		return false, fmt.Sprintf("hooks.enabled is not a boolean; %s", want)
	}
	if !b {
		return false, fmt.Sprintf("hooks are turned off by [hooks] enabled = false in %s", path)
	}
	return true, ""
}

// parseSoongHooks reads a Soong hooks.json. root is the project root the
// matchers' relative paths are taken from.
func parseSoongHooks(p *hooks.Profile, data []byte, path, root string) ([]*hooks.Hook, []hooks.Warning) {
	w := &walker{hooks.NewWalker(p, hooks.Source{Layer: hooks.LayerUser, Path: path}, path, data)}
	clean, ok := w.CheckJSON(data)
	if !ok {
		return nil, w.Warns
	}
	doc := gjson.ParseBytes(clean)
	if !doc.IsObject() {
		w.Fail(doc.Index, "expected a JSON object")
		return nil, w.Warns
	}
	top := hooks.Site{Group: -1, Handler: -1}
	fields := w.Fields(doc, "", top)
	if f, ok := fields.Get("version"); !ok {
		w.Warn(top, doc.Index, "", "missing field %q in %s: reading it as version %s", "version", w.Name, soongVersion)
	} else if f.Val.Type != gjson.Number || f.Val.Raw != soongVersion {
		w.Warn(top, f.Val.Index, f.Path(), "skipping %s: unsupported version %s (this hookd reads \"version\": %s)", w.Name, f.Val.Raw, soongVersion)
		return nil, w.Warns
	}
	for _, f := range fields.List {
		if f.Key.Str != "version" && f.Key.Str != "hooks" {
			w.UnknownField(top, f)
		}
	}
	f, ok := fields.Get("hooks")
	switch {
	case !ok || f.Val.Type == gjson.Null:
	case !f.Val.IsObject():
		w.Warn(top, f.Val.Index, f.Path(), "ignoring field %q in %s: expected an object of hook events", "hooks", w.Name)
	default:
		w.walkSoongEvents(f.Val, root)
	}
	return w.Hooks, w.Warns
}

// walker is the engine's hooks walker with Soong's rule shape.
type walker struct{ *hooks.Walker }

// walkSoongEvents reads {Event: [rule...]}, events in the profile's order.
// The event type matches exactly: a key in another letter case is unknown.
func (w *walker) walkSoongEvents(obj gjson.Result, root string) {
	top := hooks.Site{Group: -1, Handler: -1}
	fs := w.Fields(obj, "hooks", top)
	for _, f := range fs.List {
		if w.Profile.Event(f.Key.Str) == nil {
			w.Warn(top, f.Key.Index, f.Path(), "ignoring unknown hook event %q in %s (events: %s)",
				f.Key.Str, w.Name, strings.Join(w.Profile.EventNames(), ", "))
		}
	}
	for _, ev := range w.Profile.Events {
		f, ok := fs.Get(ev.Name)
		if !ok || f.Val.Type == gjson.Null {
			continue
		}
		if !f.Val.IsArray() {
			w.Warn(hooks.Site{Event: ev.Name, Group: -1, Handler: -1}, f.Val.Index, f.Path(),
				"ignoring hook event %q in %s: expected an array of rules", ev.Name, w.Name)
			continue
		}
		ri, path := 0, f.Path()
		f.Val.ForEach(func(_, r gjson.Result) bool {
			w.walkSoongRule(ev, ri, r, fmt.Sprintf("%s[%d]", path, ri), root)
			ri++
			return true
		})
	}
}

func (w *walker) walkSoongRule(ev *hooks.EventRules, ri int, r gjson.Result, path, root string) {
	s := hooks.Site{Event: ev.Name, Group: ri, Handler: -1}
	if !r.IsObject() {
		w.Warn(s, r.Index, path, "skipping rule in %s: expected an object", w.Name)
		return
	}
	fs := w.Fields(r, path, s)
	for _, f := range fs.List {
		if !soongRuleFields[f.Key.Str] {
			w.UnknownField(s, f)
		}
	}
	m, ok := w.soongMatcher(ev, s, fs, root)
	if !ok {
		return
	}
	w.Handlers(fs, s, "rule", func(hi int, h gjson.Result, path string) *hooks.Hook {
		return w.soongHandler(ev, ri, hi, h, path, m)
	})
}

// soongMatcher compiles a rule's matcher; ok is false when the rule must be
// skipped (the warning is given).
func (w *walker) soongMatcher(ev *hooks.EventRules, s hooks.Site, rule hooks.FieldSet, root string) (*soongMatcher, bool) {
	m := &soongMatcher{root: root}
	f, ok := rule.Get("matcher")
	if !ok || f.Val.Type == gjson.Null {
		return m, true
	}
	if !f.Val.IsObject() {
		w.Warn(s, f.Val.Index, f.Path(), "skipping rule in %s: matcher %s must be an object such as "+
			`{"tool": "Bash", "tag": "write", "pathPrefix": "src/"} (soong matchers are exact: no regex or glob)`, w.Name, f.Val.Raw)
		return nil, false
	}
	fs := w.Fields(f.Val, f.Path(), s)
	for _, mf := range fs.List {
		if !containsString(soongMatcherFields, mf.Key.Str) {
			w.Warn(s, mf.Key.Index, mf.Path(), "skipping rule in %s: unknown matcher field %q (matchers take %s; "+
				"ignoring it would make the rule match more than written)", w.Name, mf.Key.Str, strings.Join(soongMatcherFields, ", "))
			return nil, false
		}
	}
	for _, name := range soongMatcherFields {
		mf, ok := fs.Get(name)
		if !ok || mf.Val.Type == gjson.Null {
			continue
		}
		if mf.Val.Type != gjson.String || mf.Val.Str == "" {
			w.Warn(s, mf.Val.Index, mf.Path(), "skipping rule in %s: matcher field %q must be a non-empty string", w.Name, name)
			return nil, false
		}
		v := mf.Val.Str
		meta := `*?|^$[]()\`
		if name == "pathPrefix" {
			// Brackets, parentheses and backslashes are ordinary in paths.
			meta = "*?"
		}
		if strings.ContainsAny(v, meta) {
			w.Warn(s, mf.Val.Index, mf.Path(), "matcher field %q in %s is compared literally: %q has no regex or glob meaning here", name, w.Name, v)
		}
		switch name {
		case "tool":
			if !ev.ToolEvent {
				w.Warn(s, mf.Val.Index, mf.Path(), "skipping rule in %s: %s has no tool, so matcher field %q never matches", w.Name, ev.Name, name)
				return nil, false
			}
			m.tool, m.hasTool = v, true
		case "tag":
			m.tag, m.hasTag = v, true
		case "pathPrefix":
			m.pathPrefix, m.hasPath = v, true
		}
	}
	return m, true
}

// soongHandler reads one handler; nil when it is skipped (warned).
func (w *walker) soongHandler(ev *hooks.EventRules, ri, hi int, h gjson.Result, path string, m *soongMatcher) *hooks.Hook {
	s := hooks.Site{Event: ev.Name, Group: ri, Handler: hi}
	fs, tf, ok := w.HandlerFields(h, path, s)
	if !ok {
		return nil
	}
	if tf.Val.Str != hooks.TypeCommand {
		w.Warn(s, tf.Val.Index, tf.Path(), "skipping %q hook in %s: the soong profile runs command hooks only", tf.Val.Str, w.Name)
		return nil
	}
	for _, f := range fs.List {
		if !soongHandlerFields[f.Key.Str] {
			w.UnknownField(s, f)
		}
	}
	r := hooks.HandlerReader{W: w.Walker, S: s, FS: fs, Kind: "command"}
	cf, present := fs.Get("command")
	switch {
	case !present || cf.Val.Type == gjson.Null:
		w.Warn(s, h.Index, path, "skipping command hook in %s: missing field %q", w.Name, "command")
		return nil
	case cf.Val.Type != gjson.String:
		r.BadType(cf, "a string")
		return nil
	case strings.TrimSpace(cf.Val.Str) == "":
		w.Warn(s, cf.Val.Index, cf.Path(), "skipping empty hook command in %s", w.Name)
		return nil
	}
	tof, to, toSet, ok := r.OptCount("timeout")
	if !ok {
		return nil
	}
	hook := &hooks.Hook{
		Key:        fmt.Sprintf("%s:%s:%d:%d", w.KeySource, ev.Label, ri, hi),
		Event:      ev.Name,
		HasMatcher: m.hasTool || m.hasTag || m.hasPath,
		Source:     w.Src,
		Handler:    hooks.Handler{Type: hooks.TypeCommand, Command: cf.Val.Str, Timeout: r.Timeout(ev, tof, to, toSet)},
		// No review in this profile: the user's own file is the review.
		Trust:   hooks.TrustTrusted,
		Enabled: true,
	}
	if hook.HasMatcher {
		hook.Matcher = m.text()
	}
	hook.SetMatcher(m)
	return hook
}
