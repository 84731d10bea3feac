package hooks

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hookd/hookd/internal/bincode"
	"github.com/hookd/hookd/plugins"
)

// The plugin load cache (package plugins) keeps, with each plugin folder it
// can vouch for, what parsing that plugin's hooks gave: its hooks and
// warnings, written out by encodeParse. A later load that finds the folder
// as it was takes them back (decodeParse) instead of parsing the same bytes
// again.
//
// Nothing that decides trust comes from the kept bytes. A hook taken back
// gets its source (layer, file, plugin, and the plugin's resolved folder,
// which its hash covers) from the plugin as this load found it, the trust,
// enablement and policy of a hook just parsed (which the load then decides
// as for any hook), its matcher compiled from its text, and its hash made
// from its fields; the bytes carry only what the files said: the key,
// event, matcher text and handler.
//
// What is kept is made off the load's way (keepParse, on the cache's
// write) from a parse of its own, and kept only when taking it back gives
// that parse exactly (sameParse): a hook this layout cannot hold whole,
// such as one whose matcher a profile built from more than its text
// (Claude Code's "if"), leaves its plugin to be parsed at every load.

// parseLayout names the layout; the profile's name follows it.
const parseLayout = "hooks parse 2"

// parsesTaken counts the plugins whose parse was taken from the cache.
var parsesTaken atomic.Int64

// keepParse is what the cache keeps of pl's parse under profile p, or nil
// when taking it back would not give the same hooks and warnings. It runs
// on the cache's write, where nothing would recover a panic: one keeps
// nothing rather than ending the process.
func keepParse(p *Profile, pl *plugins.Plugin) (kept []byte) {
	defer func() {
		if recover() != nil {
			kept = nil
		}
	}()
	hooks, warns := parsePluginFiles(p, pl)
	data, ok := encodeParse(p, pl, hooks, warns)
	if !ok {
		return nil
	}
	back, backWarns, ok := decodeParse(p, pl, data)
	if !ok || !sameParse(hooks, warns, back, backWarns) {
		return nil
	}
	return data
}

// encodeParse writes out the hooks and warnings of pl's parse; ok is false
// when a hook's source is none of pl's.
func encodeParse(p *Profile, pl *plugins.Plugin, hooks []*Hook, warns []Warning) ([]byte, bool) {
	w := &bincode.Writer{}
	w.Str(parseLayout)
	w.Str(p.Name)
	w.Num(uint64(len(hooks)))
	for _, h := range hooks {
		src := slices.IndexFunc(pl.Sources, func(s plugins.Source) bool { return pluginSource(pl, s) == h.Source })
		if src < 0 {
			return nil, false
		}
		w.Num(uint64(src))
		for _, s := range []string{h.Key, h.Event, h.Matcher} {
			w.Str(s)
		}
		for _, f := range []bool{h.HasMatcher, h.Sequential, h.Env != nil, h.hash != nil} {
			w.Flag(f)
		}
		if h.hash != nil {
			w.Str(h.hash.label)
		}
		encodeHandler(w, &h.Handler)
	}
	w.Num(uint64(len(warns)))
	for _, x := range warns {
		for _, s := range []string{x.Source, x.Message, x.Event} {
			w.Str(s)
		}
		optInt(w, x.Group)
		optInt(w, x.Handler)
	}
	return w.B, true
}

func encodeHandler(w *bincode.Writer, hd *Handler) {
	for _, s := range []string{hd.Type, hd.Command, hd.CommandWindows, hd.WrittenCommand, hd.Server, hd.Tool} {
		w.Str(s)
	}
	w.Int(int64(hd.Timeout))
	w.Int(int64(hd.TimeoutMs))
	for _, f := range []bool{hd.Async, hd.AsyncConfigured, hd.FailClosed, hd.Rewake} {
		w.Flag(f)
	}
	w.Flag(hd.StatusMessage != nil)
	if hd.StatusMessage != nil {
		w.Str(*hd.StatusMessage)
	}
	optInt(w, hd.AdditionalContextLimit)
	for _, raw := range []json.RawMessage{hd.Input, hd.Config} {
		w.Flag(raw != nil)
		w.Bytes(raw)
	}
}

func optInt(w *bincode.Writer, n *int) {
	w.Flag(n != nil)
	if n != nil {
		w.Int(int64(*n))
	}
}

// decodeParse takes back what encodeParse wrote of pl's parse under
// profile p; ok is false for anything else (another layout or profile,
// bytes cut short or left over, a source pl does not have, a key not of
// its source, an event or matcher the profile does not take).
func decodeParse(p *Profile, pl *plugins.Plugin, data []byte) (hooks []*Hook, warns []Warning, ok bool) {
	r := &bincode.Reader{B: data}
	if r.Str() != parseLayout || r.Str() != p.Name {
		return nil, nil, false
	}
	n := r.Count(16)
	if n > 0 {
		hooks = make([]*Hook, 0, n)
	}
	var env map[string]string
	var last *Hook
	for range n {
		src := r.Num()
		h := &Hook{Key: r.Str(), Event: r.Str(), Matcher: r.Str(), Trust: TrustUntrusted, Enabled: true}
		h.HasMatcher, h.Sequential = r.Flag(), r.Flag()
		hasEnv, hashed := r.Flag(), r.Flag()
		label := ""
		if hashed {
			label = r.Str()
		}
		decodeHandler(r, &h.Handler)
		ev := p.Event(h.Event)
		if r.Bad || ev == nil || src >= uint64(len(pl.Sources)) {
			return nil, nil, false
		}
		s := pl.Sources[src]
		if rest, ok := strings.CutPrefix(h.Key, s.Key); !ok || !strings.HasPrefix(rest, ":") {
			return nil, nil, false
		}
		h.Source = pluginSource(pl, s)
		h.matcher = MatchAll
		if h.HasMatcher {
			// The hooks of one group follow each other and share its
			// matcher, as parsed hooks do.
			if last == nil || last.Event != h.Event || !last.HasMatcher || last.Matcher != h.Matcher {
				m, err := compileMatcher(p, ev, h.Matcher)
				if err != nil {
					return nil, nil, false
				}
				h.matcher = m
			} else {
				h.matcher = last.matcher
			}
		}
		if hasEnv {
			if env == nil {
				env = pl.Env()
			}
			h.Env = env
		}
		if hashed {
			h.setHash(label)
		}
		hooks = append(hooks, h)
		last = h
	}
	for range r.Count(4) {
		x := Warning{Source: r.Str(), Message: r.Str(), Event: r.Str()}
		x.Group, x.Handler = readOptInt(r), readOptInt(r)
		warns = append(warns, x)
	}
	if r.Bad || len(r.B) != 0 {
		return nil, nil, false
	}
	return hooks, warns, true
}

func decodeHandler(r *bincode.Reader, hd *Handler) {
	hd.Type, hd.Command, hd.CommandWindows, hd.WrittenCommand, hd.Server, hd.Tool = r.Str(), r.Str(), r.Str(), r.Str(), r.Str(), r.Str()
	hd.Timeout, hd.TimeoutMs = int(r.Int()), int(r.Int())
	hd.Async, hd.AsyncConfigured, hd.FailClosed, hd.Rewake = r.Flag(), r.Flag(), r.Flag(), r.Flag()
	if r.Flag() {
		msg := r.Str()
		hd.StatusMessage = &msg
	}
	hd.AdditionalContextLimit = readOptInt(r)
	if set, raw := r.Flag(), r.Raw(); set {
		hd.Input = json.RawMessage(raw)
	}
	if set, raw := r.Flag(), r.Raw(); set {
		hd.Config = json.RawMessage(raw)
	}
}

func readOptInt(r *bincode.Reader) *int {
	if !r.Flag() {
		return nil
	}
	n := int(r.Int())
	return &n
}

// sameParse reports whether two parses gave the same hooks, field by field
// (each hook's hash by what it is made of), and the same warnings.
func sameParse(a []*Hook, aw []Warning, b []*Hook, bw []Warning) bool {
	// Warnings by value; no warnings and an empty list are the same.
	if len(a) != len(b) || len(aw) != len(bw) || len(aw) > 0 && !reflect.DeepEqual(aw, bw) {
		return false
	}
	for i := range a {
		x, y := *a[i], *b[i]
		if (x.hash == nil) != (y.hash == nil) {
			return false
		}
		if x.hash != nil && (x.hash.label != y.hash.label || !reflect.DeepEqual(x.hash.read, y.hash.read)) {
			return false
		}
		x.hash, y.hash = nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
