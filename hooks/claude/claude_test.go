package claude

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// claudeFiles writes files (paths relative to a new root; "home/" is the
// user folder, "project/" the project) and returns the root.
func claudeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"home", "project"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// claudeEngine builds an engine of the claude profile over a root made by
// claudeFiles, with the project trusted; mod adjusts the options.
func claudeEngine(t *testing.T, root string, mod func(o *hooks.Options)) (*hooks.Engine, hooks.Summary) {
	t.Helper()
	t.Setenv("TMPDIR", t.TempDir())
	o := hooks.Options{Profile: Profile, Session: hooks.Session{ID: "claude-test", Cwd: filepath.Join(root, "project")},
		Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), ProjectRoot: filepath.Join(root, "project"), ProjectTrusted: true,
			DataHome: filepath.Join(root, "data")}}
	if mod != nil {
		mod(&o)
	}
	e := hooks.New(o)
	t.Cleanup(e.Close)
	sum, err := e.LoadChecked()
	if err != nil {
		t.Fatal(err)
	}
	return e, sum
}

func claudeRun(t *testing.T, e *hooks.Engine, event, input string) *hooks.Result {
	t.Helper()
	res, err := e.Run(context.Background(), event, []byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// settings is a settings.json holding one event's groups.
func settings(event, groups string) string {
	return fmt.Sprintf(`{"model": "opus", "permissions": {"allow": []}, "hooks": {%q: %s}}`, event, groups)
}

func cmdGroup(matcher, command string) string {
	c, _ := json.Marshal(command)
	return fmt.Sprintf(`[{"matcher": %q, "hooks": [{"type": "command", "command": %s}]}]`, matcher, c)
}

func TestClaudeDiscover_SettingsLayersInOrder(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json":                   settings("Stop", cmdGroup("", "echo user")),
		"project/.claude/settings.json":        settings("Stop", cmdGroup("", "echo project")),
		"project/.claude/settings.local.json":  settings("Stop", cmdGroup("", "echo local")),
		"project/.claude/config.toml":          "not read",
		"project/.claude/hooks.json":           `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo codex file"}]}]}}`,
		"home/hooks.json":                      `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo codex file"}]}]}}`,
		"project/.claude/settings.local.json~": "editor backup",
	})
	e, sum := claudeEngine(t, root, nil)
	list, warns := e.List("")
	var got []string
	for _, h := range list {
		got = append(got, h.Source.Layer+":"+h.Handler.Command+":"+h.Trust)
	}
	if want := "user:echo user:trusted project:echo project:trusted local:echo local:trusted"; strings.Join(got, " ") != want {
		t.Fatalf("hooks %q, want %q", got, want)
	}
	if len(warns) != 0 || sum.Runnable != 3 {
		t.Fatalf("settings keys other than hooks must not warn: %+v, %+v", warns, sum)
	}
	if !strings.HasSuffix(list[2].Key, ".claude/settings.local.json:stop:0:0") {
		t.Fatalf("key %s", list[2].Key)
	}
}

func TestClaudeDiscover_UntrustedProjectIsNotRead(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json":            settings("Stop", cmdGroup("", "echo user")),
		"project/.claude/settings.json": settings("Stop", cmdGroup("", "echo project")),
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.ProjectTrusted = false })
	if list, _ := e.List(""); len(list) != 1 || list[0].Source.Layer != hooks.LayerUser {
		t.Fatalf("got %+v", list)
	}
}

func TestClaudeDiscover_HomeFromCLAUDE_CONFIG_DIR(t *testing.T) {
	root := claudeFiles(t, map[string]string{"elsewhere/settings.json": settings("Stop", cmdGroup("", "echo env home"))})
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(root, "elsewhere"))
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.Home = "" })
	if list, _ := e.List(""); len(list) != 1 || list[0].Handler.Command != "echo env home" {
		t.Fatalf("got %+v", list)
	}
}

func TestClaudeDiscover_BrokenSettingsWarnAndLoadTheRest(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json":                  `{"hooks": {"Stop": [}`,
		"project/.claude/settings.json":       `{"hooks": ["not", "an", "object"], "disableAllHooks": "yes"}`,
		"project/.claude/settings.local.json": settings("Stop", `[{"hooks": [{"type": "command", "command": "echo ok"}, {"type": "http", "url": "https://x"}, {"type": "prompt", "prompt": "p"}]}]`),
	})
	e, _ := claudeEngine(t, root, nil)
	list, warns := e.List("")
	// The command, http and prompt handlers load (a prompt hook asks the
	// host's model when it runs).
	if len(list) != 3 || list[0].Handler.Command != "echo ok" || list[1].Handler.Type != TypeHTTP || list[2].Handler.Type != "prompt" {
		t.Fatalf("got %+v", list)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"failed to parse hooks config", `ignoring field "hooks"`, `ignoring field "disableAllHooks"`} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning with %q in\n%s", want, all)
		}
	}
}

func TestClaudeDiscover_ClaudeKeysOfRealPluginsDoNotWarn(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json": `{"_comment": "x", "hooks": {"Stop": [{"description": "group", "hooks": [
			{"type": "command", "command": "echo x", "description": "h", "once": true, "rewakeMessage": "m", "rewakeSummary": "s"}]}]}}`,
	})
	e, _ := claudeEngine(t, root, nil)
	if list, warns := e.List(""); len(list) != 1 || len(warns) != 0 {
		t.Fatalf("got %+v %+v", list, warns)
	}
}

func TestClaudeDiscover_DisableAllHooksFollowsSettingsPrecedence(t *testing.T) {
	hook := `"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo x"}]}]}`
	for _, tc := range []struct {
		name                 string
		user, project, local string
		managed              string
		want                 []string // skip reasons: user hook, managed hook
	}{
		{"user true turns hooks off", `true`, ``, ``, ``, []string{PolicyDisableAllHooks}},
		{"project false beats user true", `true`, `false`, ``, ``, []string{""}},
		{"local true beats project false", ``, `false`, `true`, ``, []string{PolicyDisableAllHooks}},
		{"user true leaves managed hooks running", `true`, ``, ``, `{` + hook + `}`, []string{PolicyDisableAllHooks, ""}},
		{"managed true stops everything", `false`, ``, ``, `{"disableAllHooks": true, ` + hook + `}`, []string{PolicyDisableAllHooks, PolicyDisableAllHooks}},
		{"managed false beats user true", `true`, ``, ``, `{"disableAllHooks": false}`, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"home/settings.json": `{` + hook + opt("disableAllHooks", tc.user) + `}`}
			if tc.project != "" {
				files["project/.claude/settings.json"] = `{"disableAllHooks": ` + tc.project + `}`
			}
			if tc.local != "" {
				files["project/.claude/settings.local.json"] = `{"disableAllHooks": ` + tc.local + `}`
			}
			if tc.managed != "" {
				files["managed/managed-settings.json"] = tc.managed
			}
			root := claudeFiles(t, files)
			e, _ := claudeEngine(t, root, func(o *hooks.Options) {
				if tc.managed != "" {
					o.Discover.Managed = filepath.Join(root, "managed", "managed-settings.json")
				}
			})
			list, _ := e.List("")
			var got []string
			for _, h := range list {
				got = append(got, h.SkipReason)
			}
			// Managed hooks come first.
			if len(got) == 2 {
				got[0], got[1] = got[1], got[0]
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("skip reasons %q, want %q", got, tc.want)
			}
		})
	}
}

func opt(name, value string) string {
	if value == "" {
		return ""
	}
	return fmt.Sprintf(", %q: %s", name, value)
}

func TestClaudeDiscover_ManagedSettings(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json":            settings("Stop", cmdGroup("", "echo user")),
		"managed/managed-settings.json": `{"allowManagedHooksOnly": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo managed"}]}]}}`,
		"home/allow-only.json":          `{"allowManagedHooksOnly": true}`,
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.Managed = filepath.Join(root, "managed", "managed-settings.json") })
	res := claudeRun(t, e, "Stop", `{}`)
	if len(res.Hooks) != 1 || !strings.Contains(res.Hooks[0].Key, "managed-settings.json") ||
		len(res.Skipped) != 1 || res.Skipped[0].Reason != hooks.PolicyManagedOnly {
		t.Fatalf("ran %+v skipped %+v", res.Hooks, res.Skipped)
	}
	list, _ := e.List("")
	if list[0].Trust != hooks.TrustManaged || list[0].Source.Layer != hooks.LayerManaged {
		t.Fatalf("managed hook listed as %+v", list[0])
	}
	// allowManagedHooksOnly in the user's own settings does nothing.
	root2 := claudeFiles(t, map[string]string{"home/settings.json": `{"allowManagedHooksOnly": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`})
	e2, _ := claudeEngine(t, root2, nil)
	if res := claudeRun(t, e2, "Stop", `{}`); len(res.Hooks) != 1 {
		t.Fatalf("user allowManagedHooksOnly took effect: %+v", res)
	}
}

func TestClaudeDiscover_UnreadableManagedSettingsRefuseTheSession(t *testing.T) {
	root := claudeFiles(t, map[string]string{"managed/managed-settings.json": `{"hooks": `})
	e := hooks.New(hooks.Options{Profile: Profile, Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), Managed: filepath.Join(root, "managed", "managed-settings.json")}})
	defer e.Close()
	if _, err := e.LoadChecked(); err == nil || !strings.Contains(err.Error(), "managed-settings.json") {
		t.Fatalf("got %v", err)
	}
	// A managed file that does not exist means no managed settings.
	e2 := hooks.New(hooks.Options{Profile: Profile, Discover: hooks.DiscoverOptions{Home: filepath.Join(root, "home"), Managed: filepath.Join(root, "none.json")}})
	defer e2.Close()
	if _, err := e2.LoadChecked(); err != nil {
		t.Fatal(err)
	}
}

// claudePlugin writes a plugin folder under root/plugins/name.
func claudePlugin(files map[string]string, name, hooksJSON string) {
	files["plugins/"+name+"/.claude-plugin/plugin.json"] = fmt.Sprintf(`{"name": %q}`, name)
	files["plugins/"+name+"/hooks/hooks.json"] = hooksJSON
}

func TestClaudeDiscover_PluginHooksFileNeedsAHooksObject(t *testing.T) {
	files := map[string]string{}
	claudePlugin(files, "good", `{"description": "d", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo good"}]}]}}`)
	claudePlugin(files, "eventmap", `{"Stop": [{"hooks": [{"type": "command", "command": "echo never"}]}]}`)
	claudePlugin(files, "array", `[]`)
	claudePlugin(files, "empty", `{}`)
	claudePlugin(files, "broken", "{\"hooks\": {\n  \"Stop\": [}")
	root := claudeFiles(t, files)
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.PluginDirs = []string{filepath.Join(root, "plugins")} })
	list, warns := e.List("")
	if len(list) != 1 || list[0].Handler.Command != "echo good" || list[0].Source.Plugin != "good" {
		t.Fatalf("got %+v", list)
	}
	n := 0
	for _, w := range warns {
		if strings.Contains(w.Message, `has no top-level "hooks" object`) {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("want 3 refusals, got %+v", warns)
	}
	found := false
	for _, w := range warns {
		found = found || strings.HasPrefix(w.Message, "loading no hooks for plugin broken@local: failed to parse plugin hooks config ") &&
			strings.HasSuffix(w.Message, "(line 2, column 12)")
	}
	if !found {
		t.Fatalf("no syntax error warning with its position in %+v", warns)
	}
}

func TestClaudeDiscover_EnabledPluginsFalseHidesAScannedPlugin(t *testing.T) {
	files := map[string]string{
		"home/settings.json":            `{"enabledPlugins": {"one@local": false, "two@local": false}}`,
		"project/.claude/settings.json": `{"enabledPlugins": {"two@local": true}}`,
	}
	for _, n := range []string{"one", "two", "three"} {
		claudePlugin(files, n, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo `+n+`"}]}]}}`)
	}
	root := claudeFiles(t, files)
	e, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.PluginDirs = []string{filepath.Join(root, "plugins")} })
	list, _ := e.List("")
	var got []string
	for _, h := range list {
		got = append(got, h.Source.Plugin)
	}
	if strings.Join(got, ",") != "three,two" && strings.Join(got, ",") != "two,three" {
		t.Fatalf("plugins %v, want two (re-enabled by the project) and three", got)
	}
}

func TestClaudeDedupe_SettingsCopiesRunOncePluginCopiesEach(t *testing.T) {
	cmd := `echo '{"systemMessage": "audit"}'`
	files := map[string]string{
		"home/settings.json":                  settings("PreToolUse", cmdGroup("Bash", cmd)),
		"project/.claude/settings.json":       settings("PreToolUse", cmdGroup("Bash|Edit", cmd)),
		"project/.claude/settings.local.json": settings("PreToolUse", cmdGroup("*", cmd)),
	}
	claudePlugin(files, "p1", `{"hooks": {"PreToolUse": `+cmdGroup("Bash", cmd)+`}}`)
	claudePlugin(files, "p2", `{"hooks": {"PreToolUse": `+cmdGroup("Bash", cmd)+`}}`)
	root := claudeFiles(t, files)
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Discover.PluginDirs = []string{filepath.Join(root, "plugins")}
		o.Discover.SessionHooks = []byte(`{"PreToolUse": ` + cmdGroup("Bash", cmd) + `}`)
	})
	res := claudeRun(t, e, "PreToolUse", `{"tool_name": "Bash", "tool_input": {"command": "ls"}}`)
	var ran []string
	for _, h := range res.Hooks {
		ran = append(ran, h.Key[:strings.Index(h.Key, ":")])
	}
	if len(res.Hooks) != 4 || len(res.SystemMessages) != 4 {
		t.Fatalf("ran %v, want the user's, the session's and both plugins'", ran)
	}
	if len(res.Skipped) != 2 || res.Skipped[0].Reason != "duplicate" || res.Skipped[1].Reason != "duplicate" ||
		!strings.Contains(res.Skipped[0].Key, "project/.claude/settings.json") {
		t.Fatalf("skipped %+v", res.Skipped)
	}
}

func TestClaudeStopCap_EightBlocksInARowThenTheAgentMayStop(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json": settings("Stop", cmdGroup("", `echo '{"decision": "block", "reason": "again"}'`)),
	})
	e, _ := claudeEngine(t, root, nil)
	var got []string
	for range 10 {
		got = append(got, claudeRun(t, e, "Stop", `{"stop_hook_active": true}`).Decision)
	}
	want := "block,block,block,block,block,block,block,block,none,block"
	if strings.Join(got, ",") != want {
		t.Fatalf("decisions %v, want %s", got, want)
	}
	// A new prompt starts the count again.
	for range 5 {
		claudeRun(t, e, "Stop", `{}`)
	}
	claudeRun(t, e, "UserPromptSubmit", `{"prompt": "go on"}`)
	for i := range 8 {
		if d := claudeRun(t, e, "Stop", `{}`).Decision; d != hooks.DecisionBlock {
			t.Fatalf("block %d after a new prompt was overridden", i+1)
		}
	}
	res := claudeRun(t, e, "Stop", `{}`)
	if res.Decision != hooks.DecisionNone || res.Continuation != "" || len(res.SystemMessages) != 1 ||
		!strings.Contains(res.SystemMessages[0].Text, "blocked 8 times in a row") || res.Hooks[0].Status != hooks.StatusBlocked {
		t.Fatalf("ninth block: %+v", res)
	}
}

func TestClaudeStopCap_SetByTheEnvironment(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json":  settings("Stop", cmdGroup("", `echo '{"decision": "block", "reason": "again"}'`)),
		"home/settings2.json": "",
	})
	e, _ := claudeEngine(t, root, nil)
	t.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "2")
	var got []string
	for range 4 {
		got = append(got, claudeRun(t, e, "Stop", `{}`).Decision)
	}
	if strings.Join(got, ",") != "block,block,none,block" {
		t.Fatalf("cap 2: %v", got)
	}
	t.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "0")
	for i := range 12 {
		if d := claudeRun(t, e, "Stop", `{}`).Decision; d != hooks.DecisionBlock {
			t.Fatalf("cap 0 (none): block %d overridden", i+1)
		}
	}
}

func TestClaudeStopCap_AStopThatLetsTheAgentStopResetsTheCount(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		// Blocks unless the last message says the checks pass.
		"home/settings.json": settings("Stop", cmdGroup("", `grep -q 'checks pass' || echo '{"decision": "block", "reason": "run the checks"}'`)),
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {})
	t.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "2")
	for _, step := range []struct{ msg, want string }{
		{"working", "block"}, {"working", "block"}, {"checks pass", "none"}, {"working", "block"}, {"working", "block"}, {"working", "none"},
	} {
		if d := claudeRun(t, e, "Stop", `{"last_assistant_message": "`+step.msg+`"}`).Decision; d != step.want {
			t.Fatalf("%s: decision %s, want %s", step.msg, d, step.want)
		}
	}
}

func TestClaudeStopCap_SubagentsCountApart(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json": settings("SubagentStop", cmdGroup("", `echo '{"decision": "block", "reason": "again"}'`)),
	})
	e, _ := claudeEngine(t, root, nil)
	t.Setenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "1")
	for _, step := range []struct{ agent, want string }{{"a", "block"}, {"b", "block"}, {"a", "none"}, {"b", "none"}} {
		if d := claudeRun(t, e, "SubagentStop", `{"agent_id": "`+step.agent+`"}`).Decision; d != step.want {
			t.Fatalf("agent %s: %s, want %s", step.agent, d, step.want)
		}
	}
}

func TestClaudeConfigChange_PolicySettingsCannotBeBlocked(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("ConfigChange", cmdGroup("", "echo no >&2; exit 2"))})
	e, _ := claudeEngine(t, root, nil)
	if d := claudeRun(t, e, "ConfigChange", `{"source": "user_settings"}`).Decision; d != hooks.DecisionBlock {
		t.Fatalf("user settings change: %s", d)
	}
	if d := claudeRun(t, e, "ConfigChange", `{"source": "policy_settings"}`).Decision; d != hooks.DecisionNone {
		t.Fatalf("policy settings change: %s", d)
	}
}

func TestClaudeSessionEnd_HooksShareABudget(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("SessionEnd", `[{"hooks": [
		{"type": "command", "command": "sleep 30"}, {"type": "command", "command": "exit 0"}]}]`)})
	e, _ := claudeEngine(t, root, nil)
	t.Setenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS", "100")
	res := claudeRun(t, e, "SessionEnd", `{"reason": "other"}`)
	if res.Hooks[0].Status != hooks.StatusCancelled || !strings.Contains(*res.Hooks[0].Error, "budget") || res.Hooks[1].Status != hooks.StatusSucceeded {
		t.Fatalf("got %+v", res.Hooks)
	}
}

func TestClaudeSessionEnd_BudgetGrowsWithSettingsTimeouts(t *testing.T) {
	h := func(layer string, timeout int) *hooks.Hook {
		return &hooks.Hook{Source: hooks.Source{Layer: layer}, Handler: hooks.Handler{Timeout: timeout}}
	}
	for _, tc := range []struct {
		run  []*hooks.Hook
		want time.Duration
	}{
		{nil, 1500 * time.Millisecond},
		{[]*hooks.Hook{h(hooks.LayerUser, 600)}, 1500 * time.Millisecond},
		{[]*hooks.Hook{h(hooks.LayerUser, 1)}, 1500 * time.Millisecond},
		{[]*hooks.Hook{h(hooks.LayerUser, 5), h(hooks.LayerProject, 12)}, 12 * time.Second},
		{[]*hooks.Hook{h(LayerLocal, 90)}, 60 * time.Second},
		{[]*hooks.Hook{h(hooks.LayerPlugin, 30), h(hooks.LayerSession, 30)}, 1500 * time.Millisecond},
	} {
		if got := claudeSessionEndBudgetFor(tc.run); got != tc.want {
			t.Errorf("budget %v, want %v", got, tc.want)
		}
	}
}

func TestClaudeTimeouts_Defaults(t *testing.T) {
	for ev, want := range map[string]int{"PreToolUse": 600, "Stop": 600, "UserPromptSubmit": 30, "MessageDisplay": 10, "SessionEnd": 600} {
		if got := Profile.Event(ev).DefaultTimeout; got != want {
			t.Errorf("%s: %d, want %d", ev, got, want)
		}
	}
	if b := Profile.Event("SessionEnd").Budget; b != 1500*time.Millisecond {
		t.Errorf("SessionEnd budget %v", b)
	}
}

func TestClaudeEvents_TheReferenceSet(t *testing.T) {
	want := "SessionStart Setup UserPromptSubmit UserPromptExpansion PreToolUse PermissionRequest PermissionDenied PostToolUse " +
		"PostToolUseFailure PostToolBatch Notification MessageDisplay SubagentStart SubagentStop TaskCreated TaskCompleted Stop " +
		"StopFailure TeammateIdle InstructionsLoaded ConfigChange CwdChanged DirectoryAdded FileChanged WorktreeCreate " +
		"WorktreeRemove PreCompact PostCompact PreModelSwitch PostModelSwitch Elicitation ElicitationResult SessionEnd PreSkillShellCommand"
	if got := strings.Join(Profile.EventNames(), " "); got != want {
		t.Fatalf("events\n%s\nwant\n%s", got, want)
	}
}

func TestClaudeInput_ClaudeShape(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json": `{"hooks": {
			"SessionStart": [{"hooks": [{"type": "command", "command": "printf 'in: '; cat"}]}],
			"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "printf 'in: '; cat"}]}]}}`,
	})
	e, _ := claudeEngine(t, root, func(o *hooks.Options) {
		o.Session.TranscriptPath, o.Session.Model, o.Session.PermissionMode = "/t.jsonl", "opus", "plan"
	})
	// The hook prints its input; SessionStart takes plain stdout as context.
	res := claudeRun(t, e, "SessionStart", `{"source": "startup"}`)
	in := res.AdditionalContext[0].Text
	want := `in: {"session_id":"claude-test","transcript_path":"/t.jsonl","cwd":"` + filepath.Join(root, "project") + `","hook_event_name":"SessionStart","source":"startup","model":"opus"}`
	if in != want {
		t.Fatalf("input\n%s\nwant\n%s", in, want)
	}
	// Prompt and tool events carry permission_mode (hooks use it to tell
	// Claude Code from other hosts); no event but SessionStart has model,
	// and none has codex's turn_id.
	in = claudeRun(t, e, "UserPromptSubmit", `{"prompt": "hi"}`).AdditionalContext[0].Text
	want = `in: {"session_id":"claude-test","transcript_path":"/t.jsonl","cwd":"` + filepath.Join(root, "project") + `","permission_mode":"plan","hook_event_name":"UserPromptSubmit","prompt":"hi"}`
	if in != want {
		t.Fatalf("input\n%s\nwant\n%s", in, want)
	}
}

func TestClaudeEnv_ProjectDirClaudeCodeMarkerAndNoTelemetryExporters(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector")
	root := claudeFiles(t, map[string]string{
		"home/settings.json": settings("UserPromptSubmit", cmdGroup("", `echo "dir=$CLAUDE_PROJECT_DIR code=$CLAUDECODE otel=${OTEL_EXPORTER_OTLP_ENDPOINT:-unset}"`)),
	})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "x"}`)
	if want := "dir=" + filepath.Join(root, "project") + " code=1 otel=unset"; res.AdditionalContext[0].Text != want {
		t.Fatalf("got %q, want %q", res.AdditionalContext[0].Text, want)
	}
}

func TestClaudeShell_ShellFormIsShDashC(t *testing.T) {
	// A login shell ($SHELL -lc) would be this broken one.
	t.Setenv("SHELL", "/nonexistent/shell")
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("UserPromptSubmit", cmdGroup("", `echo "args=$0"`))})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "x"}`)
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "args=/bin/sh" {
		t.Fatalf("got %+v %+v", res.AdditionalContext, res.Hooks)
	}
}

func TestClaudeSpill_ContextOverTenThousandCharacters(t *testing.T) {
	root := claudeFiles(t, map[string]string{
		"home/settings.json": `{"hooks": {"UserPromptSubmit": [{"hooks": [
			{"type": "command", "command": "printf 'é%.0s' $(seq 12000)", "additionalContextLimit": 0},
			{"type": "command", "command": "printf '%10000s' | tr ' ' x"},
			{"type": "command", "command": "printf '{\"systemMessage\": \"%s\"}' $(printf '%10001s' | tr ' ' m)"}]}]}}`,
	})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "UserPromptSubmit", `{"prompt": "x"}`)
	if len(res.AdditionalContext) != 2 {
		t.Fatalf("got %+v", res)
	}
	// Context comes in the order the hooks finished: find each by its hook.
	byHook := map[string]hooks.ContextEntry{}
	for _, c := range res.AdditionalContext {
		byHook[c.Hook[strings.LastIndex(c.Hook, ":")+1:]] = c
	}
	big := byHook["0"]
	if big.Spilled == "" || big.Bytes != 24000 || !strings.HasPrefix(big.Text, strings.Repeat("é", 2000)+"\n\n…10000 more characters truncated (12000 characters, 1 lines in all)…") ||
		!strings.HasSuffix(big.Text, "Full hook output saved to: "+big.Spilled) {
		t.Fatalf("12,000 é (24,000 bytes) not spilled as a 2,000-character preview: %+v", big)
	}
	if data, err := os.ReadFile(big.Spilled); err != nil || len(data) != 24000 {
		t.Fatalf("spill file: %d bytes, %v", len(data), err)
	}
	if ten := byHook["1"]; ten.Spilled != "" || len(ten.Text) != 10000 {
		t.Fatalf("exactly 10,000 characters must stay whole: spilled %q", ten.Spilled)
	}
	if msg := res.SystemMessages[0].Text; !strings.Contains(msg, "Full hook output saved to: ") || len(msg) > 3000 {
		t.Fatalf("systemMessage over the cap not previewed: %d bytes", len(msg))
	}
}

func TestClaudeHookState_EnabledSwitchIsHonoured(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("Stop", cmdGroup("", "echo x"))})
	e, _ := claudeEngine(t, root, nil)
	key := filepath.Join(root, "home", "settings.json") + ":stop:0:0"
	if err := e.SetEnabled(context.Background(), key, false); err != nil {
		t.Fatal(err)
	}
	e.Load()
	res := claudeRun(t, e, "Stop", `{}`)
	if len(res.Hooks) != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "disabled" {
		t.Fatalf("got %+v", res)
	}
	if _, err := e.Trust(context.Background(), []string{key}); err == nil {
		t.Fatal("the claude profile has no review, Trust must refuse")
	}
	// A process-only override enables it again.
	e2, _ := claudeEngine(t, root, func(o *hooks.Options) { o.Discover.StateOverrides = []byte(`{"` + key + `": {"enabled": true}}`) })
	if res := claudeRun(t, e2, "Stop", `{}`); len(res.Hooks) != 1 {
		t.Fatalf("override: %+v", res)
	}
}

func TestClaudeFileChanged_MatcherIsLiteralNamesAndWatchPathsReachTheHost(t *testing.T) {
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("FileChanged",
		cmdGroup(".envrc|[draft].md", `echo '{"hookSpecificOutput": {"hookEventName": "FileChanged", "watchPaths": ["/repo/.envrc"]}}'`))})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "FileChanged", `{"file_path": "/repo/[draft].md", "event": "change"}`)
	if len(res.Hooks) != 1 || string(res.Output["watchPaths"]) != `["/repo/.envrc"]` {
		t.Fatalf("got %+v", res)
	}
	if res := claudeRun(t, e, "FileChanged", `{"file_path": "/repo/d.md"}`); len(res.Hooks) != 0 {
		t.Fatalf("the brackets were read as a regex class: %+v", res)
	}
}
