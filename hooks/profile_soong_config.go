package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"
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
func discoverSoong(p *Profile, opts DiscoverOptions) *Discovery {
	var d discoveryRun
	home := ResolveHome(p, opts.Home)
	d.soongIgnored(opts, home)
	if home == "" {
		d.warns = append(d.warns, Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
		return &Discovery{Warnings: d.warns}
	}
	root := opts.ProjectRoot
	if root == "" {
		root, _ = os.Getwd()
	}
	if root != "" {
		root = discAbsClean(root)
	}
	d.soongProjectFile(p, root, home)

	path := filepath.Join(home, hooksJSONName)
	if data, ok := d.readRegular(path); ok {
		d.add(parseSoongHooks(p, data, path, root))
	}
	for i, h := range d.hooks {
		h.Order = i
	}
	enabled, why := d.soongEnabled(filepath.Join(home, configTOMLName))
	if !enabled && len(d.hooks) > 0 {
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("hooks in %s do not run: %s", path, why)})
	}
	for _, h := range d.hooks {
		h.Enabled = enabled
		// The folder the hook came from, whichever way it was named, so a
		// command can call scripts kept beside hooks.json.
		h.Env = map[string]string{p.HomeEnv: home}
	}
	return &Discovery{Hooks: d.hooks, Warnings: d.warns}
}

// soongIgnored warns about sources a host may give that Soong does not have,
// so a host porting its codex setup learns why those hooks never run.
func (d *discoveryRun) soongIgnored(opts DiscoverOptions, home string) {
	file := "<home>/hooks.json"
	if home != "" {
		file = filepath.Join(home, hooksJSONName)
	}
	ignore := func(what string) {
		d.warns = append(d.warns, Warning{Source: what, Message: fmt.Sprintf(
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
		d.warns = append(d.warns, Warning{Source: "--hook-state", Message: "ignoring hook state: the soong profile has no per-hook trust or enablement (only [hooks] enabled in config.toml)"})
	}
}

// soongProjectFile warns when the project has a .soong-agent/hooks.json: the
// document says the runtime never reads it, and a user who wrote one should
// hear that it does nothing. The file itself is not opened.
func (d *discoveryRun) soongProjectFile(p *Profile, root, home string) {
	if root == "" {
		return
	}
	dir := filepath.Join(root, p.HomeDir)
	if discSameDir(dir, home) {
		return
	}
	path := filepath.Join(dir, hooksJSONName)
	if _, err := os.Lstat(path); err == nil {
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf(
			"ignoring %s: the soong profile has no project hooks; user hooks go in %s", path, filepath.Join(home, hooksJSONName))})
	}
}

// readRegular reads a config file that must be a regular file (a FIFO or a
// device there must not hang discovery). Missing is silent.
func (d *discoveryRun) readRegular(path string) ([]byte, bool) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false
	case err != nil:
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("failed to read hooks config %s: %v", path, err)})
		return nil, false
	case !fi.Mode().IsRegular():
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("failed to read hooks config %s: not a regular file", path)})
		return nil, false
	}
	return d.read(path)
}

// soongEnabled reads [hooks] enabled from config.toml. Anything but
// enabled = true leaves hooks off; why says what was found and what to set.
func (d *discoveryRun) soongEnabled(path string) (on bool, why string) {
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
		d.warns = append(d.warns, Warning{Source: path, Message: msg})
		return false, fmt.Sprintf("%s cannot be read, so hooks stay off", path)
	}
	table, ok := doc["hooks"].(map[string]any)
	if !ok {
		if _, present := doc["hooks"]; present {
			d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("ignoring hooks in %s: expected a table", path)})
		}
		return false, fmt.Sprintf("hooks are off unless enabled: %s", want)
	}
	v, present := table["enabled"]
	if !present {
		return false, fmt.Sprintf("hooks are off unless enabled: %s", want)
	}
	b, isBool := v.(bool)
	if !isBool {
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("ignoring hooks.enabled in %s: expected true or false", path)})
		return false, fmt.Sprintf("hooks.enabled is not a boolean; %s", want)
	}
	if !b {
		return false, fmt.Sprintf("hooks are turned off by [hooks] enabled = false in %s", path)
	}
	return true, ""
}

// parseSoongHooks reads a Soong hooks.json. root is the project root the
// matchers' relative paths are taken from.
func parseSoongHooks(p *Profile, data []byte, path, root string) ([]*Hook, []Warning) {
	w := newHooksWalker(p, Source{Layer: LayerUser, Path: path}, path, data)
	clean, ok := w.checkJSON(data)
	if !ok {
		return nil, w.warns
	}
	doc := gjson.ParseBytes(clean)
	if !doc.IsObject() {
		w.fail(doc.Index, "expected a JSON object")
		return nil, w.warns
	}
	top := cfgSite{group: -1, handler: -1}
	fields := w.fields(doc, "", top)
	if f, ok := fields.get("version"); !ok {
		w.warn(top, doc.Index, "", "missing field %q in %s: reading it as version %s", "version", w.name, soongVersion)
	} else if f.val.Type != gjson.Number || f.val.Raw != soongVersion {
		w.warn(top, f.val.Index, f.path, "skipping %s: unsupported version %s (this hookd reads \"version\": %s)", w.name, f.val.Raw, soongVersion)
		return nil, w.warns
	}
	for _, f := range fields.list {
		if f.key.Str != "version" && f.key.Str != "hooks" {
			w.unknownField(top, f)
		}
	}
	f, ok := fields.get("hooks")
	switch {
	case !ok || f.val.Type == gjson.Null:
	case !f.val.IsObject():
		w.warn(top, f.val.Index, f.path, "ignoring field %q in %s: expected an object of hook events", "hooks", w.name)
	default:
		w.walkSoongEvents(f.val, root)
	}
	return w.hooks, w.warns
}

// walkSoongEvents reads {Event: [rule...]}, events in the profile's order.
// The event type matches exactly: a key in another letter case is unknown.
func (w *hooksWalker) walkSoongEvents(obj gjson.Result, root string) {
	top := cfgSite{group: -1, handler: -1}
	fs := w.fields(obj, "hooks", top)
	for _, f := range fs.list {
		if w.p.Event(f.key.Str) == nil {
			w.warn(top, f.key.Index, f.path, "ignoring unknown hook event %q in %s (events: %s)",
				f.key.Str, w.name, strings.Join(w.p.EventNames(), ", "))
		}
	}
	for _, ev := range w.p.Events {
		f, ok := fs.get(ev.Name)
		if !ok || f.val.Type == gjson.Null {
			continue
		}
		if !f.val.IsArray() {
			w.warn(cfgSite{event: ev.Name, group: -1, handler: -1}, f.val.Index, f.path,
				"ignoring hook event %q in %s: expected an array of rules", ev.Name, w.name)
			continue
		}
		ri := 0
		f.val.ForEach(func(_, r gjson.Result) bool {
			w.walkSoongRule(ev, ri, r, fmt.Sprintf("%s[%d]", f.path, ri), root)
			ri++
			return true
		})
	}
}

func (w *hooksWalker) walkSoongRule(ev *EventRules, ri int, r gjson.Result, path, root string) {
	s := cfgSite{event: ev.Name, group: ri, handler: -1}
	if !r.IsObject() {
		w.warn(s, r.Index, path, "skipping rule in %s: expected an object", w.name)
		return
	}
	fs := w.fields(r, path, s)
	for _, f := range fs.list {
		if !soongRuleFields[f.key.Str] {
			w.unknownField(s, f)
		}
	}
	m, ok := w.soongMatcher(ev, s, fs, root)
	if !ok {
		return
	}
	w.handlers(fs, s, "rule", func(hi int, h gjson.Result, path string) *Hook {
		return w.soongHandler(ev, ri, hi, h, path, m)
	})
}

// soongMatcher compiles a rule's matcher; ok is false when the rule must be
// skipped (the warning is given).
func (w *hooksWalker) soongMatcher(ev *EventRules, s cfgSite, rule cfgFieldSet, root string) (*soongMatcher, bool) {
	m := &soongMatcher{root: root}
	f, ok := rule.get("matcher")
	if !ok || f.val.Type == gjson.Null {
		return m, true
	}
	if !f.val.IsObject() {
		w.warn(s, f.val.Index, f.path, "skipping rule in %s: matcher %s must be an object such as "+
			`{"tool": "Bash", "tag": "write", "pathPrefix": "src/"} (soong matchers are exact: no regex or glob)`, w.name, f.val.Raw)
		return nil, false
	}
	fs := w.fields(f.val, f.path, s)
	for _, mf := range fs.list {
		if !containsString(soongMatcherFields, mf.key.Str) {
			w.warn(s, mf.key.Index, mf.path, "skipping rule in %s: unknown matcher field %q (matchers take %s; "+
				"ignoring it would make the rule match more than written)", w.name, mf.key.Str, strings.Join(soongMatcherFields, ", "))
			return nil, false
		}
	}
	for _, name := range soongMatcherFields {
		mf, ok := fs.get(name)
		if !ok || mf.val.Type == gjson.Null {
			continue
		}
		if mf.val.Type != gjson.String || mf.val.Str == "" {
			w.warn(s, mf.val.Index, mf.path, "skipping rule in %s: matcher field %q must be a non-empty string", w.name, name)
			return nil, false
		}
		v := mf.val.Str
		meta := `*?|^$[]()\`
		if name == "pathPrefix" {
			// Brackets, parentheses and backslashes are ordinary in paths.
			meta = "*?"
		}
		if strings.ContainsAny(v, meta) {
			w.warn(s, mf.val.Index, mf.path, "matcher field %q in %s is compared literally: %q has no regex or glob meaning here", name, w.name, v)
		}
		switch name {
		case "tool":
			if !ev.ToolEvent {
				w.warn(s, mf.val.Index, mf.path, "skipping rule in %s: %s has no tool, so matcher field %q never matches", w.name, ev.Name, name)
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
func (w *hooksWalker) soongHandler(ev *EventRules, ri, hi int, h gjson.Result, path string, m *soongMatcher) *Hook {
	s := cfgSite{event: ev.Name, group: ri, handler: hi}
	fs, tf, ok := w.handlerFields(h, path, s)
	if !ok {
		return nil
	}
	if tf.val.Str != TypeCommand {
		w.warn(s, tf.val.Index, tf.path, "skipping %q hook in %s: the soong profile runs command hooks only", tf.val.Str, w.name)
		return nil
	}
	for _, f := range fs.list {
		if !soongHandlerFields[f.key.Str] {
			w.unknownField(s, f)
		}
	}
	r := cfgHandlerReader{w: w, s: s, fs: fs, kind: "command"}
	cf, present := fs.get("command")
	switch {
	case !present || cf.val.Type == gjson.Null:
		w.warn(s, h.Index, path, "skipping command hook in %s: missing field %q", w.name, "command")
		return nil
	case cf.val.Type != gjson.String:
		r.badType(cf, "a string")
		return nil
	case strings.TrimSpace(cf.val.Str) == "":
		w.warn(s, cf.val.Index, cf.path, "skipping empty hook command in %s", w.name)
		return nil
	}
	tof, to, toSet, ok := r.optCount("timeout")
	if !ok {
		return nil
	}
	hook := &Hook{
		Key:        fmt.Sprintf("%s:%s:%d:%d", w.keySource, ev.Label, ri, hi),
		Event:      ev.Name,
		HasMatcher: m.hasTool || m.hasTag || m.hasPath,
		Source:     w.src,
		Handler:    Handler{Type: TypeCommand, Command: cf.val.Str, Timeout: r.timeout(ev, tof, to, toSet)},
		// No review in this profile: the user's own file is the review.
		Trust:   TrustTrusted,
		Enabled: true,
	}
	if hook.HasMatcher {
		hook.Matcher = m.text()
	}
	hook.SetMatcher(m)
	return hook
}
