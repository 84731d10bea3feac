package droid

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestMatcher_ExactUnanchoredCaseSensitive(t *testing.T) {
	for _, tc := range []struct {
		pattern, tool string
		want          bool
	}{
		{"", "Execute", true},
		{"*", "Read", true},
		{"Execute", "Execute", true},
		{"Exec", "Execute", true},
		{"^Exec$", "Execute", false},
		{"execute", "Execute", false},
		{"Bash", "Execute", false},
		{"Create|Edit", "Edit", true},
		{"Execute(", "Execute(", true},
		{"Execute(", "Execute", false},
	} {
		m, err := compileMatcher(tc.pattern)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got := m.Match([]string{tc.tool}); got != tc.want {
			t.Errorf("matcher %q on %s: %v, want %v", tc.pattern, tc.tool, got, tc.want)
		}
	}
}

// engine builds a droid engine over a user folder and a project.
func engine(t *testing.T, files map[string]string) (*hooks.Engine, string) {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	project := filepath.Join(root, "proj")
	os.MkdirAll(project, 0o755)
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: project}})
	t.Cleanup(e.Close)
	e.Load()
	return e, root
}

func group(matcher string, cmds ...string) string {
	var hs []string
	for _, c := range cmds {
		b, _ := json.Marshal(c)
		hs = append(hs, `{"type":"command","command":`+string(b)+`}`)
	}
	return `{"matcher":"` + matcher + `","hooks":[` + strings.Join(hs, ",") + `]}`
}

func run(t *testing.T, e *hooks.Engine, event, input string) *hooks.Result {
	t.Helper()
	res, err := e.Run(context.Background(), event, []byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const execInput = `{"tool_name":"Execute","tool_input":{"command":"ls -la","riskLevel":"low"}}`

func TestPreToolUse_FirstDecisionWinsAndTopLevelDecisionIsIgnored(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cmds     []string
		decision string
		reason   string
	}{
		{"top-level decision block does not deny", []string{`echo '{"decision":"block","reason":"top"}'`}, "none", ""},
		{"the first permissionDecision wins", []string{`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"late"}}'`}, "allow", ""},
		{"ask first hides a later deny", []string{`echo '{"hookSpecificOutput":{"permissionDecision":"ask"}}'`, `echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`}, "none", ""},
		{"exit 2 denies with stderr, untrimmed", []string{`echo nope >&2; exit 2`}, "deny", "nope\n"},
		{"an allow is overridden by a later exit 2", []string{`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`, `exit 2`}, "deny", "Tool execution blocked by hook"},
		{"a deny returns before exit 2 is looked at", []string{`echo '{"hookSpecificOutput":{"permissionDecision":"deny"}}'`, `echo two >&2; exit 2`}, "deny", "Tool execution denied by hook"},
		{"JSON is read on exit 1", []string{`echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"on 1"}}'; exit 1`}, "deny", "on 1"},
		{"exit 1 only warns", []string{`echo careful >&2; exit 1`}, "none", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var gs []string
			for _, c := range tc.cmds {
				gs = append(gs, group("Execute", c))
			}
			e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[` + strings.Join(gs, ",") + `]}}`})
			res := run(t, e, "PreToolUse", execInput)
			if res.Decision != tc.decision || res.Reason != tc.reason {
				t.Errorf("decision %q reason %q, want %q %q", res.Decision, res.Reason, tc.decision, tc.reason)
			}
		})
	}
}

func TestPreToolUse_StopAndAbortEndTheRun(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[` +
		group("", `echo quit >&2; exit 3`) + `]}}`})
	res := run(t, e, "PreToolUse", execInput)
	if res.Continue || res.StopReason != "quit\n" || res.Decision != "deny" {
		t.Errorf("exit 3: %+v", res)
	}
	e, _ = engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[` +
		group("", `echo '{"continue":false}'`) + `]}}`})
	res = run(t, e, "PreToolUse", execInput)
	if res.Continue || res.StopReason != "Hook requested to stop execution" {
		t.Errorf("continue false: %+v", res)
	}
}

func TestPreToolUse_UpdatedInputMergesIntoTheCall(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[` +
		group("Execute", `echo '{"hookSpecificOutput":{"updatedInput":{"command":"echo hi"}}}'`) + `]}}`})
	res := run(t, e, "PreToolUse", execInput)
	if got := string(res.UpdatedInput); got != `{"command":"echo hi","riskLevel":"low"}` {
		t.Errorf("updatedInput %s", got)
	}
	if _, ok := res.Output[updateKey]; ok {
		t.Error("the private key reached the host")
	}
}

func TestCommandRegex_OnlyExecuteCallsWhoseCommandMatches(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[
		{"matcher":"*","commandRegex":"^rm ","hooks":[{"type":"command","command":"exit 2"}]}]}}`})
	for input, want := range map[string]string{
		`{"tool_name":"Execute","tool_input":{"command":"rm -rf x"}}`: "deny",
		`{"tool_name":"Execute","tool_input":{"command":"ls"}}`:       "none",
		`{"tool_name":"Read","tool_input":{"command":"rm -rf x"}}`:    "none",
	} {
		if got := run(t, e, "PreToolUse", input).Decision; got != want {
			t.Errorf("%s: %s, want %s", input, got, want)
		}
	}
}

func TestDiscovery_HooksJSONReplacesSettingsEventsProjectFirst(t *testing.T) {
	e, root := engine(t, map[string]string{
		"home/settings.json":          `{"hooks":{"PreToolUse":[` + group("", "true") + `],"Stop":[` + group("", "true") + `]}}`,
		"home/hooks.json":             `{"PreToolUse":[` + group("", "true") + `]}`,
		"home/settings.local.json":    `{"hooks":{"PreToolUse":[` + group("", "true") + `]}}`,
		"proj/.factory/settings.json": `{"hooks":{"PreToolUse":[` + group("", "true") + `]}}`,
	})
	list, warns := e.List("")
	var keys []string
	for _, h := range list {
		keys = append(keys, strings.TrimPrefix(h.Key, root+"/"))
	}
	want := "proj/.factory/settings.json:pre_tool_use:0:0 home/settings.json:stop:0:0 home/hooks.json:pre_tool_use:0:0"
	if strings.Join(keys, " ") != want {
		t.Errorf("hooks %v, want %s (warnings %v)", keys, want, warns)
	}
}

func TestDiscovery_HooksDisabled(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"hooksDisabled":true,"Stop":[` + group("", "exit 2") + `]}}`})
	res := run(t, e, "Stop", `{}`)
	if res.Decision != "none" || len(res.Skipped) != 1 || res.Skipped[0].Reason != hooks.PolicyHooksDisabled {
		t.Errorf("%+v", res)
	}
	// hooksDisabled sits beside the events without being taken for one.
	if _, warns := e.List(""); len(warns) != 1 || !strings.Contains(warns[0].Message, "turned off by hooksDisabled") {
		t.Errorf("warnings %v", warns)
	}
}

func TestEnv_ScalarInputFieldsUnderTheirOwnNames(t *testing.T) {
	env := inputEnv("/p", map[string]string{"\x00x": "hidden"}, []byte(`{"session_id":"s","stop_hook_active":false,"elapsed_time":370,
		"session_duration_ms":1892.94,"big":1e21,"tool_input":{"a":1},"list":[1],"nul":null,"bad-key":"x","CLAUDE_ENV_FILE":"/f","z":"a\u0000b"}`))
	want := map[string]string{"session_id": "s", "stop_hook_active": "false", "elapsed_time": "370", "session_duration_ms": "1892.94",
		"big": "1e+21", "CLAUDE_ENV_FILE": "/f", "FACTORY_PROJECT_DIR": "/p", "DROID_PROJECT_DIR": "/p", "CLAUDE_PROJECT_DIR": "/p",
		"DROID_PLUGIN_ROOT": pluginRootMarker, "CLAUDE_PLUGIN_ROOT": pluginRootMarker}
	if len(env) != len(want) {
		t.Errorf("env %v", env)
	}
	for k, v := range want {
		if env[k] != v {
			t.Errorf("%s=%q, want %q", k, env[k], v)
		}
	}
}

func TestEnv_AValueTooLongForTheEnvironmentIsLeftOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PostToolUse":[` +
		group("", `printf '%s|%s' "${#tool_response}" "$tool_name" > `+hooks.ShellQuote(out)) + `]}}`})
	res := run(t, e, "PostToolUse", `{"tool_name":"Execute","tool_input":{},"tool_response":"`+strings.Repeat("x", 200000)+`"}`)
	if res.Hooks[0].Status != hooks.StatusSucceeded {
		t.Fatalf("the hook did not run: %+v", res.Hooks[0])
	}
	if b, _ := os.ReadFile(out); string(b) != "0|Execute" {
		t.Errorf("hook saw %q", b)
	}
}

func TestEnv_ProjectVariablesNameTheWorkingFolder(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "repo")
	sub := filepath.Join(project, "sub")
	os.MkdirAll(sub, 0o755)
	out := filepath.Join(root, "out")
	os.MkdirAll(filepath.Join(project, ".factory"), 0o755)
	os.WriteFile(filepath.Join(project, ".factory", "settings.json"), []byte(`{"hooks":{"PreToolUse":[`+
		group("", `printf '%s|%s' "$FACTORY_PROJECT_DIR" "$(pwd)" > `+hooks.ShellQuote(out))+`]}}`), 0o600)
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: sub},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: project}})
	defer e.Close()
	e.Load()
	run(t, e, "PreToolUse", execInput)
	if b, _ := os.ReadFile(out); string(b) != sub+"|"+sub {
		t.Errorf("hook saw %q, want the subfolder twice", b)
	}
}

func TestEnv_ReachesTheHook(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	e, root := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[` +
		group("", `printf '%s|%s|%s' "$tool_name" "$DROID_PROJECT_DIR" "$(pwd)" > `+hooks.ShellQuote(out)) + `]}}`})
	run(t, e, "PreToolUse", execInput)
	b, _ := os.ReadFile(out)
	proj := filepath.Join(root, "proj")
	if string(b) != "Execute|"+proj+"|"+proj {
		t.Errorf("hook saw %q", b)
	}
}

func TestStop_BlockWithoutReasonHidesExit2(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"Stop":[` +
		group("", `echo '{"decision":"block"}'`, `echo more >&2; exit 2`) + `]}}`})
	if res := run(t, e, "Stop", `{}`); res.Decision != "none" {
		t.Errorf("%+v", res)
	}
	e, _ = engine(t, map[string]string{"home/settings.json": `{"hooks":{"Stop":[` +
		group("", `echo more >&2; exit 2`, `echo '{"decision":"block","reason":"go on"}'`) + `]}}`})
	if res := run(t, e, "Stop", `{}`); res.Continuation != "go on" {
		t.Errorf("%+v", res)
	}
}

func TestSessionStart_ContextsJoinAndPlainText(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"SessionStart":[` +
		group("startup", `echo plain`, `echo '{"hookSpecificOutput":{"additionalContext":"json ctx"}}'`, `echo '{"systemMessage":"x"}'`, `echo failed; exit 1`) + `]}}`})
	res := run(t, e, "SessionStart", `{"source":"startup"}`)
	var got []string
	for _, c := range res.AdditionalContext {
		got = append(got, c.Text)
	}
	if strings.Join(got, "|") != "plain|json ctx" {
		t.Errorf("contexts %q", got)
	}
	if gjson.Get(string(mustJSON(res)), "additionalContext.#").Int() != 2 {
		t.Error("contexts not reported")
	}
}

func TestUserPromptSubmit_BlockRewriteContext(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"UserPromptSubmit":[` +
		group("", `echo '{"hookSpecificOutput":{"updatedInput":{"prompt":"new"}}}'`, `echo ctx`) + `]}}`})
	res := run(t, e, "UserPromptSubmit", `{"prompt":"old"}`)
	if string(res.UpdatedInput) != `{"prompt":"new"}` || len(res.AdditionalContext) != 1 {
		t.Errorf("%+v", res)
	}
	e, _ = engine(t, map[string]string{"home/settings.json": `{"hooks":{"UserPromptSubmit":[` +
		group("", `echo '{"decision":"block","reason":"ignored"}'`, `echo '{"continue":false,"stopReason":"halt"}'`) + `]}}`})
	if res := run(t, e, "UserPromptSubmit", `{"prompt":"old"}`); res.Decision != "block" || res.Reason != "halt" {
		t.Errorf("%+v", res)
	}
}

func TestDiscovery_AnExplicitNotTrustedKeepsTheProjectUnread(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(project, ".factory"), 0o755)
	os.WriteFile(filepath.Join(project, ".factory", "settings.json"), []byte(`{"hooks":{"Stop":[`+group("", "exit 2")+`]}}`), 0o600)
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: project, ProjectTrustKnown: true}})
	defer e.Close()
	e.Load()
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("an untrusted project's hooks were loaded: %v", list)
	}
}
