package hooks

import (
	"strings"
	"sync"
	"testing"
)

// hashOne parses a hooks.json document that must hold exactly one hook and
// returns it.
func hashOneJSON(t *testing.T, doc string) *Hook {
	t.Helper()
	hooks, warns := ParseHooksJSON(codexProfile(), []byte(doc), Source{Layer: LayerUser, Path: "/tmp/hooks.json"}, "/tmp/hooks.json")
	if len(hooks) != 1 {
		t.Fatalf("want one hook, got %d; warnings %q", len(hooks), cfgMessages(warns))
	}
	return hooks[0]
}

func hashOneTOML(t *testing.T, doc string) *Hook {
	t.Helper()
	hooks, warns := ParseHooksTOML(codexProfile(), []byte(doc), Source{Layer: LayerUser, Path: "/tmp/config.toml"}, "/tmp/config.toml")
	if len(hooks) != 1 {
		t.Fatalf("want one hook, got %d; warnings %q", len(hooks), cfgMessages(warns))
	}
	return hooks[0]
}

// The four vectors of reference/codex-hooks.md 2.3: canonical text and hash.
func TestHash_CodexVectors(t *testing.T) {
	cases := []struct {
		name, doc, identity, hash string
	}{
		{"PreToolUse command, default timeout",
			`{"hooks":{"PreToolUse":[{"matcher":"^Bash$","hooks":[{"type":"command","command":"echo hello"}]}]}}`,
			`{"event_name":"pre_tool_use","hooks":[{"async":false,"command":"echo hello","timeout":600,"type":"command"}],"matcher":"^Bash$"}`,
			"sha256:63b52e87a8a4caef01cc989b31ad95ce5f4d3470c9a00e8407847e469cd1b31f"},
		{"Stop drops its matcher; async and statusMessage are hashed",
			`{"hooks":{"Stop":[{"matcher":"ignored","hooks":[{"type":"command","command":"python3 /tmp/stop.py","timeout":30,"async":true,"statusMessage":"checking"}]}]}}`,
			`{"event_name":"stop","hooks":[{"async":true,"command":"python3 /tmp/stop.py","statusMessage":"checking","timeout":30,"type":"command"}]}`,
			"sha256:1f876fea52617f6afa21ce5188d12b25c45db3ed5cef10d38a386ba73181e816"},
		{"PostToolUse mcp_tool with a template input",
			`{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"mcp_tool","server":"security","tool":"scan","input":{"file_path":"${tool_input.file_path}"},"timeout":30,"statusMessage":"Scanning file"}]}]}}`,
			`{"event_name":"post_tool_use","hooks":[{"input":{"file_path":"${tool_input.file_path}"},"server":"security","statusMessage":"Scanning file","timeout":30,"tool":"scan","type":"mcp_tool"}],"matcher":"Write|Edit"}`,
			"sha256:1980380c35e406a0b2e7cd83d4faaf3c1e4fe13d480a1e584f08e813ad6840e7"},
		{"SessionEnd timeout defaults to 1",
			`{"hooks":{"SessionEnd":[{"matcher":"other","hooks":[{"type":"command","command":"echo bye"}]}]}}`,
			`{"event_name":"session_end","hooks":[{"async":false,"command":"echo bye","timeout":1,"type":"command"}],"matcher":"other"}`,
			"sha256:69653bf84e6b126ac3cc0cd48060fcef62945e3384621edbf9436279d7185a8b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := hashOneJSON(t, tc.doc)
			label := codexProfile().Event(h.Event).Label
			if got := string(hookIdentity(label, h, false)); got != tc.identity {
				t.Errorf("identity\n got %s\nwant %s", got, tc.identity)
			}
			if h.Hash() != tc.hash {
				t.Errorf("hash = %s, want %s", h.Hash(), tc.hash)
			}
		})
	}
}

func TestHash_SameHookFromJSONAndTOMLHashesTheSame(t *testing.T) {
	cases := []struct{ name, json, toml string }{
		{"command with every field",
			`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./guard.sh \"$x\" <&>","timeout":9,"async":false,"statusMessage":"Guarding","additionalContextLimit":100}]}]}}`,
			"[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = './guard.sh \"$x\" <&>'\ntimeout = 9\nstatusMessage = \"Guarding\"\nadditionalContextLimit = 100\n"},
		{"mcp_tool input with nested values, integers and floats, keys in another order",
			`{"hooks":{"PostToolUse":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"z":[1,2.5,{"b":true,"a":"x"}],"n":1.0,"big":1e20,"small":0.000001,"i":-7}}]}]}}`,
			"[[hooks.PostToolUse]]\n[[hooks.PostToolUse.hooks]]\ntype = \"mcp_tool\"\nserver = \"s\"\ntool = \"t\"\ninput = { i = -7, small = 1e-6, big = 1e20, n = 1.0, z = [1, 2.5, { a = \"x\", b = true }] }\n"},
		{"line separators and HTML characters stay raw",
			`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo '\u2028<b>\u2029'"}]}]}}`,
			"[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo '\u2028<b>\u2029'\"\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, tm := hashOneJSON(t, tc.json), hashOneTOML(t, tc.toml)
			if j.Hash() != tm.Hash() {
				label := codexProfile().Event(j.Event).Label
				t.Errorf("JSON and TOML hash differently:\n json %s\n toml %s", hookIdentity(label, j, false), hookIdentity(label, tm, false))
			}
		})
	}
}

func TestHash_ExplicitDefaultContextLimitHashesAsUnset(t *testing.T) {
	doc := func(limit string) string {
		return `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo hi"` + limit + `}]}]}}`
	}
	unset := hashOneJSON(t, doc("")).Hash()
	if got := hashOneJSON(t, doc(`,"additionalContextLimit":2500`)).Hash(); got != unset {
		t.Errorf("limit 2500 hashes %s, unset %s: want the same", got, unset)
	}
	for _, l := range []string{"0", "20000"} {
		if got := hashOneJSON(t, doc(`,"additionalContextLimit":`+l)).Hash(); got == unset {
			t.Errorf("limit %s hashes like unset", l)
		}
	}
}

func TestHash_CanonicalTextFollowsSerdeJSON(t *testing.T) {
	h := hashOneJSON(t, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a\u2028b\\u2029c</x>&\t\u0001\u007f/é"}]}]}}`)
	got := string(hookIdentity("stop", h, false))
	// Raw U+2028, an escaped backslash before the text u2029 kept as is, no
	// HTML escapes, short \t, lower-case \u0001, DEL and '/' unescaped.
	want := "{\"event_name\":\"stop\",\"hooks\":[{\"async\":false,\"command\":\"a\u2028b\\\\u2029c</x>&\\t\\u0001\u007f/é\",\"timeout\":600,\"type\":\"command\"}]}"
	if got != want {
		t.Errorf("identity\n got %s\nwant %s", got, want)
	}
}

func TestHash_FloatsPrintAsRyu(t *testing.T) {
	cases := map[float64]string{
		1: "1.0", 0: "0.0", -2.5: "-2.5", 0.1: "0.1", 100: "100.0", 1e15: "1000000000000000.0",
		1e16: "1e16", 1.5e17: "1.5e17", 1e-5: "0.00001", 1.5e-7: "1.5e-7", 123456.789: "123456.789",
		-1e-10: "-1e-10", 5e-324: "5e-324", 1.7976931348623157e308: "1.7976931348623157e308",
	}
	for f, want := range cases {
		if got := ryuFloat(f); got != want {
			t.Errorf("ryuFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestHash_WindowsCommandIsHashedOnWindows(t *testing.T) {
	h := hashOneJSON(t, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"./stop.sh","commandWindows":"stop.cmd"}]}]}}`)
	if id := string(hookIdentity("stop", h, true)); !strings.Contains(id, `"command":"stop.cmd"`) || strings.Contains(id, "commandWindows") {
		t.Errorf("windows identity %s", id)
	}
	if id := string(hookIdentity("stop", h, false)); !strings.Contains(id, `"command":"./stop.sh"`) {
		t.Errorf("posix identity %s", id)
	}
}

func TestHash_OtherHandlersOfTheGroupAreNotHashed(t *testing.T) {
	one := hashOneJSON(t, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"}]}]}}`)
	hooks, _ := ParseHooksJSON(codexProfile(), []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"},{"type":"command","command":"b"}]}]}}`),
		Source{Layer: LayerUser, Path: "/tmp/hooks.json"}, "/tmp/hooks.json")
	if hooks[0].Hash() != one.Hash() || hooks[1].Hash() == one.Hash() {
		t.Errorf("hashes %s %s, alone %s", hooks[0].Hash(), hooks[1].Hash(), one.Hash())
	}
}

// BenchmarkHash is the cost discovery pays per hook for its trust hash.
func BenchmarkHash(b *testing.B) {
	hooks, _ := ParseHooksJSON(codexProfile(), []byte(`{"hooks":{"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"mcp_tool","server":"security","tool":"scan","input":{"file_path":"${tool_input.file_path}","n":1.5},"timeout":30,"statusMessage":"Scanning file"}]}]}}`),
		Source{Layer: LayerUser, Path: "/tmp/hooks.json"}, "/tmp/hooks.json")
	r := hashedOf(hooks[0])
	for b.Loop() {
		identityHash("post_tool_use", &r)
	}
}

// A hook's hash is computed when first asked for, but of the hook as it was
// read: a profile that rewrites the command afterwards (qwen's extension
// root) keeps the hash it had, and callers asking at once get one value.
func TestHash_IsOfTheHookAsReadWheneverAsked(t *testing.T) {
	doc := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"${CLAUDE_PLUGIN_ROOT}/x.sh"}]}]}}`
	want := hashOneJSON(t, doc).Hash()
	h := hashOneJSON(t, doc)
	h.Handler.Command = "/ext/x.sh"
	h.Matcher, h.HasMatcher = "Bash", true
	got := make([]string, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = h.Hash() })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("caller %d: hash %s, want %s (the hook as read)", i, g, want)
		}
	}
	if (&Hook{}).Hash() != "" {
		t.Error("a hook never hashed has a hash")
	}
}

// hookIdentity is the identity hashed for h as it is now.
func hookIdentity(label string, h *Hook, windows bool) []byte {
	r := hashedOf(h)
	return identity(label, &r, windows)
}
