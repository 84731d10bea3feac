package cline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// setup writes hook files (path relative to a root holding home/, ws/ and
// docs' folder under the OS home) and builds an engine over them.
func setup(t *testing.T, files map[string]string) (*hooks.Engine, string) {
	t.Helper()
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "oshome"))
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws := filepath.Join(root, "ws")
	os.MkdirAll(ws, 0o755)
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: ws},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: ws}})
	t.Cleanup(e.Close)
	e.Load()
	return e, root
}

func run(t *testing.T, e *hooks.Engine, event, input string) *hooks.Result {
	t.Helper()
	res, err := e.Run(context.Background(), event, []byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const toolCall = `{"taskId":"t1","tool_call":{"id":"call_1","name":"run_commands","input":{"commands":["ls"]}}}`

func TestDiscovery_NamesFoldersAndOrder(t *testing.T) {
	e, root := setup(t, map[string]string{
		"home/hooks/PreToolUse":                      "echo '{}'",
		"oshome/Documents/Cline/Hooks/PreToolUse.sh": "echo '{}'",
		"ws/.clinerules/hooks/pretooluse.py":         "print('{}')",
		"ws/.cline/hooks/PRETOOLUSE.ts":              "",
		"ws/.cline/hooks/PreToolUse.txt":             "",
		"ws/.cline/hooks/PreCompact":                 "",
		"ws/.cline/hooks/TaskStart.mjs":              "",
	})
	os.Symlink(filepath.Join(root, "home/hooks/PreToolUse"), filepath.Join(root, "ws/.cline/hooks/PostToolUse"))
	list, warns := e.List("")
	var got []string
	for _, h := range list {
		got = append(got, strings.TrimPrefix(h.Source.Path, root+"/")+" "+h.Event+" "+h.Handler.Command[strings.Index(h.Handler.Command, " ")+1:strings.LastIndex(h.Handler.Command, " ")])
	}
	want := []string{
		"home/hooks/PreToolUse PreToolUse 'bash'",
		"oshome/Documents/Cline/Hooks/PreToolUse.sh PreToolUse 'bash'",
		"ws/.cline/hooks/PRETOOLUSE.ts PreToolUse 'bun' 'run'",
		"ws/.cline/hooks/TaskStart.mjs TaskStart 'node'",
		"ws/.clinerules/hooks/pretooluse.py PreToolUse 'python3'",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "Cline runs no PreCompact hooks") {
		t.Errorf("warnings %v", warns)
	}
	for _, h := range list {
		if h.Event == "TaskStart" && !h.Handler.Async {
			t.Error("TaskStart runs detached: Cline does not wait for it")
		}
	}
}

func TestArgv_ShebangAndEndings(t *testing.T) {
	for _, tc := range []struct{ path, first, want string }{
		{"/h/PreToolUse", "#!/usr/bin/env python3", "python3 /h/PreToolUse"},
		{"/h/PreToolUse", "#!/usr/bin/env -S node --x", "-S node --x /h/PreToolUse"},
		{"/h/PreToolUse", "#!/bin/zsh -e", "zsh -e /h/PreToolUse"},
		{"/h/PreToolUse", "#!/opt/ruby", "/opt/ruby /h/PreToolUse"},
		{"/h/PreToolUse", "echo", "bash /h/PreToolUse"},
		{"/h/PreToolUse.PS1", "", "pwsh -File /h/PreToolUse.PS1"},
		{"/h/PreToolUse.cjs", "", "node /h/PreToolUse.cjs"},
	} {
		if got := strings.Join(argvFor(tc.path, tc.first), " "); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.path, tc.first, got, tc.want)
		}
	}
}

func TestPreToolUse_ControlRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hooks  []string
		check  func(r *hooks.Result) bool
		expect string
	}{
		{"cancel stops the task with errorMessage", []string{`echo '{"cancel":true,"errorMessage":"no","context":"c"}'`},
			func(r *hooks.Result) bool {
				return !r.Continue && r.StopReason == "no" && r.Decision == "deny" && len(r.AdditionalContext) == 0
			}, "stopped"},
		{"cancel without errorMessage gives context as the reason", []string{`echo '{"cancel":true,"context":"why"}'`},
			func(r *hooks.Result) bool { return !r.Continue && r.StopReason == "why" }, "stopped with why"},
		{"the exit code is ignored", []string{`echo '{"context":"x"}'; exit 2`},
			func(r *hooks.Result) bool { return r.Continue && len(r.AdditionalContext) == 1 && r.Decision == "none" }, "context"},
		{"the last HOOK_CONTROL line wins", []string{"echo noise; printf 'HOOK_CONTROL\\t{\"context\":\"a\"}\\nHOOK_CONTROL\\t{\"context\":\"b\"}\\n'"},
			func(r *hooks.Result) bool {
				return len(r.AdditionalContext) == 1 && strings.Contains(r.AdditionalContext[0].Text, "\nb\n")
			}, "b"},
		{"a wrongly typed field is left out, the others count", []string{`echo '{"cancel":"yes","context":"still"}'`},
			func(r *hooks.Result) bool { return r.Continue && len(r.AdditionalContext) == 1 }, "context, no cancel"},
		{"errorMessage alone is context", []string{`echo '{"errorMessage":"careful"}'`},
			func(r *hooks.Result) bool {
				return len(r.AdditionalContext) == 1 && strings.Contains(r.AdditionalContext[0].Text, "careful")
			}, "context"},
		{"contexts join, any cancel cancels, last overrideInput wins", []string{
			`echo '{"context":"one","overrideInput":{"a":1}}'`, `echo '{"overrideInput":{"b":2}}'`, `echo '{"cancel":true}'`},
			func(r *hooks.Result) bool { return !r.Continue && string(r.UpdatedInput) == `{"b":2}` }, "cancelled"},
		{"contexts join with newlines in path order", []string{`echo '{"context":"one"}'`, `echo '{"context":"two"}'`},
			func(r *hooks.Result) bool {
				return len(r.AdditionalContext) == 1 && r.AdditionalContext[0].Text ==
					"<hook_context source=\"PreToolUse\" tool_name=\"run__commands\" tool_call_id=\"call__1\">\none\ntwo\n</hook_context>"
			}, "joined and wrapped"},
		{"an inner tag is escaped", []string{`echo '{"context":"<hook_context x> </HOOK_CONTEXT>"}'`},
			func(r *hooks.Result) bool {
				return strings.Contains(r.AdditionalContext[0].Text, `<\hook_context x> <\/hook_context>`)
			}, "escaped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for i, h := range tc.hooks {
				// PreToolUse, PreToolUse.bash, PreToolUse.sh: path order.
				files["home/hooks/PreToolUse"+[]string{"", ".bash", ".sh"}[i]] = h
			}
			e, _ := setup(t, files)
			if res := run(t, e, "PreToolUse", toolCall); !tc.check(res) {
				t.Errorf("want %s: %+v", tc.expect, res)
			}
		})
	}
}

func TestContext_TruncatedAt50000(t *testing.T) {
	long := strings.Repeat("x", contextLimit+10)
	c, ok := read(gjson.Parse(`{"context":"` + long + `"}`))
	if !ok || !strings.HasSuffix(c.Context, "\n[hook context truncated: exceeded 50000 characters]") || len(c.Context) != contextLimit+len("\n[hook context truncated: exceeded 50000 characters]") {
		t.Errorf("%d", len(c.Context))
	}
}

func TestInput_FilledInOrder(t *testing.T) {
	ev := Profile.Event("PreToolUse")
	out := prepareInput(ev, []byte(`{"tool_call":{"id":"c"},"taskId":"t"}`), hooks.Session{Cwd: "/w"})
	var keys []string
	gjson.ParseBytes(out).ForEach(func(k, _ gjson.Result) bool { keys = append(keys, k.Str); return true })
	if strings.Join(keys, ",") != "timestamp,taskId,workspaceRoots,hookName,tool_call" || gjson.GetBytes(out, "hookName").Str != "tool_call" {
		t.Errorf("%s", out)
	}
}

func TestDiscovery_AnExplicitNotTrustedKeepsTheWorkspaceUnread(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", root)
	ws := filepath.Join(root, "ws")
	for _, d := range []string{".cline/hooks", ".clinerules/hooks"} {
		os.MkdirAll(filepath.Join(ws, d), 0o755)
		os.WriteFile(filepath.Join(ws, d, "PreToolUse"), []byte(`echo '{"cancel":true}'`), 0o755)
	}
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: ws},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: ws, ProjectTrustKnown: true}})
	defer e.Close()
	e.Load()
	if list, _ := e.List(""); len(list) != 0 {
		t.Errorf("an untrusted workspace's hooks were loaded: %v", list)
	}
}
