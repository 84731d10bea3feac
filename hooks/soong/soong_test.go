package soong

import (
	"context"
	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/codex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/spill"
)

// soongEngine loads a soong home whose hooks.json has the given "hooks" value,
// with hooks enabled, for a project folder of its own.
func soongEngine(t *testing.T, hooksObj string, mod func(o *hooks.Options)) (*hooks.Engine, string) {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	home := soongHome(t, `{"version": 1, "hooks": `+hooksObj+`}`, soongOn)
	project := t.TempDir()
	opts := hooks.Options{Profile: Profile, Session: hooks.Session{ID: "soong-test", Cwd: project},
		Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: project}}
	if mod != nil {
		mod(&opts)
	}
	e := hooks.New(opts)
	t.Cleanup(e.Close)
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	if _, warnings := e.List(""); len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	return e, project
}

func cmdHook(command string) string {
	b, _ := json.Marshal(map[string]string{"type": "command", "command": command})
	return string(b)
}

func statuses(res *hooks.Result) string {
	var out []string
	for _, h := range res.Hooks {
		out = append(out, string(h.Status))
	}
	return strings.Join(out, ",")
}

func TestSoongRun_SerialInConfigurationOrder(t *testing.T) {
	// Each hook sees the file its predecessor wrote: they never overlap.
	e, project := soongEngine(t, `{"PreToolUse": [
		{"hooks": [`+cmdHook(`test ! -e one && echo 1 > one`)+`]},
		{"hooks": [`+cmdHook(`test -e one && test ! -e two && echo 2 > two`)+`, `+cmdHook(`test -e two`)+`]}]}`, nil)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(res); got != "succeeded,succeeded,succeeded" {
		t.Fatalf("statuses %s: %+v", got, res.Hooks)
	}
	if _, err := os.Stat(filepath.Join(project, "two")); err != nil {
		t.Fatalf("hooks did not run in the project folder: %v", err)
	}
}

func TestSoongRun_FirstDenyEndsTheRunAndTheRestAreReported(t *testing.T) {
	deny := `echo '{"decision":"deny","reason":"first"}'`
	e, _ := soongEngine(t, `{"PreToolUse": [{"hooks": [`+cmdHook("exit 1")+`, `+cmdHook(deny)+`, `+cmdHook(`echo '{"decision":"deny","reason":"second"}'`)+`, `+cmdHook("touch ran")+`]}]}`, nil)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"Bash"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionDeny || res.Reason != "first" || statuses(res) != "failed,blocked" {
		t.Fatalf("decision %s %q statuses %s", res.Decision, res.Reason, statuses(res))
	}
	if len(res.Skipped) != 2 || res.Skipped[0].Reason != hooks.SkipAfterDeny || !strings.HasSuffix(res.Skipped[1].Key, ":pre_tool_use:0:3") {
		t.Fatalf("skipped %+v", res.Skipped)
	}
}

func TestSoongRun_ObserveOnlyEventsRunEveryHookAndNeverDeny(t *testing.T) {
	deny := cmdHook(`echo '{"decision":"deny","reason":"no"}'`)
	for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PostToolUse"} {
		e, _ := soongEngine(t, `{"`+ev+`": [{"hooks": [`+deny+`, `+deny+`]}]}`, nil)
		res, err := e.Run(context.Background(), ev, []byte(`{"tool_name":"Read","prompt":"p","tool_response":"ok"}`), "")
		if err != nil {
			t.Fatal(err)
		}
		if res.Decision != hooks.DecisionNone || res.Reason != "" || statuses(res) != "succeeded,succeeded" || len(res.Skipped) != 0 {
			t.Errorf("%s: decision %s statuses %s skipped %v", ev, res.Decision, statuses(res), res.Skipped)
		}
	}
}

func TestSoongRun_HookCwdIsTheProjectAndIsChecked(t *testing.T) {
	e, project := soongEngine(t, `{"Stop": [{"hooks": [`+cmdHook(`printf '{"metadata":{"pwd":"%s"}}' "$(pwd -P)"`)+`]}]}`, func(o *hooks.Options) {
		sub := filepath.Join(o.Discover.ProjectRoot, "sub")
		if err := os.Mkdir(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		o.Session.Cwd = sub
	})
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(project)
	if got := gjson.GetBytes(res.Hooks[0].Metadata, "pwd").Str; got != want {
		t.Fatalf("hook ran in %q, want the project %q (%+v)", got, want, res.Hooks[0])
	}
	if err := os.RemoveAll(project); err != nil {
		t.Fatal(err)
	}
	res, err = e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks[0].Status != hooks.StatusFailed || res.Hooks[0].Error == nil || !strings.Contains(*res.Hooks[0].Error, "is not a directory") {
		t.Fatalf("missing project: %+v", res.Hooks[0])
	}
}

func TestSoongRun_EnvironmentAllowlist(t *testing.T) {
	t.Setenv("SOONG_TEST_SECRET", "s3cret")
	t.Setenv("LANG", "C.UTF-8")
	report := cmdHook(`printf '{"metadata":{"secret":"%s","lang":"%s","home":"%s","path":%s}}' "${SOONG_TEST_SECRET:-unset}" "${LANG:-unset}" "$SOONG_AGENT_HOME" "$(test -n "$PATH" && echo true || echo false)"`)
	hooksObj := `{"SessionStart": [{"hooks": [` + report + `]}]}`
	run := func(e *hooks.Engine) gjson.Result {
		res, err := e.Run(context.Background(), "SessionStart", nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hooks) != 1 || res.Hooks[0].Status != hooks.StatusSucceeded {
			t.Fatalf("%+v", res.Hooks)
		}
		return gjson.ParseBytes(res.Hooks[0].Metadata)
	}
	e, _ := soongEngine(t, hooksObj, nil)
	m := run(e)
	if m.Get("secret").Str != "unset" || m.Get("lang").Str != "C.UTF-8" || !m.Get("path").Bool() || m.Get("home").Str != e.Session().Home {
		t.Fatalf("default allowlist: %s", m.Raw)
	}
	e, _ = soongEngine(t, hooksObj, func(o *hooks.Options) { o.EnvAllowlist = []string{"SOONG_TEST_SECRET", "PATH"} })
	m = run(e)
	if m.Get("secret").Str != "s3cret" || m.Get("lang").Str != "unset" || m.Get("home").Str != e.Session().Home {
		t.Fatalf("host allowlist: %s", m.Raw)
	}
}

func TestSoongRun_DisabledHooksAreSkipped(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	home := soongHome(t, `{"version": 1, "hooks": {"Stop": [{"hooks": [`+cmdHook(`echo '{"decision":"deny"}'`)+`]}]}}`, "[hooks]\nenabled = false\n")
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s", Cwd: t.TempDir()}, Discover: hooks.DiscoverOptions{Home: home}})
	t.Cleanup(e.Close)
	e.Load()
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionNone || len(res.Hooks) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "disabled" {
		t.Fatalf("%+v", res)
	}
	if sum := e.Summary(); sum.Installed != 1 || sum.Runnable != 0 || e.AwaitingReview() != 0 {
		t.Fatalf("summary %+v", sum)
	}
}

func TestSoongRun_MatchersSelectOnTheWholeInput(t *testing.T) {
	e, project := soongEngine(t, `{"PreToolUse": [
		{"matcher": {"tool": "Write", "pathPrefix": "secrets/"}, "hooks": [`+cmdHook(`echo '{"decision":"deny","reason":"secret"}'`)+`]},
		{"matcher": {"tag": "dangerous"}, "hooks": [`+cmdHook(`echo '{"decision":"deny","reason":"dangerous"}'`)+`]}]}`, nil)
	for _, tc := range []struct{ input, reason string }{
		{`{"tool_name":"Write","tool_input":{"file_path":"secrets/k"}}`, "secret"},
		{`{"tool_name":"Write","tool_input":{"file_path":"` + jsonEsc(filepath.Join(project, "secrets", "k")) + `"}}`, "secret"},
		{`{"tool_name":"Write","tool_input":{"file_path":"secretsx/k"}}`, ""},
		{`{"tool_name":"Edit","tool_input":{"file_path":"secrets/k"}}`, ""},
		{`{"tool_name":"Bash","tags":["dangerous"]}`, "dangerous"},
		{`{"tool_name":"Bash","tags":["readonly"]}`, ""},
	} {
		res, err := e.Run(context.Background(), "PreToolUse", []byte(tc.input), "")
		if err != nil {
			t.Fatal(err)
		}
		if res.Reason != tc.reason {
			t.Errorf("%s: reason %q, want %q", tc.input, res.Reason, tc.reason)
		}
	}
}

func TestSoongPrepareInput_LargeToolResponseBecomesAnArtifact(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	post := Profile.Event("PostToolUse")
	s := hooks.Session{ID: "prep"}
	big := strings.Repeat("0123456789abcdef\n", 700) // 11,900 bytes: above 2500 tokens
	for _, tc := range []struct {
		name, input, file string
	}{
		{"a string is saved as its text", `{"tool_name":"Read","tool_response":` + jsonString(big) + `,"tool_use_id":"c"}`, big},
		{"an object is saved as its JSON", `{"tool_response":{"stdout":` + jsonString(big) + `,"exit_code":0}}`, `{"stdout":` + jsonString(big) + `,"exit_code":0}`},
	} {
		out := soongPrepareInput(post, []byte(tc.input), s)
		r := gjson.GetBytes(out, "tool_response")
		ref := r.Get("artifact_ref").Str
		data, err := os.ReadFile(ref)
		if err != nil || string(data) != tc.file {
			t.Fatalf("%s: artifact %q: %v (%d bytes, want %d)", tc.name, ref, err, len(data), len(tc.file))
		}
		if filepath.Dir(ref) != spill.Dir("prep") || r.Get("bytes").Int() != int64(len(tc.file)) {
			t.Errorf("%s: %s", tc.name, r.Raw)
		}
		summary := r.Get("summary").Str
		if len(summary) > 4*soongSummaryTokens+200 || !strings.Contains(summary, "tokens truncated") || !strings.HasPrefix(summary, "Warning: truncated output") {
			t.Errorf("%s: summary (%d bytes) %q", tc.name, len(summary), summary)
		}
		if !gjson.ValidBytes(out) || gjson.GetBytes(out, "tool_use_id").Str != gjson.Get(tc.input, "tool_use_id").Str {
			t.Errorf("%s: input damaged: %.200s", tc.name, out)
		}
	}
	small := `{"tool_response":"hello"}`
	if out := soongPrepareInput(post, []byte(small), s); string(out) != small {
		t.Errorf("small response changed: %s", out)
	}
	large := `{"tool_response":` + jsonString(big) + `}`
	if out := soongPrepareInput(Profile.Event("PreToolUse"), []byte(large), s); string(out) != large {
		t.Error("another event's input changed")
	}
}

func TestSoongPrepareInput_UnwritableSpillKeepsTheWholeResponse(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", blocker) // a file: no spill folder can be made under it
	in := `{"tool_response":` + jsonString(strings.Repeat("x", 20000)) + `}`
	if out := soongPrepareInput(Profile.Event("PostToolUse"), []byte(in), hooks.Session{ID: "s"}); string(out) != in {
		t.Fatalf("response lost: %.100s", out)
	}
}

func TestSoongRun_NoArtifactWithoutAHookToReadIt(t *testing.T) {
	e, _ := soongEngine(t, `{"PostToolUse": [{"matcher": {"tool": "Read"}, "hooks": [`+cmdHook(`cat > "$TMPDIR/in.json"`)+`]}]}`, nil)
	big := jsonString(strings.Repeat("y", 20000))
	if _, err := e.Run(context.Background(), "PostToolUse", []byte(`{"tool_name":"Bash","tool_response":`+big+`}`), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spill.Dir("soong-test")); !os.IsNotExist(err) {
		t.Fatalf("an artifact was written with no hook to read it: %v", err)
	}
	if _, err := e.Run(context.Background(), "PostToolUse", []byte(`{"tool_name":"Read","tool_response":`+big+`}`), ""); err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile(filepath.Join(os.Getenv("TMPDIR"), "in.json"))
	if err != nil {
		t.Fatal(err)
	}
	if ref := gjson.GetBytes(in, "tool_response.artifact_ref").Str; filepath.Dir(ref) != spill.Dir("soong-test") {
		t.Fatalf("hook input: %.300s", in)
	}
	if err := e.EndSession(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(spill.Dir("soong-test")); !os.IsNotExist(err) {
		t.Fatalf("artifact left after the session: %v", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestSoongProfile_IsRegisteredAndRunsCommandsOnly(t *testing.T) {
	p, ok := hooks.LookupProfile("soong")
	if !ok || p != Profile || strings.Join(p.Handlers(), ",") != "command" || strings.Join(codex.Profile.Handlers(), ",") != "command,mcp_tool" {
		t.Fatalf("%v %v", ok, p)
	}
}
