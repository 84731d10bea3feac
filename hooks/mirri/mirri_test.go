package mirri

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestMirriDedupe_IdenticalCommandsRunOnce(t *testing.T) {
	h := func(key, cmd string, failClosed bool) *hooks.Hook {
		return &hooks.Hook{Key: key, Handler: hooks.Handler{Type: hooks.TypeCommand, Command: cmd, FailClosed: failClosed}}
	}
	for _, tc := range []struct {
		name string
		in   []*hooks.Hook
		want string
	}{
		{"distinct", []*hooks.Hook{h("a", "x", false), h("b", "y", false)}, "a,b"},
		{"first twin runs in its place", []*hooks.Hook{h("a", "x", false), h("b", "y", false), h("c", "x", false)}, "a,b"},
		{"only exactly equal commands", []*hooks.Hook{h("a", "x", false), h("b", "x ", false)}, "a,b"},
		{"a failClosed twin is the one kept", []*hooks.Hook{h("a", "x", false), h("b", "y", false), h("c", "x", true), h("d", "x", true)}, "c,b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var keys []string
			for _, k := range mirriDedupe(tc.in) {
				keys = append(keys, k.Key)
			}
			if got := strings.Join(keys, ","); got != tc.want {
				t.Fatalf("kept %s, want %s", got, tc.want)
			}
		})
	}
}

func TestMirriPrepareInput_TruncatesToolOutputAndLastMessageTo2000Characters(t *testing.T) {
	long := strings.Repeat("é", 2500)
	exact := strings.Repeat("a", 2000)
	in := []byte(`{"hook_event_name":"PostToolUse","tool_output":"` + long + `","tool_input":{"tool_output":"` + long + `"}}`)
	out := mirriPrepareInput(nil, in, hooks.Session{})
	if got := gjson.GetBytes(out, "tool_output").Str; got != strings.Repeat("é", 2000) {
		t.Errorf("tool_output has %d characters", len([]rune(got)))
	}
	if got := gjson.GetBytes(out, "tool_input.tool_output").Str; got != long {
		t.Errorf("a nested field was cut")
	}
	if k := gjson.ParseBytes(out).Get("@keys").Raw; k != `["hook_event_name","tool_output","tool_input"]` {
		t.Errorf("field order changed: %s", k)
	}
	in = []byte(`{"last_assistant_message":"` + strings.Repeat("x", 2001) + `","tool_output":"` + exact + `"}`)
	out = mirriPrepareInput(nil, in, hooks.Session{})
	if len(gjson.GetBytes(out, "last_assistant_message").Str) != 2000 || gjson.GetBytes(out, "tool_output").Str != exact {
		t.Errorf("got %s", out)
	}
	in = []byte(`{"last_assistant_message":null,"tool_output":{"big":true}}`)
	if out := mirriPrepareInput(nil, in, hooks.Session{}); string(out) != string(in) {
		t.Errorf("non-strings changed: %s", out)
	}
}

func TestMirriMatcher_RegexSearchOnTheEventsTarget(t *testing.T) {
	m := func(pattern, target string) mirriMatcher {
		mm, err := mirriCompile(pattern)
		if err != nil {
			t.Fatal(err)
		}
		x := mm.(mirriMatcher)
		x.target = target
		return x
	}
	for _, tc := range []struct {
		pattern, target, input string
		want                   bool
	}{
		{"Bash", "tool_name", `{"tool_name":"Bash"}`, true},
		{"Bash", "tool_name", `{"tool_name":"BashOutput"}`, true},
		{"^Bash$", "tool_name", `{"tool_name":"BashOutput"}`, false},
		{"bash", "tool_name", `{"tool_name":"Bash"}`, false},
		{"Edit|Write", "tool_name", `{"tool_name":"Write"}`, true},
		{`task\.completed`, "notification_type", `{"notification_type":"task.completed"}`, true},
		{`task\.completed`, "notification_type", `{"notification_type":"task.failed"}`, false},
		{"(?i)deploy", "prompt", `{"prompt":"Deploy it"}`, true},
		{"^$", "", `{"tool_name":"Bash"}`, true},
		{"x", "", `{"x":"x"}`, false},
		{".*", "tool_name", `{}`, true},
		{"Bash", "tool_name", `{}`, false},
	} {
		if got := m(tc.pattern, tc.target).MatchInput([]byte(tc.input)); got != tc.want {
			t.Errorf("%q on %q of %s = %v, want %v", tc.pattern, tc.target, tc.input, got, tc.want)
		}
	}
}

// The spec: a Stop deny continues the conversation at most once per turn.
func TestMirriCapStop_OneContinuationPerTurn(t *testing.T) {
	stop := func(st *hooks.State, input string, blocked bool) string {
		res := &hooks.Result{Decision: hooks.DecisionNone}
		if blocked {
			res.Decision, res.Reason, res.Continuation = hooks.DecisionBlock, "again", "again"
		}
		mirriAfterCombine(st, Profile.Event("Stop"), []byte(input), res)
		if res.Decision == hooks.DecisionBlock && res.Continuation == "again" {
			return "continue"
		}
		if blocked && len(res.SystemMessages) != 1 {
			return "capped silently"
		}
		return "end"
	}
	prompt := func(st *hooks.State) {
		mirriAfterCombine(st, Profile.Event("UserPromptSubmit"), []byte(`{}`), &hooks.Result{Decision: hooks.DecisionNone})
	}
	t.Run("no turn ids: the Stop after a continuation is in the same turn", func(t *testing.T) {
		var st hooks.State
		got := []string{stop(&st, `{}`, true), stop(&st, `{}`, true), stop(&st, `{}`, true)}
		prompt(&st)
		got = append(got, stop(&st, `{}`, true), stop(&st, `{}`, false), stop(&st, `{}`, true))
		if strings.Join(got, ",") != "continue,end,continue,continue,end,continue" {
			t.Fatal(got)
		}
	})
	t.Run("turn ids", func(t *testing.T) {
		var st hooks.State
		got := []string{stop(&st, `{"turn_id":"t1"}`, true), stop(&st, `{"turn_id":"t1"}`, true), stop(&st, `{"turn_id":"t2"}`, true), stop(&st, `{"turn_id":"t3"}`, true)}
		if strings.Join(got, ",") != "continue,end,continue,continue" {
			t.Fatal(got)
		}
	})
	t.Run("the host's stop_hook_active", func(t *testing.T) {
		var st hooks.State
		if got := stop(&st, `{"stop_hook_active":true}`, true); got != "end" {
			t.Fatal(got)
		}
	})
	t.Run("interrupt ends the turn", func(t *testing.T) {
		var st hooks.State
		stop(&st, `{}`, true)
		mirriAfterCombine(&st, Profile.Event("Interrupt"), []byte(`{}`), &hooks.Result{Decision: hooks.DecisionNone})
		if got := stop(&st, `{}`, true); got != "continue" {
			t.Fatal(got)
		}
	})
}

func TestMirriGateRewrite_PreToolUseUpdatedInputNeedsTheFlagAndTheV2Engine(t *testing.T) {
	for _, tc := range []struct {
		rewrite, engine string
		kept            bool
	}{
		{"true", "v2", true},
		{"true", "v1", false},
		{"false", "v2", false},
		{"", "", false},
	} {
		var st hooks.State
		st.SetString(mirriRewriteKey, tc.rewrite)
		st.SetString(mirriEngineKey, tc.engine)
		res := &hooks.Result{Decision: hooks.DecisionAllow, UpdatedInput: []byte(`{"command":"x"}`)}
		mirriAfterCombine(&st, Profile.Event("PreToolUse"), []byte(`{}`), res)
		if kept := res.UpdatedInput != nil && res.Decision == hooks.DecisionAllow; kept != tc.kept {
			t.Errorf("flag %q engine %q: kept %v, want %v", tc.rewrite, tc.engine, kept, tc.kept)
		}
		if !tc.kept && (res.Decision != hooks.DecisionNone || len(res.SystemMessages) != 1) {
			t.Errorf("flag %q engine %q: decision %s messages %v", tc.rewrite, tc.engine, res.Decision, res.SystemMessages)
		}
	}
	// A deny is never turned into anything else.
	var st hooks.State
	res := &hooks.Result{Decision: hooks.DecisionDeny, Reason: "no"}
	mirriAfterCombine(&st, Profile.Event("PreToolUse"), []byte(`{}`), res)
	if res.Decision != hooks.DecisionDeny || len(res.SystemMessages) != 0 {
		t.Fatalf("%+v", res)
	}
}

// mirriEngine loads doc as the user config.toml into an engine.
func mirriEngine(t *testing.T, doc string, features map[string]string) *hooks.Engine {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv(mirriRewriteEnv, "")
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s", Cwd: t.TempDir()},
		Discover: hooks.DiscoverOptions{Home: mirriHome(t, doc), Features: features}})
	t.Cleanup(e.Close)
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	return e
}

// Two hooks that each wait for the other to have started can only both
// finish when they run at the same time; run one after the other, the first
// would wait until its timeout.
func TestMirriEngine_MatchingRulesRunInParallel(t *testing.T) {
	dir := t.TempDir()
	wait := func(me, other string) string {
		return `touch ` + filepath.Join(dir, me) + `; while [ ! -e ` + filepath.Join(dir, other) + ` ]; do sleep 0.01; done`
	}
	e := mirriEngine(t, `
[[hooks]]
event = "PreToolUse"
command = "`+wait("a", "b")+`"
timeout = 20
[[hooks]]
event = "PreToolUse"
command = "`+wait("b", "a")+`"
timeout = 20
`, nil)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 2 || res.Hooks[0].Status != hooks.StatusSucceeded || res.Hooks[1].Status != hooks.StatusSucceeded {
		t.Fatalf("%+v", res.Hooks)
	}
}

// On timeout the hook's process group gets SIGTERM first, so it can clean
// up; a group that ignores it is killed after the grace.
func TestMirriEngine_TimeoutSignalsTheGroupThenKills(t *testing.T) {
	dir := t.TempDir()
	cleaned := filepath.Join(dir, "cleaned")
	e := mirriEngine(t, `
[[hooks]]
event = "PreToolUse"
command = "trap 'echo done > `+cleaned+`; exit 0' TERM; sleep 30 & wait"
timeout = 1
failClosed = true
[[hooks]]
event = "PostToolUse"
command = "trap '' TERM; while :; do sleep 1; done"
timeout = 1
`, nil)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks[0].Status != hooks.StatusTimedOut || res.Decision != hooks.DecisionDeny || !strings.Contains(res.Reason, "timed out after 1s") {
		t.Fatalf("decision %s reason %q hooks %+v", res.Decision, res.Reason, res.Hooks)
	}
	if b, err := os.ReadFile(cleaned); err != nil || strings.TrimSpace(string(b)) != "done" {
		t.Fatalf("the hook did not get SIGTERM to clean up: %v", err)
	}
	res, err = e.Run(context.Background(), "PostToolUse", []byte(`{"tool_name":"Bash"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks[0].Status != hooks.StatusTimedOut || res.Decision != hooks.DecisionNone {
		t.Fatalf("decision %s hooks %+v", res.Decision, res.Hooks)
	}
}

func TestMirriEngine_SetEnabledIsRefused(t *testing.T) {
	e := mirriEngine(t, "[[hooks]]\nevent = \"Stop\"\ncommand = \"true\"\n", nil)
	list, _ := e.List("")
	err := e.SetEnabled(context.Background(), list[0].Key, false)
	if pe, ok := err.(*hooks.ParamError); !ok || !strings.Contains(pe.Msg, "no per-hook enable switch") {
		t.Fatalf("SetEnabled: %v", err)
	}
	if _, err := e.Trust(context.Background(), []string{list[0].Key}); err == nil {
		t.Fatal("Trust: want an error, the mirri profile has no review")
	}
}

func TestMirriEngine_RewriteSettingsReachTheRun(t *testing.T) {
	doc := `
[experimental]
hook-command-rewrite = true
[[hooks]]
event = "PreToolUse"
command = "echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"command\":\"rg x\"}}}'"
`
	for engine, want := range map[string]string{"v1": hooks.DecisionNone, "v2": hooks.DecisionAllow} {
		e := mirriEngine(t, doc, map[string]string{"hookEngine": engine})
		res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"grep x"}}`), "")
		if err != nil {
			t.Fatal(err)
		}
		if res.Decision != want {
			t.Errorf("engine %s: decision %s updated %s", engine, res.Decision, res.UpdatedInput)
		}
	}
}

// A PreToolUse rewrite of Bash without a string command fails that hook (an
// engine rule for every profile) and the input stays; it is not a crash, a
// timeout or invalid JSON, so failClosed does not block.
func TestMirriEngine_BadBashRewriteFailsTheHookWithoutBlocking(t *testing.T) {
	e := mirriEngine(t, `
[experimental]
hook-command-rewrite = true
[[hooks]]
event = "PreToolUse"
command = "echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"cmd\":\"ls\"}}}'"
failClosed = true
`, map[string]string{"hookEngine": "v2"})
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionNone || res.UpdatedInput != nil || res.Hooks[0].Status != hooks.StatusFailed {
		t.Fatalf("decision %s updated %s hooks %+v", res.Decision, res.UpdatedInput, res.Hooks)
	}
}
