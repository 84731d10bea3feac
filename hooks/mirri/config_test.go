package mirri

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// mirriHome writes a Mirri user folder whose config.toml is doc.
func mirriHome(t *testing.T, doc string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func mirriDiscover(t *testing.T, doc string, opts hooks.DiscoverOptions) (*hooks.Discovery, string) {
	t.Helper()
	t.Setenv(mirriRewriteEnv, "")
	opts.Home = mirriHome(t, doc)
	return discoverMirri(Profile, opts), filepath.Join(opts.Home, "config.toml")
}

func TestMirriConfig_RulesBecomeHooksKeyedByFileEventAndIndex(t *testing.T) {
	d, path := mirriDiscover(t, `
model = "m"   # Mirri's own settings are not read

[[hooks]]
event = "PreToolUse"
matcher = "Bash"
command = "guard"
timeout = 5
failClosed = true

[[hooks]]
event = "Stop"
command = "stop-check"

[tui]
theme = "dark"
`, hooks.DiscoverOptions{})
	if len(d.Fatal) > 0 || len(d.Warnings) > 0 {
		t.Fatalf("fatal %v, warnings %v", d.Fatal, d.Warnings)
	}
	if len(d.Hooks) != 2 {
		t.Fatalf("got %d hooks", len(d.Hooks))
	}
	pre, stop := d.Hooks[0], d.Hooks[1]
	if pre.Key != path+":pre_tool_use:0:0" || stop.Key != path+":stop:1:0" {
		t.Errorf("keys %q, %q", pre.Key, stop.Key)
	}
	if pre.Matcher != "Bash" || !pre.HasMatcher || stop.HasMatcher {
		t.Errorf("matchers %q/%v, %q/%v", pre.Matcher, pre.HasMatcher, stop.Matcher, stop.HasMatcher)
	}
	if pre.Handler.Timeout != 5 || stop.Handler.Timeout != 30 {
		t.Errorf("timeouts %d, %d; want 5 and the default 30", pre.Handler.Timeout, stop.Handler.Timeout)
	}
	if !pre.Handler.FailClosed || stop.Handler.FailClosed {
		t.Errorf("failClosed %v, %v", pre.Handler.FailClosed, stop.Handler.FailClosed)
	}
	for _, h := range d.Hooks {
		if h.Source != (hooks.Source{Layer: hooks.LayerUser, Path: path}) || h.Trust != hooks.TrustTrusted || !h.Enabled || h.Policy != "" {
			t.Errorf("%s: source %+v trust %s enabled %v policy %q", h.Key, h.Source, h.Trust, h.Enabled, h.Policy)
		}
	}
}

func TestMirriConfig_InlineArrayOfRulesIsTheSameTable(t *testing.T) {
	d, path := mirriDiscover(t, `hooks = [
  {event = "Notification", matcher = "task\\.completed", command = "notify"},
  {event = "SessionStart", command = "hello", timeout = 600},
]
`, hooks.DiscoverOptions{})
	if len(d.Fatal) > 0 || len(d.Hooks) != 2 {
		t.Fatalf("fatal %v, hooks %d", d.Fatal, len(d.Hooks))
	}
	if d.Hooks[0].Key != path+":notification:0:0" || d.Hooks[1].Handler.Timeout != 600 {
		t.Errorf("got %s timeout %d", d.Hooks[0].Key, d.Hooks[1].Handler.Timeout)
	}
}

func TestMirriConfig_NoFileNoHooks(t *testing.T) {
	t.Setenv(mirriRewriteEnv, "")
	d := discoverMirri(Profile, hooks.DiscoverOptions{Home: t.TempDir()})
	if len(d.Hooks) != 0 || len(d.Fatal) != 0 || len(d.Warnings) != 0 {
		t.Fatalf("%+v", d)
	}
}

func TestMirriConfig_UnreadableFileIsFatal(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "config.toml"), 0o700); err != nil {
		t.Fatal(err)
	}
	d := discoverMirri(Profile, hooks.DiscoverOptions{Home: home})
	if len(d.Fatal) != 1 || !strings.Contains(d.Fatal[0].Error(), "config.toml") {
		t.Fatalf("fatal %v", d.Fatal)
	}
}

// The spec: [[hooks]] allows only five fields; any other makes the config
// fail to load. hookd names the field and its line, and reports every
// problem of the file at once; no hook of the file is loaded.
func TestMirriConfig_StrictRulesFailWithFieldAndLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		want []string
	}{
		{"unknown field", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nasync = true\n",
			[]string{`line 4: unknown field "async"`, "event, matcher, command, timeout, failClosed"}},
		{"field in another case", "[[hooks]]\nEvent = \"Stop\"\ncommand = \"x\"\n",
			[]string{`line 2: unknown field "Event"`, `line 1: a [[hooks]] rule needs the field "event"`}},
		{"sub-table of a rule", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n[hooks.options]\nquiet = true\n",
			[]string{`line 4: unknown field "options"`}},
		{"dotted key", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nextra.a = 1\n",
			[]string{`line 4: unknown field "extra"`}},
		{"inline rule", "hooks = [\n {event = \"Stop\", command = \"x\"},\n {event = \"Stop\",\n  command = \"y\", type = \"command\"},\n]\n",
			[]string{`line 4: unknown field "type"`}},
		{"codex shape", "[hooks]\nStop = []\n", []string{"line 1: hooks is a table", "[[hooks]]"}},
		{"not an array", "hooks = \"x\"\n", []string{"line 1: hooks must be [[hooks]] entries"}},
		{"missing command", "\n[[hooks]]\nevent = \"Stop\"\n", []string{`line 2: a [[hooks]] rule needs the field "command"`}},
		{"empty command", "[[hooks]]\nevent = \"Stop\"\ncommand = \"  \"\n", []string{`line 3: field "command" is empty`}},
		{"unknown event", "[[hooks]]\nevent = \"BeforeTool\"\ncommand = \"x\"\n", []string{`line 2: unknown event "BeforeTool"`, "PreLlmRequest"}},
		{"event not a string", "[[hooks]]\nevent = 1\ncommand = \"x\"\n", []string{`line 2: field "event" must be a string`}},
		{"timeout 0", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 0\n", []string{`line 4: field "timeout" must be a whole number of seconds from 1 to 600`}},
		{"timeout 601", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 601\n", []string{`line 4: field "timeout"`}},
		{"timeout string", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = \"30\"\n", []string{`line 4: field "timeout"`}},
		{"timeout float", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\ntimeout = 3.5\n", []string{`line 4: field "timeout"`}},
		{"failClosed not a bool", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nfailClosed = \"yes\"\n", []string{`line 4: field "failClosed" must be true or false`}},
		{"bad regex", "[[hooks]]\nevent = \"PreToolUse\"\nmatcher = \"(Bash\"\ncommand = \"x\"\n", []string{`line 3: matcher "(Bash" is not a valid regular expression`}},
		{"experimental flag not a bool", "[experimental]\nhook-command-rewrite = \"on\"\n", []string{"line 2: [experimental] hook-command-rewrite must be true or false"}},
		{"TOML syntax", "[[hooks]\nevent = \"Stop\"\n", []string{"parse ", "line 1, column 8"}},
		{"every problem at once", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\nasync = true\n\n[[hooks]]\nevent = \"Nope\"\ncommand = \"y\"\n",
			[]string{`line 4: unknown field "async"`, `line 7: unknown event "Nope"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, path := mirriDiscover(t, tc.doc, hooks.DiscoverOptions{})
			if len(d.Fatal) == 0 || len(d.Hooks) != 0 {
				t.Fatalf("loaded %d hooks, fatal %v; want a load failure and no hooks", len(d.Hooks), d.Fatal)
			}
			msg := errors.Join(d.Fatal...).Error()
			for _, w := range append(tc.want, path) {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q\ndoes not contain %q", msg, w)
				}
			}
		})
	}
}

func TestMirriConfig_FailClosedOnAnObservingEventIsIgnoredWithAWarning(t *testing.T) {
	d, _ := mirriDiscover(t, "[[hooks]]\nevent = \"PostToolUse\"\ncommand = \"x\"\nfailClosed = true\n", hooks.DiscoverOptions{})
	if len(d.Fatal) > 0 || len(d.Hooks) != 1 || d.Hooks[0].Handler.FailClosed {
		t.Fatalf("fatal %v hooks %+v", d.Fatal, d.Hooks)
	}
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0].Message, "ignoring failClosed of the PostToolUse rule on line 4") {
		t.Fatalf("warnings %+v", d.Warnings)
	}
}

func TestMirriConfig_MatcherThatCannotMatchTheEmptyTargetWarns(t *testing.T) {
	d, _ := mirriDiscover(t, "[[hooks]]\nevent = \"Stop\"\nmatcher = \"Bash\"\ncommand = \"x\"\n[[hooks]]\nevent = \"Interrupt\"\nmatcher = \"^$\"\ncommand = \"y\"\n", hooks.DiscoverOptions{})
	if len(d.Hooks) != 2 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0].Message, `matcher "Bash" of the Stop rule on line 3 never matches`) {
		t.Fatalf("hooks %d warnings %+v", len(d.Hooks), d.Warnings)
	}
}

func TestMirriDiscover_SourcesMirriDoesNotHaveAreReported(t *testing.T) {
	d, _ := mirriDiscover(t, "", hooks.DiscoverOptions{
		SessionHooks:   []byte(`{"Stop": []}`),
		Plugins:        []hooks.PluginConfig{{Root: "/p"}},
		Managed:        "/etc/requirements.toml",
		StateOverrides: []byte(`{}`),
		ProjectRoot:    "/src/repo",
		ProjectTrusted: true,
	})
	var msgs []string
	for _, w := range d.Warnings {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"ignoring session hooks", "ignoring plugins", "ignoring managed requirements", "ignoring the trusted project", "ignoring hook state"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in\n%s", want, all)
		}
	}
}

// The experimental flag: the host's config.features.hookCommandRewrite wins,
// then MIRRICODE_EXPERIMENTAL_HOOK_COMMAND_REWRITE, then [experimental] in
// config.toml; the engine is the host's config.features.hookEngine, v1 by
// default.
func TestMirriRewriteSettings_HostThenEnvThenConfig(t *testing.T) {
	on, off := true, false
	for _, tc := range []struct {
		name       string
		features   map[string]string
		env        string
		cfg        *bool
		rewrite    bool
		engine     string
		err, warns bool
	}{
		{name: "nothing set", engine: "v1"},
		{name: "config", cfg: &on, rewrite: true, engine: "v1"},
		{name: "env over config", env: "false", cfg: &on, engine: "v1"},
		{name: "env on", env: "true", rewrite: true, engine: "v1"},
		{name: "host over env", features: map[string]string{"hookCommandRewrite": "false"}, env: "true", engine: "v1"},
		{name: "host on", features: map[string]string{"hookCommandRewrite": "true"}, cfg: &off, rewrite: true, engine: "v1"},
		{name: "v2 engine", features: map[string]string{"hookEngine": "v2"}, cfg: &on, rewrite: true, engine: "v2"},
		{name: "bad env value warns", env: "sure", cfg: &on, rewrite: true, engine: "v1", warns: true},
		{name: "bad host flag", features: map[string]string{"hookCommandRewrite": "sure"}, engine: "v1", err: true},
		{name: "bad host engine", features: map[string]string{"hookEngine": "v3"}, engine: "v1", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(mirriRewriteEnv, tc.env)
			warned := false
			rewrite, engine, errs := mirriRewriteSettings(hooks.DiscoverOptions{Features: tc.features}, tc.cfg, "config.toml",
				func(string, string, ...any) { warned = true })
			if rewrite != tc.rewrite || engine != tc.engine || (len(errs) > 0) != tc.err || warned != tc.warns {
				t.Fatalf("got rewrite %v engine %s errs %v warned %v", rewrite, engine, errs, warned)
			}
		})
	}
}

func TestMirriConfig_RewriteToolInputHooksRunOnlyWithTheFlagOnTheV1Engine(t *testing.T) {
	const rule = "[[hooks]]\nevent = \"RewriteToolInput\"\ncommand = \"x\"\n"
	for _, tc := range []struct {
		name     string
		doc      string
		features map[string]string
		policy   string
	}{
		{"flag off", rule, nil, PolicyRewriteDisabled},
		{"flag on", "[experimental]\nhook-command-rewrite = true\n" + rule, nil, ""},
		{"v2 engine", "[experimental]\nhook-command-rewrite = true\n" + rule, map[string]string{"hookEngine": "v2"}, PolicyUnsupportedByEngine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, _ := mirriDiscover(t, tc.doc, hooks.DiscoverOptions{Features: tc.features})
			if len(d.Fatal) > 0 || len(d.Hooks) != 1 || d.Hooks[0].Policy != tc.policy {
				t.Fatalf("fatal %v hooks %+v", d.Fatal, d.Hooks)
			}
			if (tc.policy != "") != (len(d.Warnings) == 1) {
				t.Errorf("warnings %+v", d.Warnings)
			}
		})
	}
}

// Lines are found whatever TOML form the rules take.
func TestMirriConfig_LinesInEveryTOMLForm(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"quoted key", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n\"fail closed\" = true\n", `line 4: unknown field "fail closed"`},
		{"CRLF", "[[hooks]]\r\nevent = \"Stop\"\r\ncommand = \"x\"\r\nasync = true\r\n", `line 4: unknown field "async"`},
		{"comments and multi-line strings", "# c\n[[hooks]] # rule\nevent = \"Stop\"\ncommand = '''\nx\n'''\nasync = true\n", `line 7: unknown field "async"`},
		{"array of tables inside a rule", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n[[hooks.steps]]\nrun = 1\n", `line 4: unknown field "steps"`},
		{"rule that is not a table", "hooks = [\n  1,\n]\n", "line 1: a [[hooks]] entry must be a table"},
		{"other tables between rules", "[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n[tui]\nasync = 1\n[[hooks]]\nevent = \"Stop\"\ncommand = \"y\"\nasync = 2\n", `line 9: unknown field "async"`},
		{"experimental as a dotted key", "experimental.hook-command-rewrite = 1\n", "line 1: [experimental] hook-command-rewrite must be true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, _ := mirriDiscover(t, tc.doc, hooks.DiscoverOptions{})
			if msg := errors.Join(d.Fatal...); msg == nil || !strings.Contains(msg.Error(), tc.want) {
				t.Fatalf("errors %v, want %q", msg, tc.want)
			}
		})
	}
}

// Whatever config.toml holds, reading it ends in rules or errors, never a panic.
func FuzzReadMirriConfig(f *testing.F) {
	for _, seed := range []string{
		"[[hooks]]\nevent = \"Stop\"\ncommand = \"x\"\n",
		"hooks = [{event = \"PreToolUse\", matcher = \"(\", command = 1}]\n",
		"[hooks]\n[hooks.x]\n[[hooks.y]]\n",
		"[experimental]\nhook-command-rewrite = true\n[[hooks]]\nevent = \"Nope\"\ntimeout = 1e3\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readMirriConfig(Profile, "config.toml", data)
	})
}
