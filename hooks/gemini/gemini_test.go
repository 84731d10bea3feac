package gemini

import (
	json "github.com/goccy/go-json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestMatchers_ToolsAreUnanchoredRegexesLifecycleIsExact(t *testing.T) {
	for _, tc := range []struct {
		exact   bool
		pattern string
		target  string
		want    bool
	}{
		{false, "", "run_shell_command", true},
		{false, " * ", "run_shell_command", true},
		{false, "shell", "run_shell_command", true},
		{false, "Shell", "run_shell_command", false},
		{false, "^run_", "run_shell_command", true},
		{false, "^shell$", "run_shell_command", false},
		{false, "read_file|write_file", "write_file", true},
		// Not a regex (RE2 or JavaScript): a literal name.
		{false, "run_shell_command(", "run_shell_command(", true},
		{false, "run_shell_command(", "run_shell_command", false},
		{false, "(?<!x)run", "run", false},
		{true, "startup", "startup", true},
		{true, " startup ", "startup", true},
		{true, "start", "startup", false},
		{true, "start.*", "startup", false},
		{true, "*", "resume", true},
	} {
		compile := toolMatcher
		if tc.exact {
			compile = exactMatcher
		}
		m, err := compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Match([]string{tc.target}); got != tc.want {
			t.Errorf("matcher %q on %q: %v, want %v", tc.pattern, tc.target, got, tc.want)
		}
	}
}

func TestParse_TextByExitCodeAndJSONOnAnyCode(t *testing.T) {
	ev := &geminiEvents[0] // BeforeTool
	code := func(n int) *int { return &n }
	for _, tc := range []struct {
		name           string
		raw            hooks.RawResult
		block          bool
		reason, sysMsg string
		status         hooks.Status
	}{
		{"json deny on 0", hooks.RawResult{ExitCode: code(0), Stdout: `{"decision":"deny","reason":"r"}`}, true, "r", "", hooks.StatusBlocked},
		{"json allow on 2", hooks.RawResult{ExitCode: code(2), Stdout: `{"decision":"allow"}`}, false, "", "", hooks.StatusFailed},
		{"json on stderr", hooks.RawResult{ExitCode: code(1), Stderr: `{"decision":"block","reason":"e"}`}, true, "e", "", hooks.StatusBlocked},
		{"text on 0", hooks.RawResult{ExitCode: code(0), Stdout: "hello\n"}, false, "", "hello", hooks.StatusSucceeded},
		{"text on 1", hooks.RawResult{ExitCode: code(1), Stdout: "careful"}, false, "", "Warning: careful", hooks.StatusFailed},
		{"text on 7", hooks.RawResult{ExitCode: code(7), Stderr: "no"}, true, "no", "", hooks.StatusBlocked},
		{"nothing on 2", hooks.RawResult{ExitCode: code(2)}, false, "", "", hooks.StatusFailed},
		{"killed by a signal", hooks.RawResult{Stdout: "x"}, false, "", "x", hooks.StatusSucceeded},
		{"a JSON array is text", hooks.RawResult{ExitCode: code(2), Stdout: `[1]`}, true, "[1]", "", hooks.StatusBlocked},
		// A stopReason is not a reason (the combined block words it).
		{"deny with only stopReason", hooks.RawResult{ExitCode: code(0), Stdout: `{"decision":"deny","stopReason":"halt"}`}, true, "", "", hooks.StatusBlocked},
	} {
		o := ev.parse(tc.raw, false)
		if o.Block != tc.block || o.Reason != tc.reason || o.SystemMessage != tc.sysMsg || o.Status != tc.status {
			t.Errorf("%s: block %v reason %q message %q status %s", tc.name, o.Block, o.Reason, o.SystemMessage, o.Status)
		}
	}
}

func TestPrepareInput_TimestampFollowsTheEventName(t *testing.T) {
	out := prepareInput(nil, []byte(`{"session_id":"s","cwd":"/w","hook_event_name":"BeforeTool","tool_name":"x"}`), hooks.Session{})
	var keys []string
	gjson.ParseBytes(out).ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.Str); return true })
	if got := gjson.Get(string(out), "@keys").Raw; got != `["session_id","cwd","hook_event_name","timestamp","tool_name"]` {
		t.Errorf("keys %s", got)
	}
	given := []byte(`{"hook_event_name":"X","timestamp":"t"}`)
	if got := prepareInput(nil, given, hooks.Session{}); string(got) != string(given) {
		t.Errorf("a given timestamp was changed: %s", got)
	}
}

// GEMINI_PLANS_DIR, as Gemini CLI sets it for every hook: the host's own
// value, else <home>/tmp/<project id>/<session>/plans with the id that
// projects.json records, or the one Gemini CLI would give a new project.
func TestPlansDir_AsGeminiCLIGivesIt(t *testing.T) {
	t.Setenv("GEMINI_PLANS_DIR", "")
	home := t.TempDir()
	if got, want := plansDir(home, "/work/My Proj", "s1"), filepath.Join(home, "tmp", "my-proj", "s1", "plans"); got != want {
		t.Errorf("new project: %q, want %q", got, want)
	}
	if err := os.WriteFile(filepath.Join(home, "projects.json"), []byte(`{"projects": {"/work/My Proj": "my-proj-2", "/evil": "../.."}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, want := plansDir(home, "/work/My Proj", "s1"), filepath.Join(home, "tmp", "my-proj-2", "s1", "plans"); got != want {
		t.Errorf("registered project: %q, want %q", got, want)
	}
	if got, want := plansDir(home, "/evil", "../x"), filepath.Join(home, "tmp", "evil", "plans"); got != want {
		t.Errorf("path syntax in the id or session: %q, want %q", got, want)
	}
	t.Setenv("GEMINI_PLANS_DIR", "/host/plans")
	if got := plansDir(home, "/work/My Proj", "s1"); got != "/host/plans" {
		t.Errorf("host value: %q", got)
	}
}

// Gemini CLI's hooks tests: mode NONE leaves allowedFunctionNames empty,
// whatever names the hooks listed; otherwise the names add up.
func TestToolConfig_NoneLeavesNoFunctions(t *testing.T) {
	out := func(tc string) hooks.Outcome {
		return hooks.Outcome{Output: map[string]json.RawMessage{"toolConfig": json.RawMessage(tc)}}
	}
	got := string(unionToolConfig([]hooks.Outcome{out(`{"mode":"ANY","allowedFunctionNames":["a"]}`), out(`{"mode":"NONE","allowedFunctionNames":["b"]}`)}))
	if got != `{"allowedFunctionNames":[],"mode":"NONE"}` {
		t.Errorf("NONE: %s", got)
	}
	got = string(unionToolConfig([]hooks.Outcome{out(`{"mode":"ANY","allowedFunctionNames":["a"]}`), out(`{"allowedFunctionNames":["b","a"]}`)}))
	if got != `{"allowedFunctionNames":["a","b"],"mode":"ANY"}` {
		t.Errorf("ANY: %s", got)
	}
}

// Gemini CLI's hooks tests: a hook with a name is disabled by its name in
// hooksConfig.disabled, and its command no longer disables it; a hook
// without one is disabled by its command.
func TestDisabled_ANamedHookByItsName(t *testing.T) {
	home := t.TempDir()
	t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(home, "no-system.json"))
	settings := `{"hooksConfig": {"disabled": ["echo named", "quiet", "echo plain"]}, "hooks": {"BeforeTool": [{"hooks": [
		{"type": "command", "name": "loud", "command": "echo named"},
		{"type": "command", "name": "quiet", "command": "echo other"},
		{"type": "command", "command": "echo plain"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: home}, Discover: hooks.DiscoverOptions{Home: home}})
	t.Cleanup(e.Close)
	e.Load()
	list, _ := e.List("")
	got := map[string]bool{}
	for _, h := range list {
		got[h.Handler.Command] = h.Enabled
	}
	if want := map[string]bool{"echo named": true, "echo other": false, "echo plain": false}; !reflect.DeepEqual(got, want) {
		t.Errorf("enabled %v, want %v", got, want)
	}
}

// In a folder the host says is not trusted, Gemini CLI loads no settings
// hooks (system, user, workspace); session hooks still run.
func TestUntrustedFolder_NoSettingsHooks(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	sys := filepath.Join(home, "system.json")
	for path, cmd := range map[string]string{sys: "echo system", filepath.Join(home, "settings.json"): "echo user", filepath.Join(project, ".gemini", "settings.json"): "echo project"} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(`{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "`+cmd+`"}]}]}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	commands := func(trusted, known bool) []string {
		e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: project}, Discover: hooks.DiscoverOptions{
			Home: home, Managed: sys, ProjectRoot: project, ProjectTrusted: trusted, ProjectTrustKnown: known,
			SessionHooks: []byte(`{"BeforeTool": [{"hooks": [{"type": "command", "command": "echo session"}]}]}`)}})
		t.Cleanup(e.Close)
		e.Load()
		list, _ := e.List("")
		var out []string
		for _, h := range list {
			out = append(out, h.Handler.Command)
		}
		return out
	}
	// Gemini CLI's order: runtime (session) hooks, then its merged
	// settings' arrays (user, workspace, system), then extensions.
	if got := commands(true, true); !reflect.DeepEqual(got, []string{"echo session", "echo user", "echo project", "echo system"}) {
		t.Errorf("trusted: %q", got)
	}
	if got := commands(false, true); !reflect.DeepEqual(got, []string{"echo session"}) {
		t.Errorf("host says not trusted: %q, want the session hook only", got)
	}
}

// The text of a block, as Gemini CLI words it from its merged answer
// (checked against the real CLI: a BeforeTool deny whose only text is
// stopReason reaches the model as "No reason provided"): the stopReasons
// of the hooks that said continue: false, else every reason, else "No
// reason provided".
func TestCombine_BlockReason(t *testing.T) {
	ev := &geminiEvents[0] // BeforeTool
	code := func(n int) *int { return &n }
	for _, tc := range []struct {
		name    string
		stdouts []string
		want    string
	}{
		{"deny with only stopReason", []string{`{"decision":"deny","stopReason":"halt"}`}, noReason},
		{"deny with nothing", []string{`{"decision":"deny"}`}, noReason},
		{"reasons joined", []string{`{"decision":"allow","reason":"fine"}`, `{"decision":"deny","reason":"no"}`}, "fine\nno"},
		{"continue false: its stopReason over every reason", []string{`{"decision":"deny","reason":"no"}`, `{"continue":false,"stopReason":"halt","reason":"r"}`}, "halt"},
	} {
		var outs []hooks.Outcome
		for _, s := range tc.stdouts {
			outs = append(outs, ev.parse(hooks.RawResult{ExitCode: code(0), Stdout: s}, false))
		}
		var res hooks.Result
		ev.combine(&res, outs)
		if res.Decision != hooks.DecisionDeny || res.Reason != tc.want {
			t.Errorf("%s: decision %q reason %q, want deny %q", tc.name, res.Decision, res.Reason, tc.want)
		}
	}
}
