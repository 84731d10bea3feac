package hooks

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"
)

// Reading a hooks document is deliberately forgiving (SEMANTICS.md 2.1): one bad
// matcher skips its group, one bad handler skips that handler, an unknown field
// is reported and ignored, and everything else still loads. Only a document that
// cannot be parsed at all loads nothing, with one warning.
//
// JSON files, the [hooks] table of a TOML file and inline session hooks all go
// through the same walker over gjson values, so the three forms cannot drift
// apart: TOML is decoded, re-encoded as JSON and walked like a JSON file.

// ParseHooksJSON parses a hooks.json document ({"description"?, "hooks": {Event: [group...]}}).
// Warnings end with the line and column of the element they are about.
func ParseHooksJSON(p *Profile, data []byte, src Source, keySource string) ([]*Hook, []Warning) {
	w := parseHooksJSON(p, data, src, keySource)
	return w.hooks, w.warns
}

// ParseHooksTOML parses the [hooks] table of a config.toml (event arrays; the "state" sub-table is
// skipped here, it belongs to trust). Returns no hooks and no warnings when there is no [hooks] table.
// Warnings name the element by its place in the table (hooks.Event[group].hooks[handler]).
func ParseHooksTOML(p *Profile, data []byte, src Source, keySource string) ([]*Hook, []Warning) {
	w := parseHooksTOML(p, data, src, keySource)
	return w.hooks, w.warns
}

// ParseHooksValue parses an already-decoded "hooks" object ({Event: [group...]}), e.g. session hooks
// given inline by the host at initialize. Warnings name the element by its place in the object.
func ParseHooksValue(p *Profile, hooks []byte, src Source, keySource string) ([]*Hook, []Warning) {
	w := newHooksWalker(p, src, keySource, nil)
	clean, ok := w.checkJSON(hooks)
	if !ok {
		return nil, w.warns
	}
	root := gjson.ParseBytes(clean)
	switch {
	case root.Type == gjson.Null:
		// "hooks": null is the same as no hooks at all.
	case !root.IsObject():
		w.fail(root.Index, "expected an object of hook events")
	default:
		w.walkHooks(root, "hooks")
	}
	return w.hooks, w.warns
}

func parseHooksJSON(p *Profile, data []byte, src Source, keySource string) *hooksWalker {
	w := newHooksWalker(p, src, keySource, data)
	clean, ok := w.checkJSON(data)
	if !ok {
		return w
	}
	root := gjson.ParseBytes(clean)
	if !root.IsObject() {
		// Nothing in a non-object can be a hook; the file as a whole is malformed.
		w.fail(root.Index, "expected a JSON object")
		return w
	}
	fields := w.fields(root, "", cfgSite{group: -1, handler: -1})
	for _, f := range fields.list {
		switch f.key.Str {
		case "description":
			if f.val.Type != gjson.String && f.val.Type != gjson.Null {
				w.warn(cfgSite{group: -1, handler: -1}, f.val.Index, f.path,
					"ignoring field %q in %s: expected a string", "description", w.name)
			}
		case "hooks":
			switch {
			case f.val.Type == gjson.Null:
			case !f.val.IsObject():
				w.warn(cfgSite{group: -1, handler: -1}, f.val.Index, f.path,
					"ignoring field %q in %s: expected an object of hook events", "hooks", w.name)
			default:
				w.walkHooks(f.val, "hooks")
			}
		default:
			w.unknownField(cfgSite{group: -1, handler: -1}, f)
		}
	}
	return w
}

func parseHooksTOML(p *Profile, data []byte, src Source, keySource string) *hooksWalker {
	w := newHooksWalker(p, src, keySource, nil)
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		msg := fmt.Sprintf("failed to parse hooks config %s: %v", w.name, err)
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg += fmt.Sprintf(" (line %d, column %d)", line, col)
		}
		w.warns = append(w.warns, Warning{Source: w.src.Path, Message: msg})
		return w
	}
	raw, ok := doc["hooks"]
	if !ok {
		return w
	}
	table, ok := raw.(map[string]any)
	if !ok {
		w.warn(cfgSite{group: -1, handler: -1}, -1, "hooks",
			"ignoring field %q in %s: expected a table of hook events", "hooks", w.name)
		return w
	}
	events := make(map[string]any, len(table))
	for k, v := range table {
		// [hooks.state."<key>"] is trust state, read by the trust code, not hooks.
		if k != "state" {
			events[k] = v
		}
	}
	doc2, err := tomlToJSON(events)
	if err != nil {
		w.warns = append(w.warns, Warning{Source: w.src.Path,
			Message: fmt.Sprintf("failed to parse hooks config %s: %v", w.name, err)})
		return w
	}
	w.walkHooks(gjson.ParseBytes(doc2), "hooks")
	return w
}

// hooksWalker holds the state of reading one hooks document.
type hooksWalker struct {
	p         *Profile
	src       Source
	keySource string
	// name is how messages name the document: its path.
	name string
	// doc is the JSON file text, for line/column positions; nil when
	// positions are given as paths (TOML, inline values).
	doc   []byte
	hooks []*Hook
	warns []Warning
	// nonEmpty is set once a known event has at least one matcher group, so
	// discovery can tell whether a layer really uses both representations.
	nonEmpty bool
}

func newHooksWalker(p *Profile, src Source, keySource string, doc []byte) *hooksWalker {
	name := src.Path
	if name == "" {
		name = keySource
	}
	return &hooksWalker{p: p, src: src, keySource: keySource, name: name, doc: doc}
}

// cfgSite is where in the document a warning applies; -1 means not inside a
// group or handler.
type cfgSite struct {
	event   string
	group   int
	handler int
}

func (w *hooksWalker) warn(s cfgSite, off int, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if w.doc != nil && off >= 0 {
		line, col := cfgLineCol(w.doc, off)
		msg += fmt.Sprintf(" (line %d, column %d)", line, col)
	} else if path != "" {
		msg += " (at " + path + ")"
	}
	wr := Warning{Source: w.src.Path, Message: msg, Event: s.event}
	if s.group >= 0 {
		g := s.group
		wr.Group = &g
	}
	if s.handler >= 0 {
		h := s.handler
		wr.Handler = &h
	}
	w.warns = append(w.warns, wr)
}

// fail reports a document that cannot be read at all.
func (w *hooksWalker) fail(off int, reason string) {
	w.warn(cfgSite{group: -1, handler: -1}, off, "", "failed to parse hooks config %s: %s", w.name, reason)
}

// checkJSON validates data and returns the text to walk. gjson does not
// validate, so a syntax error is found here, with its position.
func (w *hooksWalker) checkJSON(data []byte) ([]byte, bool) {
	clean := data
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		// Editors on Windows like to write a BOM. Blank it rather than cut it
		// so that offsets into clean are offsets into data.
		clean = append([]byte("   "), data[3:]...)
	}
	if len(bytes.TrimSpace(clean)) == 0 {
		w.fail(len(clean), "empty document")
		return nil, false
	}
	var raw json.RawMessage
	if err := json.Unmarshal(clean, &raw); err != nil {
		off := -1
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the bytes read, the offending one included.
			off = max(int(se.Offset)-1, 0)
		}
		msg := strings.TrimPrefix(err.Error(), "json: ")
		if w.doc == nil && off >= 0 {
			msg += fmt.Sprintf(" (byte %d)", off)
		}
		w.fail(off, msg)
		return nil, false
	}
	return clean, true
}

// cfgField is one member of a JSON object, with its path for messages.
type cfgField struct {
	key, val gjson.Result
	path     string
}

type cfgFieldSet struct {
	list  []cfgField
	byKey map[string]cfgField
}

func (fs cfgFieldSet) get(name string) (cfgField, bool) {
	f, ok := fs.byKey[name]
	return f, ok
}

// fields lists an object's members in document order. A repeated name is
// reported and only its first value is used, so every later rule sees one value.
func (w *hooksWalker) fields(obj gjson.Result, path string, s cfgSite) cfgFieldSet {
	fs := cfgFieldSet{byKey: map[string]cfgField{}}
	obj.ForEach(func(k, v gjson.Result) bool {
		f := cfgField{key: k, val: v, path: cfgJoinPath(path, k.Str)}
		if _, dup := fs.byKey[k.Str]; dup {
			w.warn(s, k.Index, f.path, "ignoring duplicate field %q in %s", k.Str, w.name)
			return true
		}
		fs.byKey[k.Str] = f
		fs.list = append(fs.list, f)
		return true
	})
	return fs
}

func (w *hooksWalker) unknownField(s cfgSite, f cfgField) {
	if w.p.QuietFields[f.key.Str] {
		return
	}
	w.warn(s, f.key.Index, f.path, "ignoring unknown field %q in %s", f.key.Str, w.name)
}

func cfgJoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// walkHooks reads {Event: [group...]}. Events go in the profile's fixed order,
// whatever order the document uses, because that order is part of the
// configuration order hooks are combined in.
func (w *hooksWalker) walkHooks(obj gjson.Result, path string) {
	top := cfgSite{group: -1, handler: -1}
	fs := w.fields(obj, path, top)
	for _, f := range fs.list {
		if w.p.Event(f.key.Str) == nil {
			w.warn(top, f.key.Index, f.path, "ignoring unknown hook event %q in %s", f.key.Str, w.name)
		}
	}
	for _, ev := range w.p.Events {
		f, ok := fs.get(ev.Name)
		if !ok {
			continue
		}
		s := cfgSite{event: ev.Name, group: -1, handler: -1}
		switch {
		case f.val.Type == gjson.Null:
		case !f.val.IsArray():
			w.warn(s, f.val.Index, f.path, "ignoring hook event %q in %s: expected an array of matcher groups", ev.Name, w.name)
		default:
			gi := 0
			f.val.ForEach(func(_, g gjson.Result) bool {
				w.nonEmpty = true
				w.walkGroup(ev, gi, g, fmt.Sprintf("%s[%d]", f.path, gi))
				gi++
				return true
			})
		}
	}
}

// cfgGroupMatcher is a group's matcher as it applies to its handlers.
type cfgGroupMatcher struct {
	text string
	has  bool
	m    Matcher
}

func (w *hooksWalker) walkGroup(ev *EventRules, gi int, g gjson.Result, path string) {
	s := cfgSite{event: ev.Name, group: gi, handler: -1}
	if !g.IsObject() {
		w.warn(s, g.Index, path, "skipping matcher group in %s: expected an object", w.name)
		return
	}
	fs := w.fields(g, path, s)
	for _, f := range fs.list {
		if f.key.Str != "matcher" && f.key.Str != "hooks" {
			w.unknownField(s, f)
		}
	}
	gm := cfgGroupMatcher{m: MatchAll}
	// Events without a match target ignore the matcher without looking at it,
	// as Codex does, so a stale matcher there never costs the group.
	if f, ok := fs.get("matcher"); ok && ev.MatchField != "" {
		switch f.val.Type {
		case gjson.Null:
		case gjson.String:
			m, err := w.compile(ev, f.val.Str)
			if err != nil {
				w.warn(s, f.val.Index, f.path, "invalid matcher %q in %s: %s", f.val.Str, w.name, matcherErrText(f.val.Str, err))
				return
			}
			gm = cfgGroupMatcher{text: f.val.Str, has: true, m: m}
		default:
			w.warn(s, f.val.Index, f.path, "invalid matcher %q in %s: expected a string", f.val.Raw, w.name)
			return
		}
	}
	w.handlers(fs, s, "matcher group", func(hi int, h gjson.Result, path string) *Hook {
		return w.walkHandler(ev, gi, hi, h, path, gm)
	})
}

// handlers walks a group's "hooks" array and adds the hook read makes of each
// handler (nil: skipped, but it still used up its index). noun names the group
// in the warning for a "hooks" that is not an array.
func (w *hooksWalker) handlers(fs cfgFieldSet, s cfgSite, noun string, read func(hi int, h gjson.Result, path string) *Hook) {
	hf, ok := fs.get("hooks")
	if !ok || hf.val.Type == gjson.Null {
		return
	}
	if !hf.val.IsArray() {
		w.warn(s, hf.val.Index, hf.path, "skipping %s in %s: field %q must be an array", noun, w.name, "hooks")
		return
	}
	hi := 0
	hf.val.ForEach(func(_, h gjson.Result) bool {
		if hook := read(hi, h, fmt.Sprintf("%s[%d]", hf.path, hi)); hook != nil {
			w.hooks = append(w.hooks, hook)
		}
		hi++
		return true
	})
}

func (w *hooksWalker) compile(ev *EventRules, pattern string) (Matcher, error) {
	if ev.CompileMatcher != nil {
		return ev.CompileMatcher(pattern)
	}
	if w.p.CompileMatcher == nil {
		return CodexMatcher(pattern)
	}
	return w.p.CompileMatcher(pattern)
}

// matcherErrText drops the `invalid matcher "<m>": ` prefix a compiler may
// already put on its error, since the warning says that itself.
func matcherErrText(pattern string, err error) string {
	return strings.TrimPrefix(err.Error(), fmt.Sprintf("invalid matcher %q: ", pattern))
}

// Fields a handler of each type may have; anything else is reported.
var (
	commandFields = map[string]bool{"type": true, "command": true, "commandWindows": true, "command_windows": true,
		"timeout": true, "async": true, "statusMessage": true, "additionalContextLimit": true}
	mcpFields = map[string]bool{"type": true, "server": true, "tool": true, "input": true,
		"timeout": true, "statusMessage": true, "async": true}
)

// handlerFields opens a handler: an object with a string "type". It returns
// the handler's fields and its type field; ok is false, with a warning, when
// the handler is not one.
func (w *hooksWalker) handlerFields(h gjson.Result, path string, s cfgSite) (fs cfgFieldSet, tf cfgField, ok bool) {
	if !h.IsObject() {
		w.warn(s, h.Index, path, "skipping hook handler in %s: expected an object", w.name)
		return fs, tf, false
	}
	fs = w.fields(h, path, s)
	tf, ok = fs.get("type")
	switch {
	case !ok || tf.val.Type == gjson.Null:
		w.warn(s, h.Index, path, "skipping hook handler in %s: missing field %q", w.name, "type")
		return fs, tf, false
	case tf.val.Type != gjson.String:
		w.warn(s, tf.val.Index, tf.path, "skipping hook handler in %s: field %q must be a string", w.name, "type")
		return fs, tf, false
	}
	return fs, tf, true
}

// walkHandler reads one handler and returns its hook, or nil when the handler
// is skipped. A skipped handler still used up its index (the caller counts).
func (w *hooksWalker) walkHandler(ev *EventRules, gi, hi int, h gjson.Result, path string, gm cfgGroupMatcher) *Hook {
	s := cfgSite{event: ev.Name, group: gi, handler: hi}
	fs, tf, ok := w.handlerFields(h, path, s)
	if !ok {
		return nil
	}
	var allowed map[string]bool
	switch tf.val.Str {
	case TypeCommand:
		allowed = commandFields
	case TypeMCPTool:
		if ev.NoMCP {
			w.warn(s, h.Index, path, "skipping MCP tool hook in %s: %s MCP hooks are not supported", w.name, ev.Name)
			return nil
		}
		allowed = mcpFields
	case "prompt", "agent":
		w.warn(s, tf.val.Index, tf.path, "skipping %s hook in %s: %s hooks are not supported yet", tf.val.Str, w.name, tf.val.Str)
		return nil
	default:
		w.warn(s, tf.val.Index, tf.path, "skipping hook handler in %s: unknown type %q", w.name, tf.val.Str)
		return nil
	}
	for _, f := range fs.list {
		if !allowed[f.key.Str] {
			w.unknownField(s, f)
		}
	}

	hr := cfgHandlerReader{w: w, s: s, fs: fs, kind: "command"}
	var hd Handler
	if tf.val.Str == TypeCommand {
		hd, ok = hr.command(ev, h, path)
	} else {
		hr.kind = "MCP tool"
		hd, ok = hr.mcpTool(ev, h, path)
	}
	if !ok {
		return nil
	}

	hook := &Hook{
		Key:        fmt.Sprintf("%s:%s:%d:%d", w.keySource, ev.Label, gi, hi),
		Event:      ev.Name,
		Matcher:    gm.text,
		HasMatcher: gm.has,
		matcher:    gm.m,
		Source:     w.src,
		Handler:    hd,
		Trust:      TrustUntrusted,
		Enabled:    true,
	}
	if w.src.Layer == LayerManaged {
		hook.Trust = TrustManaged
	}
	if w.p.ReadHandler != nil {
		msg, skip := w.p.ReadHandler(ev, h, hook)
		if msg != "" {
			w.warn(s, h.Index, path, "%s in %s", msg, w.name)
		}
		if skip {
			return nil
		}
	}
	hook.Hash = hookHash(ev.Label, hook)
	return hook
}

// cfgHandlerReader reads the typed fields of one handler. Type errors are checked
// in a fixed field order, not document order, so the same handler gives the
// same warning whether it came from JSON or TOML.
type cfgHandlerReader struct {
	w    *hooksWalker
	s    cfgSite
	fs   cfgFieldSet
	kind string // "command" or "MCP tool", for messages
}

// badType reports a wrongly typed field; the handler is then skipped.
func (r cfgHandlerReader) badType(f cfgField, want string) {
	r.w.warn(r.s, f.val.Index, f.path, "skipping %s hook in %s: field %q must be %s", r.kind, r.w.name, f.key.Str, want)
}

// optString reads an optional string field; null counts as absent.
func (r cfgHandlerReader) optString(name string) (f cfgField, v string, set, ok bool) {
	f, present := r.fs.get(name)
	if !present || f.val.Type == gjson.Null {
		return f, "", false, true
	}
	if f.val.Type != gjson.String {
		r.badType(f, "a string")
		return f, "", false, false
	}
	return f, f.val.Str, true, true
}

// optCount reads an optional non-negative integer field. Only an integer
// literal counts: 30.0 or 3e1 is a float to Codex's serde and to us.
func (r cfgHandlerReader) optCount(name string) (f cfgField, v int, set, ok bool) {
	f, present := r.fs.get(name)
	if !present || f.val.Type == gjson.Null {
		return f, 0, false, true
	}
	if f.val.Type == gjson.Number {
		if n, err := strconv.ParseUint(f.val.Raw, 10, 63); err == nil && n <= math.MaxInt {
			return f, int(n), true, true
		}
	}
	r.badType(f, "a non-negative integer")
	return f, 0, false, false
}

func (r cfgHandlerReader) optBool(name string) (f cfgField, v, set, ok bool) {
	f, present := r.fs.get(name)
	if !present || f.val.Type == gjson.Null {
		return f, false, false, true
	}
	if f.val.Type != gjson.True && f.val.Type != gjson.False {
		r.badType(f, "a boolean")
		return f, false, false, false
	}
	return f, f.val.Bool(), true, true
}

// maxTimeoutSeconds keeps timeout*time.Second from overflowing in the engine.
const maxTimeoutSeconds = int(math.MaxInt64 / int64(time.Second))

// timeout applies the event's default, the 1 s floor (0 means 1 s, as in
// Codex) and the event's cap, warning when the cap cuts a configured value.
func (r cfgHandlerReader) timeout(ev *EventRules, f cfgField, v int, set bool) int {
	t := ev.DefaultTimeout
	if set {
		t = v
	}
	t = min(max(t, 1), maxTimeoutSeconds)
	if ev.MaxTimeout > 0 && t > ev.MaxTimeout {
		if set {
			r.w.warn(r.s, f.val.Index, f.path, "clamping %s hook timeout to %ds in %s", ev.Name, ev.MaxTimeout, r.w.name)
		}
		t = ev.MaxTimeout
	}
	return t
}

func (r cfgHandlerReader) command(ev *EventRules, h gjson.Result, path string) (Handler, bool) {
	hd := Handler{Type: TypeCommand}
	cf, present := r.fs.get("command")
	if !present || cf.val.Type == gjson.Null {
		r.w.warn(r.s, h.Index, path, "skipping command hook in %s: missing field %q", r.w.name, "command")
		return hd, false
	}
	if cf.val.Type != gjson.String {
		r.badType(cf, "a string")
		return hd, false
	}
	cwf, cw, cwSet, ok := r.optString("commandWindows")
	if !ok {
		return hd, false
	}
	cw2f, cw2, cw2Set, ok := r.optString("command_windows")
	if !ok {
		return hd, false
	}
	_, status, statusSet, ok := r.optString("statusMessage")
	if !ok {
		return hd, false
	}
	tof, to, toSet, ok := r.optCount("timeout")
	if !ok {
		return hd, false
	}
	af, async, _, ok := r.optBool("async")
	if !ok {
		return hd, false
	}
	lf, limit, limitSet, ok := r.optCount("additionalContextLimit")
	if !ok {
		return hd, false
	}

	if strings.TrimSpace(cf.val.Str) == "" {
		r.w.warn(r.s, cf.val.Index, cf.path, "skipping empty hook command in %s", r.w.name)
		return hd, false
	}
	hd.Command = cf.val.Str
	switch {
	case cwSet && cw2Set:
		r.w.warn(r.s, cw2f.val.Index, cw2f.path, "ignoring command_windows in %s: commandWindows is also set", r.w.name)
	case cw2Set:
		cwf, cw, cwSet = cw2f, cw2, true
	}
	if cwSet {
		// An empty Windows command would run nothing on Windows; fall back to
		// command there rather than skip a hook that works elsewhere.
		if strings.TrimSpace(cw) == "" {
			r.w.warn(r.s, cwf.val.Index, cwf.path, "ignoring empty %s in %s", cwf.key.Str, r.w.name)
		} else {
			hd.CommandWindows = cw
		}
	}
	if statusSet {
		hd.StatusMessage = &status
	}
	hd.Timeout = r.timeout(ev, tof, to, toSet)
	hd.AsyncConfigured = async
	hd.Async = async
	if async && ev.ForceSync {
		r.w.warn(r.s, af.val.Index, af.path, "running async %s hook synchronously in %s", ev.Name, r.w.name)
		hd.Async = false
	}
	if limitSet {
		if ev.ContextLimit {
			hd.AdditionalContextLimit = &limit
		} else {
			r.w.warn(r.s, lf.val.Index, lf.path, "ignoring additionalContextLimit for %s hook in %s", ev.Name, r.w.name)
		}
	}
	return hd, true
}

func (r cfgHandlerReader) mcpTool(ev *EventRules, h gjson.Result, path string) (Handler, bool) {
	hd := Handler{Type: TypeMCPTool}
	sf, server, _, ok := r.optString("server")
	if !ok {
		return hd, false
	}
	tf, tool, _, ok := r.optString("tool")
	if !ok {
		return hd, false
	}
	input := json.RawMessage("{}")
	if f, present := r.fs.get("input"); present && f.val.Type != gjson.Null {
		if !f.val.IsObject() {
			r.badType(f, "an object")
			return hd, false
		}
		// The input is a template, hashed as written; a null has no TOML form,
		// so Codex cannot hash it and rejects it.
		if cfgContainsNull(f.val) {
			r.w.warn(r.s, f.val.Index, f.path, "skipping MCP tool hook in %s: field %q must not contain null", r.w.name, "input")
			return hd, false
		}
		input = json.RawMessage(f.val.Raw)
	}
	tof, to, toSet, ok := r.optCount("timeout")
	if !ok {
		return hd, false
	}
	_, status, statusSet, ok := r.optString("statusMessage")
	if !ok {
		return hd, false
	}
	af, async, _, ok := r.optBool("async")
	if !ok {
		return hd, false
	}

	for _, req := range []struct {
		f    cfgField
		name string
		v    string
	}{{sf, "server", server}, {tf, "tool", tool}} {
		if strings.TrimSpace(req.v) == "" {
			at, atPath := h.Index, path
			if req.f.key.Exists() {
				at, atPath = req.f.val.Index, req.f.path
			}
			r.w.warn(r.s, at, atPath, "skipping MCP tool hook in %s: field %q must be a non-empty string", r.w.name, req.name)
			return hd, false
		}
	}
	hd.Server, hd.Tool = server, tool
	// Converting Raw (a string) made a copy, so Input never aliases the
	// caller's buffer.
	hd.Input = input
	if statusSet {
		hd.StatusMessage = &status
	}
	hd.Timeout = r.timeout(ev, tof, to, toSet)
	hd.AsyncConfigured = async
	if async {
		r.w.warn(r.s, af.val.Index, af.path, "running async MCP tool hook synchronously in %s: MCP tool hooks cannot be async", r.w.name)
	}
	return hd, true
}

func cfgContainsNull(v gjson.Result) bool {
	if v.Type == gjson.Null {
		return true
	}
	found := false
	if v.IsObject() || v.IsArray() {
		v.ForEach(func(_, x gjson.Result) bool {
			found = cfgContainsNull(x)
			return !found
		})
	}
	return found
}

// cfgLineCol turns a byte offset into a 1-based line and a 1-based column counted
// in characters, as editors show them.
func cfgLineCol(doc []byte, off int) (line, col int) {
	off = min(max(off, 0), len(doc))
	line = 1 + bytes.Count(doc[:off], []byte("\n"))
	start := bytes.LastIndexByte(doc[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(doc[start:off])
}

// tomlToJSON encodes a value decoded by go-toml as JSON for the walker. Floats
// are kept visibly floats ("30.0"), because a float timeout must be refused as
// Codex's serde refuses it, and a plain float64 would encode as "30". Dates
// become their TOML text; the walker then reports them as wrongly typed.
func tomlToJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tomlJSONValue(v)); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func tomlJSONValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = tomlJSONValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = tomlJSONValue(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = tomlJSONValue(e)
		}
		return out
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return json.Number(s)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case encoding.TextMarshaler:
		b, err := x.MarshalText()
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return v
}
