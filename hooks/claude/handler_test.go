package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestClaudeIf_Rules(t *testing.T) {
	bash := func(cmd string) string {
		return `{"tool_name": "Bash", "tool_input": {"command": ` + gjsonQuote(cmd) + `}}`
	}
	edit := func(path string) string {
		return `{"tool_name": "Edit", "tool_input": {"file_path": ` + gjsonQuote(path) + `}}`
	}
	for _, tc := range []struct {
		rule, input string
		want        bool
	}{
		{"Bash", bash("anything"), true},
		{"Bash", edit("/x"), false},
		{"Bash(*)", bash("ls"), true},
		{"Bash(git *)", bash("git commit -m x"), true},
		{"Bash(git *)", bash("gitk"), false},
		{"Bash(git commit:*)", bash("git commit -m x"), true},
		{"Bash(git commit:*)", bash("git commit"), true},
		{"Bash(git commit:*)", bash("git committed"), false},
		{"Bash(git commit:*)", bash("git status"), false},
		{"Bash(rm *)", bash("ls && rm -rf build"), true},
		{"Bash(rm *)", bash("cd x; FOO=1 BAR=2 rm -rf build"), true},
		{"Bash(rm *)", bash("ls | grep rm"), false},
		{"Bash(rm *)", bash("echo 'rm -rf /'"), false},   // quoted text is an argument, not a command
		{"Bash(rm *)", bash(`echo "hello"`), false},      // was: any quote matched every rule
		{"Bash(echo hello)", bash(`echo "hello"`), true}, // quotes removed before matching
		{`Bash(echo "hello")`, bash(`echo "hello"`), false},
		{"Bash(rm *)", bash("ls $(rm x)"), true},     // the substitution's command is checked
		{"Bash(rm *)", bash(`echo "unclosed`), true}, // unparsable: fails open
		{"Edit(*.ts)", edit("/repo/src/a.ts"), true},
		{"Edit(*.ts)", edit("/repo/src/a.tsx"), false},
		{"Edit(.env*)", edit("/repo/.env.local"), true},
		{"Edit(src/**/*.go)", edit("/repo/src/a/b/c.go"), true},
		{"Edit(src/*.go)", edit("/repo/src/a/b.go"), false},
		{"Edit(/repo/docs/*)", edit("/repo/docs/x.md"), true},
		{"Write(*.md)", edit("/x.md"), false},
		{"Edit(*.md)", `{"tool_name": "Write", "tool_input": {"file_path": "/x.md"}}`, false}, // Edit rules do not cover Write
		{"Edit(*.md)", `{"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "/x.ipynb"}}`, false},
		{"Read(secrets/**)", `{"tool_name": "Grep", "tool_input": {"pattern": "k", "path": "/r/secrets/a/b"}}`, true},
		{"Read", `{"tool_name": "Edit"}`, false},
		{"mcp__memory", `{"tool_name": "mcp__memory__create_entities"}`, true},
		{"mcp__memory", `{"tool_name": "mcp__memoryx__a"}`, false},
		{"mcp__*__read", `{"tool_name": "mcp__fs__read"}`, true},
		{"WebFetch(domain:example.com)", `{"tool_name": "WebFetch", "tool_input": {"url": "https://docs.example.com/a"}}`, true},
		{"WebFetch(domain:example.com)", `{"tool_name": "WebFetch", "tool_input": {"url": "https://example.org/"}}`, false},
		{"Grep(TODO)", `{"tool_name": "Grep", "tool_input": {"pattern": "x"}}`, true}, // unknown specifier: fails open
	} {
		r, err := parseIf(gjson.Parse(gjsonQuote(tc.rule)))
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		in := gjson.Parse(tc.input)
		if got := r.Match(in.Get("tool_name").Str, []byte(in.Get("tool_input").Raw)); got != tc.want {
			t.Errorf("%s on %s: %v, want %v", tc.rule, tc.input, got, tc.want)
		}
	}
	for _, bad := range []string{"", "Bash(git", "(x)", "Ba sh"} {
		if _, err := parseIf(gjson.Parse(gjsonQuote(bad))); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func gjsonQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func TestClaudeHandler_IfNarrowsAToolHook(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": `{"hooks": {
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no >&2; exit 2", "if": "Bash(rm *)"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "echo x", "if": "Bash(rm *)"}]}]}}`})
	e, _ := claudeEngine(t, root, nil)
	if res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "rm -rf x"}}`); res.Decision != hooks.DecisionDeny {
		t.Fatalf("rm: %+v", res)
	}
	if res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`); len(res.Hooks) != 0 {
		t.Fatalf("ls ran the hook: %+v", res)
	}
	if res := claudeRun(t, e, "Stop", `{}`); len(res.Hooks) != 0 {
		t.Fatalf("an if on Stop must never run: %+v", res)
	}
	_, warns := e.List("")
	if len(warns) != 1 || !strings.Contains(warns[0].Message, `"if" on Stop, which is not a tool event: it never runs`) {
		t.Fatalf("warnings %+v", warns)
	}
}

func TestClaudeHandler_ExecFormShellAndAsyncRewake(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": `{"hooks": {
		"UserPromptSubmit": [{"hooks": [
			{"type": "command", "command": "printf", "args": ["%s|%s|%s", "a  b", "$HOME 'q'", "dir=${CLAUDE_PROJECT_DIR}/x"]},
			{"type": "command", "command": "echo $0", "shell": "bash"},
			{"type": "command", "command": "echo x", "shell": "fish"},
			{"type": "command", "command": "printf", "args": "not an array"},
			{"type": "command", "command": "echo later", "asyncRewake": true}]}],
		"SessionEnd": [{"hooks": [{"type": "command", "command": "echo x", "asyncRewake": true}]}]}}`})
	e, _ := claudeEngine(t, root, nil)
	list, warns := e.List("")
	if len(list) != 5 {
		t.Fatalf("hooks %+v", list)
	}
	// The program gets no PWD, as Claude Code spawns it without a shell.
	if got := list[0].Handler.Command; got != `unset PWD; exec 'printf' '%s|%s|%s' 'a  b' '$HOME '\''q'\''' 'dir='"$CLAUDE_PROJECT_DIR"'/x'` {
		t.Errorf("exec form command %s", got)
	}
	if got := list[1].Handler.Command; got != `bash -c 'echo $0'` {
		t.Errorf("bash shell command %s", got)
	}
	if !list[3].Handler.Async || !list[3].Handler.Rewake || list[4].Handler.Async {
		t.Errorf("asyncRewake: %+v / SessionEnd %+v", list[3].Handler, list[4].Handler)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`ignoring "shell" "fish"`, `"args" must be an array of strings`, "running asyncRewake SessionEnd hook synchronously"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in\n%s", want, all)
		}
	}
	res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "p"}`)
	// Context comes in the order the hooks finished: the exec-form hook's
	// is the one from handler 0.
	var exec string
	for _, c := range res.AdditionalContext {
		if strings.HasSuffix(c.Hook, ":0:0") {
			exec = c.Text
		}
	}
	if want := `a  b|$HOME 'q'|dir=` + filepath.Join(root, "project") + `/x`; exec != want {
		t.Fatalf("exec form output %q", exec)
	}
	if res.Hooks[3].Status != hooks.StatusStarted {
		t.Fatalf("asyncRewake hook not started in the background: %+v", res.Hooks[3])
	}
}

func TestClaudeHandler_PluginPlaceholdersInExecForm(t *testing.T) {
	files := map[string]string{}
	claudePlugin(files, "p", `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "printf", "args": ["%s", "${CLAUDE_PLUGIN_ROOT}/x"]}]}]}}`)
	root := claudeFiles(t, files)
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.PluginDirs = []string{filepath.Join(root, "plugins")} })
	res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "p"}`)
	if want := filepath.Join(root, "plugins", "p") + "/x"; len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != want {
		t.Fatalf("got %+v, want %s", res.AdditionalContext, want)
	}
}
