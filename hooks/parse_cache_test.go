package hooks

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/plugins"
)

// fullHook has every field the parse cache carries set, each to something
// other than its zero value and the parse's defaults, and the rest as a
// parse of testPlugin's hooks file sets them.
func fullHook(t *testing.T) (*Hook, []Warning) {
	t.Helper()
	p := codexProfile()
	m, err := CodexMatcher("Edit|Wri.*")
	if err != nil {
		t.Fatal(err)
	}
	pl := testPlugin()
	msg, limit, group, handler := "checking", 300, 1, 2
	h := &Hook{Key: "p@m:hooks/hooks.json:pre_tool_use:1:2", Event: "PreToolUse", Matcher: "Edit|Wri.*", HasMatcher: true, matcher: m,
		Source: pluginSource(pl, pl.Sources[0]),
		Handler: Handler{Type: TypeCommand, Command: "a.sh", CommandWindows: "a.cmd", WrittenCommand: "a", Timeout: 7, TimeoutMs: 6500,
			Async: true, AsyncConfigured: true, StatusMessage: &msg, AdditionalContextLimit: &limit, FailClosed: true, Rewake: true,
			Server: "s", Tool: "t", Input: json.RawMessage(`{"a":1}`), Config: json.RawMessage(`{"b":2}`)},
		Env: pl.Env(), Trust: TrustUntrusted, Enabled: true, Sequential: true}
	h.setHash(p.Event("PreToolUse").Label)
	warns := []Warning{{Source: "/p/hooks/hooks.json", Message: "ignoring unknown field", Event: "Stop", Group: &group, Handler: &handler}, {Message: "no place"}}
	return h, warns
}

// testPlugin is a plugin outside the install cache with one hooks file.
func testPlugin() *plugins.Plugin {
	return &plugins.Plugin{Name: "p", Marketplace: "m", Root: "/p", RealRoot: "/real/p", DataDir: "/data/p-m",
		Sources: []plugins.Source{{Key: "p@m:hooks/hooks.json", Path: "/p/hooks/hooks.json", File: []byte(`{}`)}}}
}

// The parse cache gives back a hook and warnings with every field as they
// were; a field added to a hook, handler, source or warning fails here
// until the cache's layout carries it or makes it anew.
func TestParseCache_CarriesEveryField(t *testing.T) {
	carried := map[reflect.Type][]string{
		reflect.TypeFor[Hook](): {"Key", "Event", "Matcher", "HasMatcher", "matcher", "Source", "Handler", "Order", "Env", "hash",
			"Trust", "Enabled", "TrustedHash", "Policy", "Scope", "Sequential"},
		reflect.TypeFor[Handler](): {"Type", "Command", "CommandWindows", "WrittenCommand", "Timeout", "TimeoutMs", "Async",
			"AsyncConfigured", "StatusMessage", "AdditionalContextLimit", "FailClosed", "Rewake", "Server", "Tool", "Input", "Config"},
		reflect.TypeFor[Source]():  {"Layer", "Path", "Plugin", "pluginRoot"},
		reflect.TypeFor[Warning](): {"Source", "Message", "Event", "Group", "Handler"},
	}
	for typ, want := range carried {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s has fields %v; the parse cache carries %v", typ, got, want)
		}
	}

	p := codexProfile()
	h, warns := fullHook(t)
	data, ok := encodeParse(p, testPlugin(), []*Hook{h}, warns)
	if !ok {
		t.Fatal("not encoded")
	}
	back, backWarns, ok := decodeParse(p, testPlugin(), data)
	if !ok {
		t.Fatal("not decoded")
	}
	if !sameParse([]*Hook{h}, warns, back, backWarns) {
		t.Errorf("given back differently:\n got %+v\nwant %+v", *back[0], *h)
	}
	if back[0].Hash() != h.Hash() {
		t.Errorf("hash %s, want %s", back[0].Hash(), h.Hash())
	}
}

// sameParse notices a difference in any one field of a hook, of its
// handler and source, or of a warning.
func TestParseCache_SameParseNoticesEachField(t *testing.T) {
	h, warns := fullHook(t)
	base := func() (*Hook, []Warning) {
		c := *h
		return &c, slices.Clone(warns)
	}
	if a, aw := base(); !sameParse([]*Hook{h}, warns, []*Hook{a}, aw) {
		t.Fatal("a copy differs")
	}
	// change gives v, a field, another value.
	change := func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int:
			v.SetInt(v.Int() + 1)
		case reflect.Pointer:
			n := reflect.New(v.Type().Elem())
			v.Set(n)
		case reflect.Slice:
			v.Set(reflect.AppendSlice(reflect.Zero(v.Type()), reflect.ValueOf([]byte(`{"c":3}`)).Convert(v.Type())))
		case reflect.Map:
			v.Set(reflect.ValueOf(map[string]string{"X": "y"}))
		case reflect.Interface:
			m, _ := CodexMatcher("Bash")
			v.Set(reflect.ValueOf(m))
		default:
			t.Fatalf("no change for a %s", v.Kind())
		}
	}
	for _, typ := range []string{"hook", "handler", "source", "warning"} {
		a, _ := base()
		var target reflect.Value
		switch typ {
		case "hook":
			target = reflect.ValueOf(a).Elem()
		case "handler":
			target = reflect.ValueOf(&a.Handler).Elem()
		case "source":
			target = reflect.ValueOf(&a.Source).Elem()
		case "warning":
			target = reflect.ValueOf(&Warning{}).Elem()
		}
		for i := range target.NumField() {
			name := target.Type().Field(i).Name
			if typ == "hook" && (name == "Handler" || name == "Source" || name == "Scope") {
				continue
			}
			a, aw := base()
			var v reflect.Value
			switch typ {
			case "hook":
				v = reflect.ValueOf(a).Elem().Field(i)
			case "handler":
				v = reflect.ValueOf(&a.Handler).Elem().Field(i)
			case "source":
				v = reflect.ValueOf(&a.Source).Elem().Field(i)
			case "warning":
				v = reflect.ValueOf(&aw[0]).Elem().Field(i)
			}
			if name == "hash" {
				a.setHash("other")
			} else {
				change(reflect.NewAt(v.Type(), v.Addr().UnsafePointer()).Elem())
			}
			if sameParse([]*Hook{h}, warns, []*Hook{a}, aw) {
				t.Errorf("a change of the %s's %s went unnoticed", typ, name)
			}
		}
	}
}

// What the layout cannot hold whole is not kept: a scoped hook, and a
// Claude Code hook whose "if" makes its matcher more than its text.
// Bytes cut short, left over, for another profile or naming an event the
// profile does not have are refused, and no damage makes decoding panic.
func TestParseCache_KeepsOnlyWhatComesBackWhole(t *testing.T) {
	codex := codexProfile()
	claude, ok := LookupProfile("claude")
	if !ok {
		t.Fatal("claude profile not registered")
	}
	h, warns := fullHook(t)
	scoped := *h
	scoped.Scope = &Scope{Kind: ScopeSkill, Name: "s"}
	if data, ok := encodeParse(codex, testPlugin(), []*Hook{&scoped}, nil); ok {
		if back, _, ok := decodeParse(codex, testPlugin(), data); ok && sameParse([]*Hook{&scoped}, nil, back, nil) {
			t.Error("a scoped hook came back whole")
		}
	}
	plugin := func(doc string) *plugins.Plugin {
		pl := testPlugin()
		pl.Sources = []plugins.Source{{Key: "p@m:hooks/hooks.json", Path: "/p/hooks/hooks.json", File: []byte(doc)}}
		return pl
	}
	ifDoc := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "if": "Bash(git *)"}]}]}}`
	if data := keepParse(claude, plugin(ifDoc)); data != nil {
		t.Error(`a Claude Code hook with "if" was kept`)
	}
	for _, p := range []*Profile{codex, claude} {
		if data := keepParse(p, plugin(fullPluginHooks)); data == nil {
			t.Errorf("%s: a plugin without an if was not kept", p.Name)
		}
	}

	data, ok := encodeParse(codex, testPlugin(), []*Hook{h}, warns)
	if !ok {
		t.Fatal("not encoded")
	}
	for n := range len(data) {
		if _, _, ok := decodeParse(codex, testPlugin(), data[:n]); ok {
			t.Errorf("cut to %d of %d bytes: decoded", n, len(data))
		}
	}
	if _, _, ok := decodeParse(codex, testPlugin(), append(slices.Clip(data), 0)); ok {
		t.Error("a byte left over: decoded")
	}
	if _, _, ok := decodeParse(claude, testPlugin(), data); ok {
		t.Error("codex's parse decoded for claude")
	}
	other := *h
	other.Event = "NoSuchEvent"
	takenBackNot(t, codex, &other, "a hook of an event codex does not have")
	for i := range data {
		for _, b := range []byte{0x00, 0x7f, 0x80, 0xff} {
			damaged := slices.Clone(data)
			damaged[i] = b
			decodeParse(codex, testPlugin(), damaged)
		}
	}
	if !strings.HasPrefix(string(data[1:]), parseLayout) {
		t.Errorf("the bytes do not begin with the layout's name: %q", data[:20])
	}
}

// Nothing that decides a hook's trust comes from the kept bytes: a hook
// taken back has its source from the plugin as the load found it (its
// resolved folder, which the hash covers, included) and the trust,
// enablement and policy of a hook just parsed, whatever the hook that was
// written out had; a hook whose source is none of the plugin's is not
// written, and bytes whose key is not of its source are refused.
func TestParseCache_TakesNoTrustFromTheBytes(t *testing.T) {
	p := codexProfile()
	h, _ := fullHook(t)
	decided := *h
	decided.Trust, decided.Enabled, decided.Policy, decided.TrustedHash, decided.Order = TrustTrusted, false, PolicyManagedOnly, "sha256:00", 4
	data, ok := encodeParse(p, testPlugin(), []*Hook{&decided}, nil)
	if !ok {
		t.Fatal("not encoded")
	}
	moved := testPlugin()
	moved.RealRoot = "/elsewhere/p"
	back, _, ok := decodeParse(p, moved, data)
	if !ok {
		t.Fatal("not decoded")
	}
	got := back[0]
	if got.Trust != TrustUntrusted || !got.Enabled || got.Policy != "" || got.TrustedHash != "" || got.Order != 0 {
		t.Errorf("trust %q, enabled %v, policy %q, trusted hash %q, order %d: taken from the bytes", got.Trust, got.Enabled, got.Policy, got.TrustedHash, got.Order)
	}
	if got.Source != pluginSource(moved, moved.Sources[0]) || got.Source.pluginRoot != "/elsewhere/p" {
		t.Errorf("source %+v, want the moved plugin's", got.Source)
	}
	if got.Hash() == h.Hash() {
		t.Error("the moved plugin's hook has the hash of the hook in its old folder")
	}

	managed := *h
	managed.Source.Layer = LayerManaged
	if _, ok := encodeParse(p, testPlugin(), []*Hook{&managed}, nil); ok {
		t.Error("a hook of the managed layer was written out as the plugin's")
	}
	foreign := *h
	foreign.Key = "q@m:hooks/hooks.json:pre_tool_use:0:0"
	takenBackNot(t, p, &foreign, "a key of another plugin's file")
}

// takenBackNot fails unless h, written out for testPlugin under p, is
// refused when taken back.
func takenBackNot(t *testing.T, p *Profile, h *Hook, what string) {
	t.Helper()
	data, ok := encodeParse(p, testPlugin(), []*Hook{h}, nil)
	if !ok {
		t.Fatalf("%s: not written out", what)
	}
	if _, _, ok := decodeParse(p, testPlugin(), data); ok {
		t.Errorf("%s: taken back", what)
	}
}

// keepParse runs where no one recovers a panic (the cache's write): a
// parse that panics keeps nothing and the process goes on.
func TestParseCache_APanicKeepsNothing(t *testing.T) {
	p := *codexProfile()
	p.ReadHandler = func(*EventRules, gjson.Result, *Hook) (string, bool) { panic("boom") }
	pl := testPlugin()
	pl.Sources[0].File = []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`)
	if data := keepParse(&p, pl); data != nil {
		t.Errorf("kept %q", data)
	}
}
