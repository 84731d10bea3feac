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
	return w.Hooks, w.Warns
}

// ParseHooksTOML parses the [hooks] table of a config.toml (event arrays; the "state" sub-table is
// skipped here, it belongs to trust). Returns no hooks and no warnings when there is no [hooks] table.
// Warnings name the element by its place in the table (hooks.Event[group].hooks[handler]).
func ParseHooksTOML(p *Profile, data []byte, src Source, keySource string) ([]*Hook, []Warning) {
	w := parseHooksTOML(p, data, src, keySource)
	return w.Hooks, w.Warns
}

// ParseHooksValue parses an already-decoded "hooks" object ({Event: [group...]}), e.g. session hooks
// given inline by the host at initialize. Warnings name the element by its place in the object.
func ParseHooksValue(p *Profile, hooks []byte, src Source, keySource string) ([]*Hook, []Warning) {
	w := NewWalker(p, src, keySource, nil)
	clean, ok := w.CheckJSON(hooks)
	if !ok {
		return nil, w.Warns
	}
	root := gjson.ParseBytes(clean)
	switch {
	case root.Type == gjson.Null:
		// "hooks": null is the same as no hooks at all.
	case !root.IsObject():
		w.Fail(root.Index, "expected an object of hook events")
	default:
		w.WalkHooks(root, "hooks")
	}
	return w.Hooks, w.Warns
}

func parseHooksJSON(p *Profile, data []byte, src Source, keySource string) *Walker {
	w := NewWalker(p, src, keySource, data)
	clean, ok := w.CheckJSON(data)
	if !ok {
		return w
	}
	root := gjson.ParseBytes(clean)
	if !root.IsObject() {
		// Nothing in a non-object can be a hook; the file as a whole is malformed.
		w.Fail(root.Index, "expected a JSON object")
		return w
	}
	fields := w.Fields(root, "", Site{Group: -1, Handler: -1})
	for _, f := range fields.List {
		switch f.Key.Str {
		case "description":
			if f.Val.Type != gjson.String && f.Val.Type != gjson.Null {
				w.Warn(Site{Group: -1, Handler: -1}, f.Val.Index, f.Path(),
					"ignoring field %q in %s: expected a string", "description", w.Name)
			}
		case "hooks":
			switch {
			case f.Val.Type == gjson.Null:
			case !f.Val.IsObject():
				w.Warn(Site{Group: -1, Handler: -1}, f.Val.Index, f.Path(),
					"ignoring field %q in %s: expected an object of hook events", "hooks", w.Name)
			default:
				w.WalkHooks(f.Val, "hooks")
			}
		default:
			w.UnknownField(Site{Group: -1, Handler: -1}, f)
		}
	}
	return w
}

func parseHooksTOML(p *Profile, data []byte, src Source, keySource string) *Walker {
	w := NewWalker(p, src, keySource, nil)
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		msg := fmt.Sprintf("failed to parse hooks config %s: %v", w.Name, err)
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg += fmt.Sprintf(" (line %d, column %d)", line, col)
		}
		w.Warns = append(w.Warns, Warning{Source: w.Src.Path, Message: msg})
		return w
	}
	raw, ok := doc["hooks"]
	if !ok {
		return w
	}
	table, ok := raw.(map[string]any)
	if !ok {
		w.Warn(Site{Group: -1, Handler: -1}, -1, "hooks",
			"ignoring field %q in %s: expected a table of hook events", "hooks", w.Name)
		return w
	}
	events := make(map[string]any, len(table))
	for k, v := range table {
		// [hooks.state."<key>"] is trust state, read by the trust code, not hooks.
		if k != "state" {
			events[k] = v
		}
	}
	doc2, err := TOMLToJSON(events)
	if err != nil {
		w.Warns = append(w.Warns, Warning{Source: w.Src.Path,
			Message: fmt.Sprintf("failed to parse hooks config %s: %v", w.Name, err)})
		return w
	}
	w.WalkHooks(gjson.ParseBytes(doc2), "hooks")
	return w
}

// Walker holds the state of reading one hooks document.
type Walker struct {
	Profile   *Profile
	Src       Source
	KeySource string
	// Name is how messages name the document: its path.
	Name string
	// doc is the JSON file text, for line/column positions; nil when
	// positions are given as paths (TOML, inline values).
	doc   []byte
	Hooks []*Hook
	Warns []Warning
	// nonEmpty is set once a known event has at least one matcher group, so
	// discovery can tell whether a layer really uses both representations.
	nonEmpty bool
}

// NewWalker starts reading one hooks document of profile p: src is where
// its hooks come from, keySource what their keys start with, doc the JSON
// text for line and column positions (nil for TOML and inline values).
func NewWalker(p *Profile, src Source, keySource string, doc []byte) *Walker {
	name := src.Path
	if name == "" {
		name = keySource
	}
	return &Walker{Profile: p, Src: src, KeySource: keySource, Name: name, doc: doc}
}

// Site is where in the document a warning applies; -1 means not inside a
// group or handler.
type Site struct {
	Event   string
	Group   int
	Handler int
}

// Warn records a warning at site s, placed by offset off in the JSON text
// or, without one, by path.
func (w *Walker) Warn(s Site, off int, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if w.doc != nil && off >= 0 {
		line, col := cfgLineCol(w.doc, off)
		msg += fmt.Sprintf(" (line %d, column %d)", line, col)
	} else if path != "" {
		msg += " (at " + path + ")"
	}
	wr := Warning{Source: w.Src.Path, Message: msg, Event: s.Event}
	if s.Group >= 0 {
		g := s.Group
		wr.Group = &g
	}
	if s.Handler >= 0 {
		h := s.Handler
		wr.Handler = &h
	}
	w.Warns = append(w.Warns, wr)
}

// Fail reports a document that cannot be read at all.
func (w *Walker) Fail(off int, reason string) {
	w.Warn(Site{Group: -1, Handler: -1}, off, "", "failed to parse hooks config %s: %s", w.Name, reason)
}

// CheckJSON validates data and returns the text to walk. gjson does not
// validate, so a syntax error is found here, with its position.
func (w *Walker) CheckJSON(data []byte) ([]byte, bool) {
	clean := data
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		// Editors on Windows like to write a BOM. Blank it rather than cut it
		// so that offsets into clean are offsets into data.
		clean = append([]byte("   "), data[3:]...)
	}
	if len(bytes.TrimSpace(clean)) == 0 {
		w.Fail(len(clean), "empty document")
		return nil, false
	}
	// Valid scans once; Unmarshal (into a RawMessage, which cannot fail
	// once the text is valid) is only needed for the error's words.
	if json.Valid(clean) {
		return clean, true
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
		w.Fail(off, msg)
		return nil, false
	}
	return clean, true
}

// Field is one member of a JSON object, with its path for messages.
type Field struct {
	Key FieldKey
	Val gjson.Result
	// parent is the path of the object the member is in; Path joins the
	// two only when a message or a nested member needs it.
	parent string
}

// Path is where the member is, for messages: parent.key.
func (f Field) Path() string { return cfgJoinPath(f.parent, f.Key.Str) }

// FieldKey is a member's name and the offset of its key in the document
// (what a warning about the member points at). Hundreds of members are
// kept per load, so it keeps no more of the key than that.
type FieldKey struct {
	Str   string
	Index int
}

// FieldSet is a JSON object's members, in document order and by name.
type FieldSet struct {
	List []Field
	// byKey indexes List once it is longer than fewFields; hook objects
	// have a handful of members, and a look along so short a list beats a
	// map that each object would have to allocate.
	byKey map[string]int
}

// fewFields is the longest list Get searches without an index.
const fewFields = 16

// Get returns the member with that name.
func (fs FieldSet) Get(name string) (Field, bool) {
	if fs.byKey != nil {
		i, ok := fs.byKey[name]
		if !ok {
			return Field{}, false
		}
		return fs.List[i], true
	}
	for _, f := range fs.List {
		if f.Key.Str == name {
			return f, true
		}
	}
	return Field{}, false
}

// add appends f to the set.
func (fs *FieldSet) add(f Field) {
	fs.List = append(fs.List, f)
	switch {
	case fs.byKey != nil:
		fs.byKey[f.Key.Str] = len(fs.List) - 1
	case len(fs.List) > fewFields:
		fs.byKey = make(map[string]int, 2*len(fs.List))
		for i, g := range fs.List {
			fs.byKey[g.Key.Str] = i
		}
	}
}

// Fields lists an object's members in document order. A repeated name is
// reported and only its first value is used, so every later rule sees one value.
func (w *Walker) Fields(obj gjson.Result, path string, s Site) FieldSet {
	n := 0
	obj.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	fs := FieldSet{List: make([]Field, 0, n)}
	obj.ForEach(func(k, v gjson.Result) bool {
		f := Field{Key: FieldKey{Str: k.Str, Index: k.Index}, Val: v, parent: path}
		if _, dup := fs.Get(k.Str); dup {
			w.Warn(s, k.Index, f.Path(), "ignoring duplicate field %q in %s", k.Str, w.Name)
			return true
		}
		fs.add(f)
		return true
	})
	return fs
}

// UnknownField warns about a member the reader does not know, unless the
// profile lists it in QuietFields.
func (w *Walker) UnknownField(s Site, f Field) {
	if w.Profile.QuietFields[f.Key.Str] {
		return
	}
	w.Warn(s, f.Key.Index, f.Path(), "ignoring unknown field %q in %s", f.Key.Str, w.Name)
}

// cfgIndexPath is path[i] (a position in messages; hundreds are made per
// load, so without fmt).
func cfgIndexPath(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func cfgJoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// WalkHooks reads {Event: [group...]}. Events go in the profile's fixed order,
// whatever order the document uses, because that order is part of the
// configuration order hooks are combined in.
func (w *Walker) WalkHooks(obj gjson.Result, path string) {
	top := Site{Group: -1, Handler: -1}
	fs := w.Fields(obj, path, top)
	for _, f := range fs.List {
		if w.Profile.Event(f.Key.Str) == nil && !w.Profile.QuietFields[f.Key.Str] {
			w.Warn(top, f.Key.Index, f.Path(), "ignoring unknown hook event %q in %s", f.Key.Str, w.Name)
		}
	}
	for _, ev := range w.Profile.Events {
		f, ok := fs.Get(ev.Name)
		if !ok {
			continue
		}
		s := Site{Event: ev.Name, Group: -1, Handler: -1}
		switch {
		case f.Val.Type == gjson.Null:
		case !f.Val.IsArray():
			w.Warn(s, f.Val.Index, f.Path(), "ignoring hook event %q in %s: expected an array of matcher groups", ev.Name, w.Name)
		default:
			gi, path := 0, f.Path()
			f.Val.ForEach(func(_, g gjson.Result) bool {
				w.nonEmpty = true
				w.walkGroup(ev, gi, g, cfgIndexPath(path, gi))
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

func (w *Walker) walkGroup(ev *EventRules, gi int, g gjson.Result, path string) {
	s := Site{Event: ev.Name, Group: gi, Handler: -1}
	if !g.IsObject() {
		w.Warn(s, g.Index, path, "skipping matcher group in %s: expected an object", w.Name)
		return
	}
	fs := w.Fields(g, path, s)
	for _, f := range fs.List {
		if f.Key.Str != "matcher" && f.Key.Str != "hooks" {
			w.UnknownField(s, f)
		}
	}
	gm := cfgGroupMatcher{m: MatchAll}
	// Events without a match target ignore the matcher without looking at it,
	// as Codex does, so a stale matcher there never costs the group.
	if f, ok := fs.Get("matcher"); ok && ev.MatchField != "" {
		switch f.Val.Type {
		case gjson.Null:
		case gjson.String:
			m, err := w.compile(ev, f.Val.Str)
			if err != nil {
				w.Warn(s, f.Val.Index, f.Path(), "invalid matcher %q in %s: %s", f.Val.Str, w.Name, matcherErrText(f.Val.Str, err))
				return
			}
			gm = cfgGroupMatcher{text: f.Val.Str, has: true, m: m}
		default:
			w.Warn(s, f.Val.Index, f.Path(), "invalid matcher %q in %s: expected a string", f.Val.Raw, w.Name)
			return
		}
	}
	first := len(w.Hooks)
	w.Handlers(fs, s, "matcher group", func(hi int, h gjson.Result, path string) *Hook {
		return w.walkHandler(ev, gi, hi, h, path, gm)
	})
	if f, ok := fs.Get("sequential"); ok && f.Val.Type == gjson.True {
		for _, h := range w.Hooks[first:] {
			h.Sequential = true
		}
	}
}

// Handlers walks a group's "hooks" array and adds the hook read makes of each
// handler (nil: skipped, but it still used up its index). noun names the group
// in the warning for a "hooks" that is not an array.
func (w *Walker) Handlers(fs FieldSet, s Site, noun string, read func(hi int, h gjson.Result, path string) *Hook) {
	hf, ok := fs.Get("hooks")
	if !ok || hf.Val.Type == gjson.Null {
		return
	}
	if !hf.Val.IsArray() {
		w.Warn(s, hf.Val.Index, hf.Path(), "skipping %s in %s: field %q must be an array", noun, w.Name, "hooks")
		return
	}
	hi, path := 0, hf.Path()
	hf.Val.ForEach(func(_, h gjson.Result) bool {
		if hook := read(hi, h, cfgIndexPath(path, hi)); hook != nil {
			w.Hooks = append(w.Hooks, hook)
		}
		hi++
		return true
	})
}

func (w *Walker) compile(ev *EventRules, pattern string) (Matcher, error) {
	return compileMatcher(w.Profile, ev, pattern)
}

// compileMatcher compiles a group's matcher by the event's rule, else the
// profile's, else Codex's.
func compileMatcher(p *Profile, ev *EventRules, pattern string) (Matcher, error) {
	if ev.CompileMatcher != nil {
		return ev.CompileMatcher(pattern)
	}
	if p.CompileMatcher == nil {
		return CodexMatcher(pattern)
	}
	return p.CompileMatcher(pattern)
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

// HandlerFields opens a handler: an object with a string "type". It returns
// the handler's fields and its type field; ok is false, with a warning, when
// the handler is not one.
func (w *Walker) HandlerFields(h gjson.Result, path string, s Site) (fs FieldSet, tf Field, ok bool) {
	if !h.IsObject() {
		w.Warn(s, h.Index, path, "skipping hook handler in %s: expected an object", w.Name)
		return fs, tf, false
	}
	fs = w.Fields(h, path, s)
	tf, ok = fs.Get("type")
	switch {
	case !ok || tf.Val.Type == gjson.Null:
		w.Warn(s, h.Index, path, "skipping hook handler in %s: missing field %q", w.Name, "type")
		return fs, tf, false
	case tf.Val.Type != gjson.String:
		w.Warn(s, tf.Val.Index, tf.Path(), "skipping hook handler in %s: field %q must be a string", w.Name, "type")
		return fs, tf, false
	}
	return fs, tf, true
}

// walkHandler reads one handler and returns its hook, or nil when the handler
// is skipped. A skipped handler still used up its index (the caller counts).
func (w *Walker) walkHandler(ev *EventRules, gi, hi int, h gjson.Result, path string, gm cfgGroupMatcher) *Hook {
	s := Site{Event: ev.Name, Group: gi, Handler: hi}
	fs, tf, ok := w.HandlerFields(h, path, s)
	if !ok {
		return nil
	}
	var allowed map[string]bool
	// A profile that replaces the command or mcp_tool kind (Gemini CLI's
	// command wrapper) still has those handlers read as such.
	_, profileKind := w.Profile.HandlerKinds[tf.Val.Str]
	profileKind = profileKind && tf.Val.Str != TypeCommand && tf.Val.Str != TypeMCPTool
	switch tf.Val.Str {
	case TypeCommand:
		allowed = commandFields
	case TypeMCPTool:
		if ev.NoMCP {
			w.Warn(s, h.Index, path, "skipping MCP tool hook in %s: %s MCP hooks are not supported", w.Name, ev.Name)
			return nil
		}
		allowed = mcpFields
	case "prompt", "agent":
		if profileKind {
			break
		}
		w.Warn(s, tf.Val.Index, tf.Path(), "skipping %s hook in %s: %s hooks are not supported yet", tf.Val.Str, w.Name, tf.Val.Str)
		return nil
	default:
		if profileKind {
			break
		}
		w.Warn(s, tf.Val.Index, tf.Path(), "skipping hook handler in %s: unknown type %q", w.Name, tf.Val.Str)
		return nil
	}
	for _, f := range fs.List {
		// A profile's own kind checks its own fields (ReadHandler).
		if !profileKind && !allowed[f.Key.Str] {
			w.UnknownField(s, f)
		}
	}

	hr := HandlerReader{W: w, S: s, FS: fs, Kind: "command"}
	var hd Handler
	switch {
	case profileKind:
		hr.Kind = tf.Val.Str
		hd, ok = hr.profileKind(ev, tf.Val.Str, h)
	case tf.Val.Str == TypeCommand:
		hd, ok = hr.command(ev, h, path)
	default:
		hr.Kind = "MCP tool"
		hd, ok = hr.mcpTool(ev, h, path)
	}
	if !ok {
		return nil
	}

	hook := &Hook{
		Key:        w.KeySource + ":" + ev.Label + ":" + strconv.Itoa(gi) + ":" + strconv.Itoa(hi),
		Event:      ev.Name,
		Matcher:    gm.text,
		HasMatcher: gm.has,
		matcher:    gm.m,
		Source:     w.Src,
		Handler:    hd,
		Trust:      TrustUntrusted,
		Enabled:    true,
	}
	if w.Src.Layer == LayerManaged {
		hook.Trust = TrustManaged
	}
	if w.Profile.ReadHandler != nil {
		msg, skip := w.Profile.ReadHandler(ev, h, hook)
		if msg != "" {
			w.Warn(s, h.Index, path, "%s in %s", msg, w.Name)
		}
		if skip {
			return nil
		}
	}
	hook.setHash(ev.Label)
	return hook
}

// HandlerReader reads the typed fields of one handler. Type errors are checked
// in a fixed field order, not document order, so the same handler gives the
// same warning whether it came from JSON or TOML.
type HandlerReader struct {
	W    *Walker
	S    Site
	FS   FieldSet
	Kind string // "command" or "MCP tool", for messages
}

// BadType reports a wrongly typed field; the handler is then skipped.
func (r HandlerReader) BadType(f Field, want string) {
	r.W.Warn(r.S, f.Val.Index, f.Path(), "skipping %s hook in %s: field %q must be %s", r.Kind, r.W.Name, f.Key.Str, want)
}

// optString reads an optional string field; null counts as absent.
func (r HandlerReader) optString(name string) (f Field, v string, set, ok bool) {
	f, present := r.FS.Get(name)
	if !present || f.Val.Type == gjson.Null {
		return f, "", false, true
	}
	if f.Val.Type != gjson.String {
		r.BadType(f, "a string")
		return f, "", false, false
	}
	return f, f.Val.Str, true, true
}

// OptCount reads an optional non-negative integer field. Only an integer
// literal counts: 30.0 or 3e1 is a float to Codex's serde and to us.
func (r HandlerReader) OptCount(name string) (f Field, v int, set, ok bool) {
	f, present := r.FS.Get(name)
	if !present || f.Val.Type == gjson.Null {
		return f, 0, false, true
	}
	if f.Val.Type == gjson.Number {
		if n, err := strconv.ParseUint(f.Val.Raw, 10, 63); err == nil && n <= math.MaxInt {
			return f, int(n), true, true
		}
	}
	r.BadType(f, "a non-negative integer")
	return f, 0, false, false
}

func (r HandlerReader) optBool(name string) (f Field, v, set, ok bool) {
	f, present := r.FS.Get(name)
	if !present || f.Val.Type == gjson.Null {
		return f, false, false, true
	}
	if f.Val.Type != gjson.True && f.Val.Type != gjson.False {
		r.BadType(f, "a boolean")
		return f, false, false, false
	}
	return f, f.Val.Bool(), true, true
}

// maxTimeoutSeconds keeps timeout*time.Second from overflowing in the engine.
const maxTimeoutSeconds = int(math.MaxInt64 / int64(time.Second))

// Timeout applies the event's default, the 1 s floor (0 means 1 s, as in
// Codex) and the event's cap, warning when the cap cuts a configured value.
func (r HandlerReader) Timeout(ev *EventRules, f Field, v int, set bool) int {
	t := ev.DefaultTimeout
	if set {
		t = v
	}
	t = min(max(t, 1), maxTimeoutSeconds)
	if ev.MaxTimeout > 0 && t > ev.MaxTimeout {
		if set {
			r.W.Warn(r.S, f.Val.Index, f.Path(), "clamping %s hook timeout to %ds in %s", ev.Name, ev.MaxTimeout, r.W.Name)
		}
		t = ev.MaxTimeout
	}
	return t
}

// profileKind reads the fields every handler has (statusMessage, timeout)
// of a kind the profile adds, and keeps the whole handler in Config for the
// kind to read.
func (r HandlerReader) profileKind(ev *EventRules, typ string, h gjson.Result) (Handler, bool) {
	hd := Handler{Type: typ, Config: json.RawMessage(h.Raw)}
	_, status, statusSet, ok := r.optString("statusMessage")
	if !ok {
		return hd, false
	}
	tof, to, toSet, ok := r.OptCount("timeout")
	if !ok {
		return hd, false
	}
	if statusSet {
		hd.StatusMessage = &status
	}
	hd.Timeout = r.Timeout(ev, tof, to, toSet)
	return hd, true
}

func (r HandlerReader) command(ev *EventRules, h gjson.Result, path string) (Handler, bool) {
	hd := Handler{Type: TypeCommand}
	cf, present := r.FS.Get("command")
	if !present || cf.Val.Type == gjson.Null {
		r.W.Warn(r.S, h.Index, path, "skipping command hook in %s: missing field %q", r.W.Name, "command")
		return hd, false
	}
	if cf.Val.Type != gjson.String {
		r.BadType(cf, "a string")
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
	tof, to, toSet, ok := r.OptCount("timeout")
	if !ok {
		return hd, false
	}
	af, async, _, ok := r.optBool("async")
	if !ok {
		return hd, false
	}
	lf, limit, limitSet, ok := r.OptCount("additionalContextLimit")
	if !ok {
		return hd, false
	}

	if strings.TrimSpace(cf.Val.Str) == "" {
		r.W.Warn(r.S, cf.Val.Index, cf.Path(), "skipping empty hook command in %s", r.W.Name)
		return hd, false
	}
	hd.Command = cf.Val.Str
	switch {
	case cwSet && cw2Set:
		r.W.Warn(r.S, cw2f.Val.Index, cw2f.Path(), "ignoring command_windows in %s: commandWindows is also set", r.W.Name)
	case cw2Set:
		cwf, cw, cwSet = cw2f, cw2, true
	}
	if cwSet {
		// An empty Windows command would run nothing on Windows; fall back to
		// command there rather than skip a hook that works elsewhere.
		if strings.TrimSpace(cw) == "" {
			r.W.Warn(r.S, cwf.Val.Index, cwf.Path(), "ignoring empty %s in %s", cwf.Key.Str, r.W.Name)
		} else {
			hd.CommandWindows = cw
		}
	}
	if statusSet {
		hd.StatusMessage = &status
	}
	hd.Timeout = r.Timeout(ev, tof, to, toSet)
	hd.AsyncConfigured = async
	hd.Async = async
	if async && ev.ForceSync {
		r.W.Warn(r.S, af.Val.Index, af.Path(), "running async %s hook synchronously in %s", ev.Name, r.W.Name)
		hd.Async = false
	}
	if limitSet {
		if ev.ContextLimit {
			hd.AdditionalContextLimit = &limit
		} else {
			r.W.Warn(r.S, lf.Val.Index, lf.Path(), "ignoring additionalContextLimit for %s hook in %s", ev.Name, r.W.Name)
		}
	}
	return hd, true
}

func (r HandlerReader) mcpTool(ev *EventRules, h gjson.Result, path string) (Handler, bool) {
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
	if f, present := r.FS.Get("input"); present && f.Val.Type != gjson.Null {
		if !f.Val.IsObject() {
			r.BadType(f, "an object")
			return hd, false
		}
		// The input is a template, hashed as written; a null has no TOML form,
		// so Codex cannot hash it and rejects it.
		if cfgContainsNull(f.Val) {
			r.W.Warn(r.S, f.Val.Index, f.Path(), "skipping MCP tool hook in %s: field %q must not contain null", r.W.Name, "input")
			return hd, false
		}
		input = json.RawMessage(f.Val.Raw)
	}
	tof, to, toSet, ok := r.OptCount("timeout")
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
		f    Field
		name string
		v    string
	}{{sf, "server", server}, {tf, "tool", tool}} {
		if strings.TrimSpace(req.v) == "" {
			at, atPath := h.Index, path
			if req.f.Val.Exists() {
				at, atPath = req.f.Val.Index, req.f.Path()
			}
			r.W.Warn(r.S, at, atPath, "skipping MCP tool hook in %s: field %q must be a non-empty string", r.W.Name, req.name)
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
	hd.Timeout = r.Timeout(ev, tof, to, toSet)
	hd.AsyncConfigured = async
	if async {
		r.W.Warn(r.S, af.Val.Index, af.Path(), "running async MCP tool hook synchronously in %s: MCP tool hooks cannot be async", r.W.Name)
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

// TOMLToJSON encodes a value decoded by go-toml as JSON for the walker. Floats
// are kept visibly floats ("30.0"), because a float timeout must be refused as
// Codex's serde refuses it, and a plain float64 would encode as "30". Dates
// become their TOML text; the walker then reports them as wrongly typed.
func TOMLToJSON(v any) ([]byte, error) {
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
