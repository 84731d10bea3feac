package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const cfgTestPath = "/cfg/hooks.json"

var cfgTestSrc = Source{Layer: LayerUser, Path: cfgTestPath}

func cfgParseJSON(t *testing.T, doc string) ([]*Hook, []Warning) {
	t.Helper()
	return ParseHooksJSON(codexProfile(), []byte(doc), cfgTestSrc, cfgTestPath)
}

// cfgOne parses a document that must yield exactly one hook.
func cfgOne(t *testing.T, doc string) (*Hook, []Warning) {
	t.Helper()
	hooks, warns := cfgParseJSON(t, doc)
	if len(hooks) != 1 {
		t.Fatalf("got %d hooks, want 1; warnings: %v", len(hooks), cfgMessages(warns))
	}
	return hooks[0], warns
}

func cfgMessages(warns []Warning) []string {
	out := make([]string, len(warns))
	for i, w := range warns {
		out[i] = w.Message
	}
	return out
}

func cfgKeys(hooks []*Hook) []string {
	out := make([]string, len(hooks))
	for i, h := range hooks {
		out[i] = h.Key
	}
	return out
}

// cfgWantWarnings checks the warnings, in order, by substring.
func cfgWantWarnings(t *testing.T, warns []Warning, subs ...string) {
	t.Helper()
	if len(warns) != len(subs) {
		t.Fatalf("got %d warnings %q, want %d containing %q", len(warns), cfgMessages(warns), len(subs), subs)
	}
	for i, s := range subs {
		if !strings.Contains(warns[i].Message, s) {
			t.Errorf("warning %d = %q, want it to contain %q", i, warns[i].Message, s)
		}
	}
}

func cfgReadTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "discovery", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParse_CommandHandlerGetsDefaultsAndIdentity(t *testing.T) {
	h, warns := cfgOne(t, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}}`)
	cfgWantWarnings(t, warns)
	want := Handler{Type: TypeCommand, Command: "echo hi", Timeout: 600}
	if !reflect.DeepEqual(h.Handler, want) {
		t.Errorf("handler = %+v, want %+v", h.Handler, want)
	}
	if h.Key != "/cfg/hooks.json:pre_tool_use:0:0" || h.Event != "PreToolUse" || h.Source != cfgTestSrc {
		t.Errorf("key/event/source = %q %q %+v", h.Key, h.Event, h.Source)
	}
	if !h.Enabled || h.Trust != TrustUntrusted || len(h.Hash()) != len("sha256:")+64 || h.Order != 0 {
		t.Errorf("enabled/trust/hash/order = %v %q %q %d", h.Enabled, h.Trust, h.Hash(), h.Order)
	}
	if !h.HasMatcher || h.Matcher != "Bash" {
		t.Errorf("matcher = %q (has %v)", h.Matcher, h.HasMatcher)
	}
	if !h.matcher.Match([]string{"Bash"}) || h.matcher.Match([]string{"BashOutput"}) {
		t.Error("compiled matcher does not behave as the exact set {Bash}")
	}
}

func TestParse_ManagedSourceIsTrustedAsManaged(t *testing.T) {
	src := Source{Layer: LayerManaged, Path: "/etc/codex/requirements.toml"}
	hooks, _ := ParseHooksJSON(codexProfile(), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`), src, src.Path)
	if len(hooks) != 1 || hooks[0].Trust != TrustManaged || !hooks[0].Enabled {
		t.Fatalf("hooks = %+v", hooks)
	}
}

func TestParse_EventsInProfileOrderGroupsAndHandlersInFileOrder(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"hooks": {
		"Stop": [{"hooks": [{"type": "command", "command": "s"}]}],
		"PostToolUse": [{"hooks": [{"type": "command", "command": "p0"}]}, {"hooks": [{"type": "command", "command": "p1a"}, {"type": "command", "command": "p1b"}]}],
		"PreToolUse": [{"hooks": [{"type": "command", "command": "pre"}]}]
	}}`)
	cfgWantWarnings(t, warns)
	var got []string
	for _, h := range hooks {
		got = append(got, h.Handler.Command)
	}
	want := []string{"pre", "p0", "p1a", "p1b", "s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
}

func TestParse_KeyIndexesCountSkippedEntries(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": [
		{"matcher": "(", "hooks": [{"type": "command", "command": "lost"}]},
		{"hooks": [
			{"type": "prompt", "prompt": "p"},
			{"type": "command", "command": "  "},
			{"type": "command", "command": "kept"}
		]},
		"not a group",
		{"hooks": [{"type": "command", "command": "last"}]}
	]}}`)
	want := []string{"/cfg/hooks.json:pre_tool_use:1:2", "/cfg/hooks.json:pre_tool_use:3:0"}
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, want) {
		t.Errorf("keys = %q, want %q", got, want)
	}
	cfgWantWarnings(t, warns, `invalid matcher "("`, "skipping prompt hook", "skipping empty hook command", "skipping matcher group")
}

func TestParse_InvalidRegexSkipsOnlyItsGroup(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": [
		{"matcher": "[", "hooks": [{"type": "command", "command": "a"}]},
		{"matcher": "Edit", "hooks": [{"type": "command", "command": "b"}]}
	], "PostToolUse": [{"matcher": "[", "hooks": [{"type": "command", "command": "c"}]}]}}`)
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"/cfg/hooks.json:pre_tool_use:1:0"}) {
		t.Errorf("keys = %q", got)
	}
	cfgWantWarnings(t, warns, `invalid matcher "[" in /cfg/hooks.json: error parsing regexp`, `invalid matcher "["`)
	if strings.Count(warns[0].Message, "invalid matcher") != 1 {
		t.Errorf("the compiler's own prefix is repeated: %q", warns[0].Message)
	}
	if warns[0].Event != "PreToolUse" || warns[0].Group == nil || *warns[0].Group != 0 || warns[0].Handler != nil {
		t.Errorf("warning place = %q %v %v", warns[0].Event, warns[0].Group, warns[0].Handler)
	}
}

func TestParse_MatcherOfWrongTypeSkipsGroup(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": [{"matcher": 42, "hooks": [{"type": "command", "command": "a"}]}]}}`)
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, `invalid matcher "42" in /cfg/hooks.json: expected a string`)
}

func TestParse_MatcherFormsGiveEffectiveMatcher(t *testing.T) {
	for _, tc := range []struct {
		name, group string
		has         bool
		text        string
		matches     []string
		rejects     []string
	}{
		{"absent matches all", `{"hooks": [H]}`, false, "", []string{"Bash", "anything"}, nil},
		{"null matches all", `{"matcher": null, "hooks": [H]}`, false, "", []string{"Bash"}, nil},
		{"empty string kept and matches all", `{"matcher": "", "hooks": [H]}`, true, "", []string{"Bash"}, nil},
		{"star kept and matches all", `{"matcher": "*", "hooks": [H]}`, true, "*", []string{"Bash"}, nil},
		{"exact set", `{"matcher": "Edit|Write", "hooks": [H]}`, true, "Edit|Write", []string{"Write"}, []string{"WriteFile"}},
		{"regex is unanchored", `{"matcher": "^Bash", "hooks": [H]}`, true, "^Bash", []string{"BashOutput"}, []string{"Edit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			group := strings.Replace(tc.group, "H", `{"type": "command", "command": "x"}`, 1)
			h, warns := cfgOne(t, `{"hooks": {"PreToolUse": [`+group+`]}}`)
			cfgWantWarnings(t, warns)
			if h.HasMatcher != tc.has || h.Matcher != tc.text {
				t.Errorf("matcher = %q (has %v), want %q (has %v)", h.Matcher, h.HasMatcher, tc.text, tc.has)
			}
			for _, n := range tc.matches {
				if !h.matcher.Match([]string{n}) {
					t.Errorf("does not match %q", n)
				}
			}
			for _, n := range tc.rejects {
				if h.matcher.Match([]string{n}) {
					t.Errorf("matches %q", n)
				}
			}
		})
	}
}

func TestParse_EventsWithoutTargetIgnoreMatcherWithoutValidating(t *testing.T) {
	for _, tc := range []struct{ event, matcher string }{
		{"UserPromptSubmit", `"["`},
		{"Stop", `"Bash"`},
		{"Stop", `7`},
	} {
		t.Run(tc.event+" "+tc.matcher, func(t *testing.T) {
			h, warns := cfgOne(t, `{"hooks": {"`+tc.event+`": [{"matcher": `+tc.matcher+`, "hooks": [{"type": "command", "command": "x"}]}]}}`)
			cfgWantWarnings(t, warns)
			if h.HasMatcher || h.Matcher != "" || h.matcher != MatchAll {
				t.Errorf("matcher = %q (has %v, %v), want dropped", h.Matcher, h.HasMatcher, h.matcher)
			}
		})
	}
}

func TestParse_UnsupportedHandlerTypeSkipsHandler(t *testing.T) {
	for _, tc := range []struct{ name, handler, warning string }{
		{"prompt", `{"type": "prompt", "prompt": "p"}`, "skipping prompt hook in /cfg/hooks.json: prompt hooks are not supported yet"},
		{"agent", `{"type": "agent"}`, "skipping agent hook in /cfg/hooks.json: agent hooks are not supported yet"},
		{"missing type", `{"command": "x"}`, `skipping hook handler in /cfg/hooks.json: missing field "type"`},
		{"unknown type", `{"type": "http", "url": "u"}`, `skipping hook handler in /cfg/hooks.json: unknown type "http"`},
		{"type not a string", `{"type": 1, "command": "x"}`, `field "type" must be a string`},
		{"handler not an object", `"echo hi"`, "skipping hook handler in /cfg/hooks.json: expected an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": [{"hooks": [`+tc.handler+`, {"type": "command", "command": "next"}]}]}}`)
			if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"/cfg/hooks.json:pre_tool_use:0:1"}) {
				t.Errorf("keys = %q", got)
			}
			cfgWantWarnings(t, warns, tc.warning)
		})
	}
}

func TestParse_EmptyCommandSkipsHandler(t *testing.T) {
	for _, tc := range []struct{ name, handler, warning string }{
		{"empty", `{"type": "command", "command": ""}`, "skipping empty hook command in /cfg/hooks.json"},
		{"whitespace", `{"type": "command", "command": " \t\n"}`, "skipping empty hook command in /cfg/hooks.json"},
		{"missing", `{"type": "command"}`, `skipping command hook in /cfg/hooks.json: missing field "command"`},
		{"null", `{"type": "command", "command": null}`, `missing field "command"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := cfgParseJSON(t, `{"hooks": {"Stop": [{"hooks": [`+tc.handler+`]}]}}`)
			if len(hooks) != 0 {
				t.Errorf("hooks = %q", cfgKeys(hooks))
			}
			cfgWantWarnings(t, warns, tc.warning)
		})
	}
}

func TestParse_WronglyTypedFieldSkipsHandler(t *testing.T) {
	for _, tc := range []struct{ name, handler, warning string }{
		{"command number", `{"type": "command", "command": 5}`, `field "command" must be a string`},
		{"timeout string", `{"type": "command", "command": "x", "timeout": "30"}`, `field "timeout" must be a non-negative integer`},
		{"timeout fraction", `{"type": "command", "command": "x", "timeout": 1.5}`, `field "timeout" must be a non-negative integer`},
		{"timeout float literal", `{"type": "command", "command": "x", "timeout": 30.0}`, `field "timeout" must be a non-negative integer`},
		{"timeout exponent", `{"type": "command", "command": "x", "timeout": 3e1}`, `field "timeout" must be a non-negative integer`},
		{"timeout negative", `{"type": "command", "command": "x", "timeout": -1}`, `field "timeout" must be a non-negative integer`},
		{"async string", `{"type": "command", "command": "x", "async": "yes"}`, `field "async" must be a boolean`},
		{"statusMessage number", `{"type": "command", "command": "x", "statusMessage": 1}`, `field "statusMessage" must be a string`},
		{"commandWindows bool", `{"type": "command", "command": "x", "commandWindows": true}`, `field "commandWindows" must be a string`},
		{"command_windows array", `{"type": "command", "command": "x", "command_windows": []}`, `field "command_windows" must be a string`},
		{"additionalContextLimit negative", `{"type": "command", "command": "x", "additionalContextLimit": -1}`, `field "additionalContextLimit" must be a non-negative integer`},
		{"mcp server number", `{"type": "mcp_tool", "server": 1, "tool": "t"}`, `skipping MCP tool hook in /cfg/hooks.json: field "server" must be a string`},
		{"mcp input array", `{"type": "mcp_tool", "server": "s", "tool": "t", "input": []}`, `field "input" must be an object`},
		{"mcp timeout string", `{"type": "mcp_tool", "server": "s", "tool": "t", "timeout": "1"}`, `field "timeout" must be a non-negative integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": [{"hooks": [`+tc.handler+`, {"type": "command", "command": "next"}]}]}}`)
			if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"/cfg/hooks.json:pre_tool_use:0:1"}) {
				t.Errorf("keys = %q", got)
			}
			cfgWantWarnings(t, warns, tc.warning)
		})
	}
}

func TestParse_NullOptionalFieldMeansUnset(t *testing.T) {
	h, warns := cfgOne(t, `{"hooks": {"PreToolUse": [{"matcher": null, "hooks": [{"type": "command", "command": "x",
		"timeout": null, "async": null, "statusMessage": null, "commandWindows": null, "additionalContextLimit": null}]}]}}`)
	cfgWantWarnings(t, warns)
	if want := (Handler{Type: TypeCommand, Command: "x", Timeout: 600}); !reflect.DeepEqual(h.Handler, want) {
		t.Errorf("handler = %+v, want %+v", h.Handler, want)
	}
}

func TestParse_TimeoutDefaultsFloorsAndClamps(t *testing.T) {
	for _, tc := range []struct {
		name, event, timeout string
		want                 int
		warnings             []string
	}{
		{"default", "PreToolUse", "", 600, nil},
		{"zero means one second", "PreToolUse", `, "timeout": 0`, 1, nil},
		{"kept", "PreToolUse", `, "timeout": 30`, 30, nil},
		{"large kept", "Stop", `, "timeout": 86400`, 86400, nil},
		{"SessionEnd default is one", "SessionEnd", "", 1, nil},
		{"SessionEnd zero is one", "SessionEnd", `, "timeout": 0`, 1, nil},
		{"SessionEnd within cap kept", "SessionEnd", `, "timeout": 3`, 3, nil},
		{"SessionEnd clamped to three", "SessionEnd", `, "timeout": 600`, 3, []string{"clamping SessionEnd hook timeout to 3s in /cfg/hooks.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, warns := cfgOne(t, `{"hooks": {"`+tc.event+`": [{"hooks": [{"type": "command", "command": "x"`+tc.timeout+`}]}]}}`)
			cfgWantWarnings(t, warns, tc.warnings...)
			if h.Handler.Timeout != tc.want {
				t.Errorf("timeout = %d, want %d", h.Handler.Timeout, tc.want)
			}
		})
	}
}

func TestParse_SessionEndClampsThenForcesSync(t *testing.T) {
	h, warns := cfgOne(t, `{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "bye", "async": true, "timeout": 600}]}]}}`)
	cfgWantWarnings(t, warns,
		"clamping SessionEnd hook timeout to 3s in /cfg/hooks.json",
		"running async SessionEnd hook synchronously in /cfg/hooks.json")
	if h.Handler.Async || !h.Handler.AsyncConfigured || h.Handler.Timeout != 3 {
		t.Errorf("async=%v configured=%v timeout=%d", h.Handler.Async, h.Handler.AsyncConfigured, h.Handler.Timeout)
	}
}

func TestParse_AsyncKeptOnOtherEvents(t *testing.T) {
	h, warns := cfgOne(t, `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "x", "async": true}]}]}}`)
	cfgWantWarnings(t, warns)
	if !h.Handler.Async || !h.Handler.AsyncConfigured {
		t.Errorf("async=%v configured=%v", h.Handler.Async, h.Handler.AsyncConfigured)
	}
}

func TestParse_AdditionalContextLimitOnlyWhereContextExists(t *testing.T) {
	for _, tc := range []struct {
		name, event, limit string
		want               *int
		warnings           []string
	}{
		{"kept on PreToolUse", "PreToolUse", "20000", cfgIntp(20000), nil},
		{"zero kept (no limit)", "SessionStart", "0", cfgIntp(0), nil},
		{"dropped on PermissionRequest", "PermissionRequest", "100", nil, []string{"ignoring additionalContextLimit for PermissionRequest hook in /cfg/hooks.json"}},
		{"dropped on Stop", "Stop", "100", nil, []string{"ignoring additionalContextLimit for Stop hook in /cfg/hooks.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, warns := cfgOne(t, `{"hooks": {"`+tc.event+`": [{"hooks": [{"type": "command", "command": "x", "additionalContextLimit": `+tc.limit+`}]}]}}`)
			cfgWantWarnings(t, warns, tc.warnings...)
			if !reflect.DeepEqual(h.Handler.AdditionalContextLimit, tc.want) {
				t.Errorf("limit = %v, want %v", h.Handler.AdditionalContextLimit, tc.want)
			}
		})
	}
}

func cfgIntp(n int) *int { return &n }

func TestParse_CommandWindowsKept(t *testing.T) {
	for _, tc := range []struct {
		name, fields, want string
		warnings           []string
	}{
		{"camelCase", `"commandWindows": "cmd /c a"`, "cmd /c a", nil},
		{"snake_case", `"command_windows": "cmd /c b"`, "cmd /c b", nil},
		{"both: camelCase wins", `"command_windows": "b", "commandWindows": "a"`, "a", []string{"ignoring command_windows in /cfg/hooks.json: commandWindows is also set"}},
		{"empty dropped", `"commandWindows": " "`, "", []string{"ignoring empty commandWindows in /cfg/hooks.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, warns := cfgOne(t, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", `+tc.fields+`}]}]}}`)
			cfgWantWarnings(t, warns, tc.warnings...)
			if h.Handler.CommandWindows != tc.want || h.Handler.Command != "x" {
				t.Errorf("command/windows = %q/%q, want x/%q", h.Handler.Command, h.Handler.CommandWindows, tc.want)
			}
		})
	}
}

func TestParse_StatusMessageKept(t *testing.T) {
	h, _ := cfgOne(t, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "statusMessage": "checking"}]}]}}`)
	if h.Handler.StatusMessage == nil || *h.Handler.StatusMessage != "checking" {
		t.Errorf("statusMessage = %v", h.Handler.StatusMessage)
	}
}

func TestParse_UnknownFieldsWarnAndStillLoad(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{
  "description": "mine",
  "version": 2,
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "comment": "g", "hooks": [
      {"type": "command", "command": "x", "timeoutSec": 5},
      {"type": "mcp_tool", "server": "s", "tool": "t", "additionalContextLimit": 1}
    ]}],
    "Interrupt": [{"hooks": [{"type": "command", "command": "y"}]}]
  }
}`)
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"/cfg/hooks.json:pre_tool_use:0:0", "/cfg/hooks.json:pre_tool_use:0:1"}) {
		t.Errorf("keys = %q", got)
	}
	if hooks[0].Handler.Timeout != 600 {
		t.Errorf("timeoutSec changed the timeout: %d", hooks[0].Handler.Timeout)
	}
	cfgWantWarnings(t, warns,
		`ignoring unknown field "version" in /cfg/hooks.json (line 3, column 3)`,
		`ignoring unknown hook event "Interrupt" in /cfg/hooks.json (line 9, column 5)`,
		`ignoring unknown field "comment" in /cfg/hooks.json (line 5, column 40)`,
		`ignoring unknown field "timeoutSec" in /cfg/hooks.json (line 6, column 43)`,
		`ignoring unknown field "additionalContextLimit" in /cfg/hooks.json (line 7, column 56)`)
}

func TestParse_WrongRootFieldTypesWarn(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"description": 1, "hooks": []}`)
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, `ignoring field "description" in /cfg/hooks.json: expected a string`,
		`ignoring field "hooks" in /cfg/hooks.json: expected an object of hook events`)
}

func TestParse_EventNotAnArrayWarns(t *testing.T) {
	hooks, warns := cfgParseJSON(t, `{"hooks": {"PreToolUse": {"hooks": []}, "Stop": null, "PostToolUse": [{"hooks": {}}]}}`)
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, `ignoring hook event "PreToolUse" in /cfg/hooks.json: expected an array of matcher groups`,
		`skipping matcher group in /cfg/hooks.json: field "hooks" must be an array`)
}

func TestParse_DuplicateFieldUsesFirst(t *testing.T) {
	h, warns := cfgOne(t, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "first", "command": "second"}]}]}}`)
	cfgWantWarnings(t, warns, `ignoring duplicate field "command" in /cfg/hooks.json`)
	if h.Handler.Command != "first" {
		t.Errorf("command = %q", h.Handler.Command)
	}
}

func TestParse_MalformedJSONGivesOneWarningWithPosition(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"trailing comma", string(cfgReadTestdata(t, "malformed.json")), "(line 4, column 79)"},
		{"truncated", `{"hooks": {`, "line 1"},
		{"empty file", "", "line 1"},
		{"root is an array", `[{"hooks": {}}]`, "expected a JSON object (line 1, column 1)"},
		{"root is a string", `  "hooks"`, "expected a JSON object (line 1, column 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := cfgParseJSON(t, tc.doc)
			if len(hooks) != 0 {
				t.Errorf("hooks = %q", cfgKeys(hooks))
			}
			cfgWantWarnings(t, warns, "failed to parse hooks config /cfg/hooks.json: ")
			if !strings.Contains(warns[0].Message, tc.want) {
				t.Errorf("warning %q does not contain %q", warns[0].Message, tc.want)
			}
			if warns[0].Source != cfgTestPath || warns[0].Event != "" || warns[0].Group != nil {
				t.Errorf("warning place = %+v", warns[0])
			}
		})
	}
}

func TestParse_ByteOrderMarkAccepted(t *testing.T) {
	hooks, warns := cfgParseJSON(t, "\xef\xbb\xbf"+`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`)
	if len(hooks) != 1 || len(warns) != 0 {
		t.Errorf("hooks %q warnings %q", cfgKeys(hooks), cfgMessages(warns))
	}
}

func TestParse_MCPToolHandler(t *testing.T) {
	const input = `{ "file_path" : "${tool_input.file_path}",  "n": 1.50, "tags": ["a", {"b": true}], "html": "<&>" }`
	h, warns := cfgOne(t, `{"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
		{"type": "mcp_tool", "server": "security", "tool": "scan", "input": `+input+`, "timeout": 30, "statusMessage": "Scanning file"}]}]}}`)
	cfgWantWarnings(t, warns)
	if string(h.Handler.Input) != input {
		t.Errorf("input = %s, want byte-for-byte %s", h.Handler.Input, input)
	}
	hd := h.Handler
	hd.Input = nil
	status := "Scanning file"
	if want := (Handler{Type: TypeMCPTool, Server: "security", Tool: "scan", Timeout: 30, StatusMessage: &status}); !reflect.DeepEqual(hd, want) {
		t.Errorf("handler = %+v, want %+v", hd, want)
	}
}

func TestParse_MCPToolRules(t *testing.T) {
	for _, tc := range []struct {
		name, event, handler string
		loads                bool
		warnings             []string
	}{
		{"input defaults to empty object", "PreToolUse", `{"type": "mcp_tool", "server": "s", "tool": "t"}`, true, nil},
		{"empty server skipped", "PreToolUse", `{"type": "mcp_tool", "server": " ", "tool": "t"}`, false,
			[]string{`skipping MCP tool hook in /cfg/hooks.json: field "server" must be a non-empty string`}},
		{"missing tool skipped", "PreToolUse", `{"type": "mcp_tool", "server": "s"}`, false,
			[]string{`field "tool" must be a non-empty string`}},
		{"null inside input skipped", "PreToolUse", `{"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": [1, null]}}`, false,
			[]string{`skipping MCP tool hook in /cfg/hooks.json: field "input" must not contain null`}},
		{"SessionEnd skipped", "SessionEnd", `{"type": "mcp_tool", "server": "s", "tool": "t"}`, false,
			[]string{"skipping MCP tool hook in /cfg/hooks.json: SessionEnd MCP hooks are not supported"}},
		{"async forced off", "PreToolUse", `{"type": "mcp_tool", "server": "s", "tool": "t", "async": true}`, true,
			[]string{"running async MCP tool hook synchronously in /cfg/hooks.json: MCP tool hooks cannot be async"}},
		{"command field is unknown here", "PreToolUse", `{"type": "mcp_tool", "server": "s", "tool": "t", "command": "x"}`, true,
			[]string{`ignoring unknown field "command"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := cfgParseJSON(t, `{"hooks": {"`+tc.event+`": [{"hooks": [`+tc.handler+`]}]}}`)
			cfgWantWarnings(t, warns, tc.warnings...)
			if (len(hooks) == 1) != tc.loads {
				t.Fatalf("hooks = %q, want loaded=%v", cfgKeys(hooks), tc.loads)
			}
			if tc.loads {
				hd := hooks[0].Handler
				if hd.Async || string(hd.Input) == "" || hd.Timeout != 600 {
					t.Errorf("handler = %+v", hd)
				}
				if tc.name == "input defaults to empty object" && string(hd.Input) != "{}" {
					t.Errorf("input = %s, want {}", hd.Input)
				}
			}
		})
	}
}

func TestParse_WarningsCarryPlaceAndPosition(t *testing.T) {
	doc := `{"hooks": {
  "PreToolUse": [
    {"hooks": [{"type": "command", "command": "ok"}]},
    {"hooks": [
      {"type": "command", "command": "x"},
      {"type": "command", "command": "x", "timeout": "slow"}
    ]}
  ]
}}`
	_, warns := cfgParseJSON(t, doc)
	cfgWantWarnings(t, warns, `skipping command hook in /cfg/hooks.json: field "timeout" must be a non-negative integer (line 6, column 54)`)
	w := warns[0]
	if w.Source != cfgTestPath || w.Event != "PreToolUse" || w.Group == nil || *w.Group != 1 || w.Handler == nil || *w.Handler != 1 {
		t.Errorf("warning place = %q %q %v %v", w.Source, w.Event, w.Group, w.Handler)
	}
}

func TestParse_PositionColumnsCountCharacters(t *testing.T) {
	_, warns := cfgParseJSON(t, `{"description": "héllo wörld", "x": 1}`)
	cfgWantWarnings(t, warns, `ignoring unknown field "x" in /cfg/hooks.json (line 1, column 32)`)
}

func TestParseTOML_SameHookAsJSONGivesSameHandlerAndKeySuffix(t *testing.T) {
	jsonHooks, jsonWarns := ParseHooksJSON(codexProfile(), cfgReadTestdata(t, "same.json"), cfgTestSrc, "J")
	tomlHooks, tomlWarns := ParseHooksTOML(codexProfile(), cfgReadTestdata(t, "same.toml"), Source{Layer: LayerUser, Path: "/cfg/config.toml"}, "T")
	if len(jsonHooks) != 3 || len(tomlHooks) != len(jsonHooks) {
		t.Fatalf("json %q, toml %q", cfgKeys(jsonHooks), cfgKeys(tomlHooks))
	}
	for i := range jsonHooks {
		j, tm := jsonHooks[i], tomlHooks[i]
		if strings.TrimPrefix(j.Key, "J") != strings.TrimPrefix(tm.Key, "T") {
			t.Errorf("keys %q and %q differ after the source", j.Key, tm.Key)
		}
		if j.Event != tm.Event || j.Matcher != tm.Matcher || j.HasMatcher != tm.HasMatcher {
			t.Errorf("hook %d: event/matcher differ: %+v vs %+v", i, j, tm)
		}
		jh, th := j.Handler, tm.Handler
		if jh.Input != nil {
			// The TOML input comes back compact; compare the values.
			if string(th.Input) != `{"file_path":"${tool_input.file_path}"}` || string(jh.Input) != `{"file_path": "${tool_input.file_path}"}` {
				t.Errorf("inputs: json %s toml %s", jh.Input, th.Input)
			}
			jh.Input, th.Input = nil, nil
		}
		if !reflect.DeepEqual(jh, th) {
			t.Errorf("hook %d: handlers differ:\njson %+v\ntoml %+v", i, jh, th)
		}
	}
	if got := cfgKeys(tomlHooks); !reflect.DeepEqual(got, []string{"T:pre_tool_use:0:1", "T:post_tool_use:0:0", "T:session_end:0:0"}) {
		t.Errorf("toml keys = %q", got)
	}
	if jsonHooks[0].Handler.CommandWindows != `py %USERPROFILE%\.codex\check.py` {
		t.Errorf("commandWindows = %q", jsonHooks[0].Handler.CommandWindows)
	}
	cfgWantWarnings(t, jsonWarns, "skipping prompt hook", "running async SessionEnd hook synchronously")
	cfgWantWarnings(t, tomlWarns, "skipping prompt hook", "running async SessionEnd hook synchronously")
}

func TestParseTOML_SyntaxErrorGivesOneWarning(t *testing.T) {
	hooks, warns := ParseHooksTOML(codexProfile(), cfgReadTestdata(t, "malformed.toml"), Source{Layer: LayerUser, Path: "/cfg/config.toml"}, "/cfg/config.toml")
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, "failed to parse hooks config /cfg/config.toml: toml: ")
	if !strings.Contains(warns[0].Message, "(line 3, column") || warns[0].Source != "/cfg/config.toml" {
		t.Errorf("warning = %+v", warns[0])
	}
}

func TestParseTOML_NoHooksTableGivesNothing(t *testing.T) {
	for _, doc := range []string{"", `model = "o3"`, "[features]\nhooks = true\n", "[hooks.state.\"k\"]\nenabled = false\n"} {
		hooks, warns := ParseHooksTOML(codexProfile(), []byte(doc), Source{Path: "/c.toml"}, "/c.toml")
		if len(hooks) != 0 || len(warns) != 0 {
			t.Errorf("%q: hooks %q warnings %q", doc, cfgKeys(hooks), cfgMessages(warns))
		}
	}
}

func TestParseTOML_WarningsNameTheirPlace(t *testing.T) {
	doc := `
[hooks]
Bogus = []

[[hooks.PreToolUse]]
matcher = "Bash"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "ok"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "x"
timeout = 30.0
`
	hooks, warns := ParseHooksTOML(codexProfile(), []byte(doc), Source{Layer: LayerProject, Path: "/p/.codex/config.toml"}, "/p/.codex/config.toml")
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"/p/.codex/config.toml:pre_tool_use:0:0"}) {
		t.Errorf("keys = %q", got)
	}
	cfgWantWarnings(t, warns,
		`ignoring unknown hook event "Bogus" in /p/.codex/config.toml (at hooks.Bogus)`,
		`skipping command hook in /p/.codex/config.toml: field "timeout" must be a non-negative integer (at hooks.PreToolUse[0].hooks[1].timeout)`)
	if w := warns[1]; w.Event != "PreToolUse" || *w.Group != 0 || *w.Handler != 1 {
		t.Errorf("warning place = %+v", w)
	}
}

func TestParseTOML_HooksNotATableWarns(t *testing.T) {
	hooks, warns := ParseHooksTOML(codexProfile(), []byte(`hooks = "on"`), Source{Path: "/c.toml"}, "/c.toml")
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, `ignoring field "hooks" in /c.toml: expected a table of hook events (at hooks)`)
}

func TestParseValue_ReadsInlineHooksObject(t *testing.T) {
	src := Source{Layer: LayerSession, Path: "session"}
	hooks, warns := ParseHooksValue(codexProfile(), []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "a"}, {"type": "command", "command": ""}]}]}`), src, "session")
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{"session:stop:0:0"}) {
		t.Errorf("keys = %q", got)
	}
	cfgWantWarnings(t, warns, "skipping empty hook command in session (at hooks.Stop[0].hooks[1].command)")
	if hooks[0].Source != src {
		t.Errorf("source = %+v", hooks[0].Source)
	}

	for _, bad := range []string{`[1]`, `{"Stop": [`} {
		hooks, warns := ParseHooksValue(codexProfile(), []byte(bad), src, "session")
		if len(hooks) != 0 {
			t.Errorf("%s: hooks = %q", bad, cfgKeys(hooks))
		}
		cfgWantWarnings(t, warns, "failed to parse hooks config session: ")
	}
	if hooks, warns := ParseHooksValue(codexProfile(), []byte(`null`), src, "session"); len(hooks)+len(warns) != 0 {
		t.Errorf("null: hooks %q warnings %q", cfgKeys(hooks), cfgMessages(warns))
	}
}

// Objects longer than fewFields are indexed: duplicates past the index's
// start are still found, and members are still looked up by name.
func TestParse_LongObjectsKeepFirstValueAndFindDuplicates(t *testing.T) {
	var extra strings.Builder
	for i := range 3 * fewFields {
		fmt.Fprintf(&extra, `"x%d": %d, `, i, i)
	}
	doc := `{"hooks": {"Stop": [{"hooks": [{` + extra.String() +
		`"command": "first", "x30": 0, "type": "command", "command": "second"}]}]}}`
	hooks, warns := cfgParseJSON(t, doc)
	if len(hooks) != 1 || hooks[0].Handler.Command != "first" {
		t.Fatalf("hooks %+v", hooks)
	}
	var dups []string
	for _, w := range warns {
		if strings.Contains(w.Message, "duplicate field") {
			dups = append(dups, w.Message)
		}
	}
	if len(dups) != 2 || !strings.Contains(dups[0], `"x30"`) || !strings.Contains(dups[1], `"command"`) {
		t.Errorf("duplicate warnings %q", dups)
	}
}
