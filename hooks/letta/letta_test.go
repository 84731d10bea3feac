package letta

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

func TestMatcher_AnchoredOnToolEventsInvalidIsExact(t *testing.T) {
	for _, tc := range []struct {
		pattern, tool string
		want          bool
	}{
		{"", "Bash", true},
		{"*", "Read", true},
		{"Bash", "Bash", true},
		{"Ba", "Bash", false},
		{"Ba.*", "Bash", true},
		{"bash", "Bash", false},
		{"Read|Bash", "Bash", true},
		{"Bash(", "Bash(", true},
		{"Bash(", "Bash", false},
	} {
		m, err := compileMatcher(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Match([]string{tc.tool}); got != tc.want {
			t.Errorf("%q on %s: %v, want %v", tc.pattern, tc.tool, got, tc.want)
		}
	}
}

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

func settings(event, matcher string, cmds ...string) string {
	var hs []string
	for _, c := range cmds {
		b, _ := json.Marshal(c)
		hs = append(hs, `{"type":"command","command":`+string(b)+`}`)
	}
	return `{"hooks":{"` + event + `":[{"matcher":"` + matcher + `","hooks":[` + strings.Join(hs, ",") + `]}]}}`
}

func run(t *testing.T, e *hooks.Engine, event, input string) *hooks.Result {
	t.Helper()
	res, err := e.Run(context.Background(), event, []byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const bash = `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_call_id":"c1","agent_id":"agent-1"}`

func TestPreToolUse_OnlyTheExitCodeDecides(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cmds     []string
		decision string
		reason   string
		skipped  int
	}{
		{"JSON deny on exit 0 is ignored", []string{`echo '{"decision":"block","hookSpecificOutput":{"permissionDecision":"deny"}}'`}, "none", "", 0},
		{"exit 2 denies with the command and stderr", []string{`echo no >&2; exit 2`}, "deny", "[echo no >&2; exit 2]: no", 0},
		{"exit 2 without stderr", []string{`exit 2`}, "deny", "Blocked by hook", 0},
		{"errors join the reason, the first exit 2 ends the run", []string{`echo bad >&2; exit 5`, `echo no >&2; exit 2`, `exit 2`}, "deny", "Hook error: bad\n[echo no >&2; exit 2]: no", 1},
		{"exit 1 alone does not block", []string{`echo bad >&2; exit 1`}, "none", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := engine(t, map[string]string{"home/settings.json": settings("PreToolUse", "Bash", tc.cmds...)})
			res := run(t, e, "PreToolUse", bash)
			if res.Decision != tc.decision || res.Reason != tc.reason || len(res.Skipped) != tc.skipped {
				t.Errorf("%q %q skipped %v; want %q %q %d", res.Decision, res.Reason, res.Skipped, tc.decision, tc.reason, tc.skipped)
			}
		})
	}
}

func TestPostToolUse_ReadsEveryResultAndJSONContext(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": settings("PostToolUse", "",
		`exit 2`, `echo '{"hookSpecificOutput":{"additionalContext":"a"}}'`, `echo '{"additionalContext":"b"}'`, `echo plain`, `echo late >&2; exit 2`)})
	res := run(t, e, "PostToolUse", `{"tool_name":"Bash","tool_input":{},"tool_result":{"status":"success"}}`)
	if res.Feedback != "a\nb\n[echo late >&2; exit 2]: late" || res.Decision != "none" || len(res.Skipped) != 0 {
		t.Errorf("%+v", res)
	}
}

func TestStop_ContinuesWithEveryStderrWrapped(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": settings("Stop", "*", `echo warn >&2; exit 1`, `echo again >&2; exit 2`)})
	res := run(t, e, "Stop", `{}`)
	if res.Continuation != "<stop-hook>\nwarn\nagain\n</stop-hook>" {
		t.Errorf("%q", res.Continuation)
	}
}

func TestPermissionRequest_AnExit0Allows(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": settings("PermissionRequest", "Bash", `exit 1`, `true`)})
	if res := run(t, e, "PermissionRequest", bash); res.Decision != "allow" {
		t.Errorf("%+v", res)
	}
}

func TestSessionStart_EveryStdoutWhateverTheCode(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": settings("SessionStart", "", `echo one`, `echo two; exit 1`)})
	res := run(t, e, "SessionStart", `{}`)
	if len(res.AdditionalContext) != 2 || res.AdditionalContext[1].Text != "two" {
		t.Errorf("%+v", res.AdditionalContext)
	}
}

func TestDiscovery_LocalProjectUserAndDisabled(t *testing.T) {
	e, root := engine(t, map[string]string{
		"home/settings.json":              settings("Stop", "", "true"),
		"proj/.letta/settings.json":       settings("Stop", "", "true"),
		"proj/.letta/settings.local.json": settings("Stop", "", "true"),
	})
	list, _ := e.List("")
	var keys []string
	for _, h := range list {
		keys = append(keys, strings.TrimPrefix(h.Key, root+"/"))
	}
	if got := strings.Join(keys, " "); got != "proj/.letta/settings.local.json:stop:0:0 proj/.letta/settings.json:stop:0:0 home/settings.json:stop:0:0" {
		t.Errorf("%s", got)
	}
	// The user's false wins over the project's true.
	e, _ = engine(t, map[string]string{
		"home/settings.json":        `{"hooks":{"disabled":false}}`,
		"proj/.letta/settings.json": `{"hooks":{"disabled":true,"Stop":[{"hooks":[{"type":"command","command":"exit 2"}]}]}}`,
	})
	if res := run(t, e, "Stop", `{}`); res.Decision != "block" {
		t.Errorf("user false: %+v", res)
	}
	e, _ = engine(t, map[string]string{"proj/.letta/settings.local.json": `{"hooks":{"disabled":true,"Stop":[{"hooks":[{"type":"command","command":"exit 2"}]}]}}`})
	if res := run(t, e, "Stop", `{}`); res.Decision != "none" {
		t.Errorf("local true: %+v", res)
	}
}

func TestEnvAndInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("LETTA_CONVERSATION_ID", "leaked")
	e, root := engine(t, map[string]string{"home/settings.json": settings("PreToolUse", "", `{ cat; echo; env; pwd; } > `+hooks.ShellQuote(out))})
	res := run(t, e, "PreToolUse", bash)
	if res.Decision != "none" {
		t.Fatalf("%+v", res)
	}
	b, _ := os.ReadFile(out)
	text := string(b)
	stdin, _, _ := strings.Cut(text, "\n")
	proj := filepath.Join(root, "proj")
	if k := keysOf(stdin); k != "event_type,working_directory,tool_name,tool_input,tool_call_id,agent_id" || gjson.Get(stdin, "working_directory").Str != proj {
		t.Errorf("stdin %s", stdin)
	}
	for _, want := range []string{"LETTA_HOOK_EVENT=PreToolUse\n", "LETTA_WORKING_DIR=" + proj + "\n", "USER_CWD=" + proj + "\n", "LETTA_AGENT_ID=agent-1\n", "AGENT_ID=agent-1\n", "\n" + proj + "\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if strings.Contains(text, "LETTA_CONVERSATION_ID") {
		t.Error("the parent's LETTA_CONVERSATION_ID reached the hook")
	}
}

func keysOf(s string) string {
	var k []string
	gjson.Parse(s).ForEach(func(key, _ gjson.Result) bool { k = append(k, key.Str); return true })
	return strings.Join(k, ",")
}

func TestTimeout_IsMilliseconds(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"sleep 5; exit 2","timeout":200}]}]}}`})
	res := run(t, e, "PreToolUse", bash)
	if res.Decision != "none" || res.Hooks[0].Status != hooks.StatusTimedOut {
		t.Errorf("%+v", res)
	}
}

func TestUserPromptSubmit_NotForACommand(t *testing.T) {
	e, _ := engine(t, map[string]string{"home/settings.json": settings("UserPromptSubmit", "", `exit 2`)})
	if res := run(t, e, "UserPromptSubmit", `{"prompt":"/help","is_command":true}`); res.Decision != "none" || len(res.Skipped) != 1 || res.Skipped[0].Reason != "command" {
		t.Errorf("%+v", res)
	}
	if res := run(t, e, "UserPromptSubmit", `{"prompt":"hi","is_command":false}`); res.Decision != "block" {
		t.Errorf("%+v", res)
	}
}

func TestDiscovery_AnExplicitNotTrustedKeepsTheProjectUnread(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	os.MkdirAll(filepath.Join(project, ".letta"), 0o755)
	os.WriteFile(filepath.Join(project, ".letta", "settings.local.json"), []byte(settings("Stop", "", "exit 2")), 0o600)
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: project, ProjectTrustKnown: true}})
	defer e.Close()
	e.Load()
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("an untrusted project's hooks were loaded: %v", list)
	}
}
