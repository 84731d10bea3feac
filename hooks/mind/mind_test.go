package mind

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func TestMindMatcher_LiteralsAreExactAndRegexNeedsAControlCharacter(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		names   []string
		want    bool
	}{
		{"", []string{"anything"}, true},
		{"*", []string{"anything"}, true},
		{"Bash", []string{"Bash"}, true},
		{"Bash", []string{"BashOutput"}, false},
		// The difference from codex: '-' and ' ' are not regex controls.
		{"my-tool", []string{"my-tool"}, true},
		{"my-tool", []string{"my-tool-v2"}, false},
		{"my-tool", []string{"xmy-toolx"}, false},
		{"Bash Output", []string{"Bash Output"}, true},
		{"mcp__fs-server__read", []string{"mcp__fs-server__read_all"}, false},
		{"Edit|Write", []string{"Write"}, true},
		{"Edit|Write", []string{"WriteFile"}, false},
		{"my-tool|other-tool", []string{"other-tool"}, true},
		{"my-tool|other-tool", []string{"other-tool-2"}, false},
		// Any other control character makes it an unanchored regex.
		{"^Bash", []string{"BashOutput"}, true},
		{"mcp__.*", []string{"mcp__fs__read"}, true},
		{"my.tool", []string{"my-tool"}, true},
		{"a+", []string{"xaay"}, true},
		// An empty candidate is not a list of literals: "Edit|" is the
		// regex, which matches everything.
		{"Edit|", []string{"Read"}, true},
		{"Bash", nil, false},
	} {
		m, err := Matcher(tc.pattern)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got := m.Match(tc.names); got != tc.want {
			t.Errorf("MindMatcher(%q).Match(%q) = %v, want %v", tc.pattern, tc.names, got, tc.want)
		}
	}
}

func TestMindMatcher_InvalidRegexIsAnError(t *testing.T) {
	if _, err := Matcher("[unclosed"); err == nil || !strings.Contains(err.Error(), `invalid matcher "[unclosed"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestMindTools_AliasesAreTheSpecsFixedPairs(t *testing.T) {
	for _, tc := range []struct {
		sent      string
		names     []string
		canonical string
	}{
		{"shell_command", []string{"shell_command", "Bash"}, "Bash"},
		{"exec_command", []string{"exec_command", "Bash"}, "Bash"},
		{"write_stdin", []string{"write_stdin", "Bash"}, "Bash"},
		{"Bash", []string{"Bash", "shell_command", "exec_command", "write_stdin"}, "Bash"},
		{"apply_patch", []string{"apply_patch", "Edit", "Write"}, "apply_patch"},
		{"Edit", []string{"Edit", "apply_patch"}, "Edit"},
		{"spawn_agent", []string{"spawn_agent", "Agent"}, "spawn_agent"},
		{"Agent", []string{"Agent", "spawn_agent"}, "Agent"},
		{"my-tool", []string{"my-tool"}, "my-tool"},
		// "shell" is a codex-profile extra, not one of spec 000's aliases.
		{"shell", []string{"shell"}, "shell"},
	} {
		if got := mindToolNames(tc.sent); strings.Join(got, ",") != strings.Join(tc.names, ",") {
			t.Errorf("mindToolNames(%q) = %v, want %v", tc.sent, got, tc.names)
		}
		if got := mindCanonicalTool(tc.sent); got != tc.canonical {
			t.Errorf("mindCanonicalTool(%q) = %q, want %q", tc.sent, got, tc.canonical)
		}
	}
}

func TestMindIDTime_ReadsUUIDv7AndULIDWithAnOptionalPrefix(t *testing.T) {
	want := time.Date(2026, 8, 1, 10, 20, 30, 123e6, time.UTC)
	for _, tc := range []struct {
		id string
		ok bool
	}{
		{"019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e", true},
		{"sid_019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e", true},
		{"SID_019FBCD6-EE2B-7C3E-9A52-0E2B1F3C4D5E", true},
		{"01KYYDDVHB0000000000000000", true},
		{"sid_01kyyddvhb0000000000000000", true},
		// A version 4 UUID carries no time.
		{"9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", false},
		{"sid_not-a-time", false},
		{"8ZZZZZZZZZ0000000000000000", false},
		{"", false},
	} {
		got, ok := IDTime(tc.id)
		if ok != tc.ok {
			t.Errorf("MindIDTime(%q) ok = %v, want %v", tc.id, ok, tc.ok)
			continue
		}
		if ok && !got.Equal(want) {
			t.Errorf("MindIDTime(%q) = %v, want %v", tc.id, got, want)
		}
	}
}

func TestMindTranscriptPath_IsTheDateFolderOfTheIDsCreationTime(t *testing.T) {
	home := filepath.Join("/home", "u", ".mind")
	id := "sid_019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e"
	want := filepath.Join(home, "sessions", "2026", "08", "01", "session-"+id+".jsonl")
	if got := TranscriptPath(home, id); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, bad := range []string{"9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", "a/019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e", ".."} {
		if got := TranscriptPath(home, bad); got != "" {
			t.Errorf("MindTranscriptPath(%q) = %q, want none", bad, got)
		}
	}
	if got := TranscriptPath("", id); got != "" {
		t.Errorf("no home: got %q", got)
	}
}

func TestMindSessionID_CarriesItsCreationTime(t *testing.T) {
	before := time.Now().Add(-time.Second)
	id := Profile.MakeSessionID()
	if !strings.HasPrefix(id, "sid_") {
		t.Fatalf("id %q", id)
	}
	got, ok := IDTime(id)
	if !ok || got.Before(before) || got.After(time.Now().Add(time.Second)) {
		t.Fatalf("MindIDTime(%q) = %v, %v", id, got, ok)
	}
	if other := Profile.MakeSessionID(); other == id {
		t.Fatalf("two ids alike: %q", id)
	}
}

func TestMindPostToolUse_RunsOnlyAfterTheToolSucceeded(t *testing.T) {
	for _, tc := range []struct {
		input string
		skip  string
		bad   bool
	}{
		{`{}`, "", false},
		{`{"tool_status": null}`, "", false},
		{`{"tool_status": "succeeded"}`, "", false},
		{`{"tool_status": "failed"}`, SkipToolNotSucceeded, false},
		{`{"tool_status": "error"}`, SkipToolNotSucceeded, false},
		{`{"tool_status": "cancelled"}`, SkipToolNotSucceeded, false},
		{`{"tool_status": "ok"}`, "", true},
		{`{"tool_status": false}`, "", true},
	} {
		skip, err := mindToolSucceeded([]byte(tc.input))
		if skip != tc.skip || (err != nil) != tc.bad {
			t.Errorf("%s: skip %q err %v", tc.input, skip, err)
		}
	}
}

// mindEngine builds a mind engine over a home folder holding files.
func mindEngine(t *testing.T, files map[string]string, opts hooks.Options) *hooks.Engine {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	home := opts.Discover.Home
	if home == "" {
		home = t.TempDir()
		opts.Discover.Home = home
	}
	for name, text := range files {
		path := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts.Profile = Profile
	if opts.Session.ID == "" {
		opts.Session.ID = "sid_019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e"
	}
	if opts.Session.Cwd == "" {
		opts.Session.Cwd = t.TempDir()
	}
	e := hooks.New(opts)
	t.Cleanup(e.Close)
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	return e
}

func warningsText(ws []hooks.Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(w.Message + "\n")
	}
	return b.String()
}

func TestMindDiscovery_LayersInOrderUserProfileProjectCLI(t *testing.T) {
	project := t.TempDir()
	mustWrite(t, filepath.Join(project, ".mind", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo project"}]}]}}`)
	e := mindEngine(t, map[string]string{
		"hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`,
		"config.toml": `
[profiles.work]
model = "m"
[[profiles.work.hooks.Stop]]
hooks = [{ type = "command", command = "echo profile" }]
[[profiles.other.hooks.Stop]]
hooks = [{ type = "command", command = "echo other profile" }]
`,
	}, hooks.Options{Discover: hooks.DiscoverOptions{ProjectRoot: project, ProjectTrusted: true, ConfigProfile: "work",
		SessionHooks: []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "echo cli"}]}]}`)}})
	list, warns := e.List("")
	var got []string
	for _, h := range list {
		got = append(got, h.Source.Layer+"="+h.Handler.Command+"@"+h.Key)
	}
	home := e.Session().Home
	want := []string{
		"user=echo user@" + filepath.Join(home, "hooks.json") + ":stop:0:0",
		"profile=echo profile@" + filepath.Join(home, "config.toml") + "#profiles.work:stop:0:0",
		"project=echo project@" + filepath.Join(project, ".mind", "hooks.json") + ":stop:0:0",
		"cli=echo cli@cli:stop:0:0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hooks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(warns) != 0 {
		t.Fatalf("warnings: %s", warningsText(warns))
	}
	for _, h := range list {
		if h.Trust != hooks.TrustUntrusted || h.Runnable {
			t.Errorf("%s: trust %s runnable %v; every ordinary source starts untrusted", h.Key, h.Trust, h.Runnable)
		}
	}
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMindDiscovery_UntrustedProjectIsNotRead(t *testing.T) {
	project := t.TempDir()
	mustWrite(t, filepath.Join(project, ".mind", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo project"}]}]}}`)
	e := mindEngine(t, nil, hooks.Options{Discover: hooks.DiscoverOptions{ProjectRoot: project}})
	if list, _ := e.List(""); len(list) != 0 {
		t.Fatalf("untrusted project hooks loaded: %+v", list)
	}
}

func TestMindDiscovery_ManagedAndPluginsAreReservedAndNotDiscovered(t *testing.T) {
	req := filepath.Join(t.TempDir(), "requirements.toml")
	mustWrite(t, req, "allow_managed_hooks_only = true\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo managed\" }]\n")
	plugin := t.TempDir()
	mustWrite(t, filepath.Join(plugin, ".codex-plugin", "plugin.json"), `{"name": "p"}`)
	mustWrite(t, filepath.Join(plugin, "hooks", "hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo plugin"}]}]}}`)
	e := mindEngine(t, map[string]string{
		"hooks.json": `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo user"}]}]}}`,
	}, hooks.Options{Discover: hooks.DiscoverOptions{Managed: req, Plugins: []hooks.PluginConfig{{Root: plugin}}}})
	list, warns := e.List("")
	if len(list) != 1 || list[0].Source.Layer != hooks.LayerUser || list[0].SkipReason != hooks.TrustUntrusted {
		t.Fatalf("want the user hook alone, not held by managed-only: %+v", list)
	}
	text := warningsText(warns)
	for _, want := range []string{"managed hooks are a reserved source in the mind profile", "plugin hooks are a reserved source in the mind profile"} {
		if !strings.Contains(text, want) {
			t.Errorf("warnings lack %q:\n%s", want, text)
		}
	}
}

func TestMindDiscovery_ProfileLayerProblemsAreWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, config, profile, want string
	}{
		{"missing profile", "model = \"m\"\n", "work", `config profile "work" is selected but`},
		{"quoted name", "model = \"m\"\n", "my work", `[profiles."my work"] table`},
		{"hooks not a table", "[profiles.work]\nhooks = 3\n", "work", `expected a table of hook events (at profiles.work.hooks)`},
		{"unknown field", "[[profiles.work.hooks.Stop]]\nhooks = [{ type = \"command\", command = \"true\", colour = \"red\" }]\n", "work", `ignoring unknown field "colour"`},
		{"bad matcher", "[[profiles.work.hooks.PreToolUse]]\nmatcher = \"[\"\nhooks = [{ type = \"command\", command = \"true\" }]\n", "work", `invalid matcher "[" `},
		{"state", "[profiles.work.hooks.state.\"k\"]\nenabled = false\n", "work", `ignoring hooks.state in profile "work"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := mindEngine(t, map[string]string{"config.toml": tc.config}, hooks.Options{Discover: hooks.DiscoverOptions{ConfigProfile: tc.profile}})
			_, warns := e.List("")
			if text := warningsText(warns); !strings.Contains(text, tc.want) {
				t.Fatalf("warnings lack %q:\n%s", tc.want, text)
			}
		})
	}
}

func TestMindDiscovery_NoConfigFileWithAProfileIsAWarning(t *testing.T) {
	e := mindEngine(t, nil, hooks.Options{Discover: hooks.DiscoverOptions{ConfigProfile: "work"}})
	if _, warns := e.List(""); !strings.Contains(warningsText(warns), "does not exist: no profile hooks loaded") {
		t.Fatalf("warnings: %s", warningsText(warns))
	}
}

func TestMindTrust_ProfileHooksAreTrustedByTheirOwnKey(t *testing.T) {
	cfg := "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo '{}'\" }]\n[[profiles.work.hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo '{}'\" }]\n"
	e := mindEngine(t, map[string]string{"config.toml": cfg}, hooks.Options{Discover: hooks.DiscoverOptions{ConfigProfile: "work"}})
	path := filepath.Join(e.Session().Home, "config.toml")
	profileKey := path + "#profiles.work:stop:0:0"
	if _, err := e.Trust(context.Background(), []string{profileKey}); err != nil {
		t.Fatal(err)
	}
	e.Load()
	list, _ := e.List("")
	got := map[string]string{}
	for _, h := range list {
		got[h.Key] = h.Trust
	}
	if got[profileKey] != hooks.TrustTrusted || got[path+":stop:0:0"] != hooks.TrustUntrusted {
		t.Fatalf("trust by key: %v", got)
	}
}

func TestMindStop_AdditionalContextLimitLimitsTheContinuation(t *testing.T) {
	long := strings.Repeat("keep going ", 40) // 440 bytes, about 110 tokens
	e := mindEngine(t, nil, hooks.Options{BypassTrust: true, Discover: hooks.DiscoverOptions{SessionHooks: []byte(`{"Stop": [
		{"hooks": [{"type": "command", "command": "printf '{\"decision\":\"block\",\"reason\":\"` + long + `\"}'", "additionalContextLimit": 20}]},
		{"hooks": [{"type": "command", "command": "printf '{\"decision\":\"block\",\"reason\":\"` + long + `\"}'"}]}]}`)}})
	_, warns := e.List("")
	if len(warns) != 0 {
		t.Fatalf("additionalContextLimit on Stop must be accepted: %s", warningsText(warns))
	}
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	frags := strings.Split(res.Continuation, "\n\n")
	if !strings.Contains(res.Continuation, "Full hook output saved to: ") || !strings.HasSuffix(res.Continuation, strings.TrimSpace(long)) {
		t.Fatalf("continuation: the first fragment (limit 20) must be previewed, the second (default 2500) kept:\n%s", res.Continuation)
	}
	if strings.Contains(frags[0], long) {
		t.Fatalf("first fragment not limited: %q", frags[0])
	}
}

func TestMindInput_TranscriptPathDefaultsUnderTheMindHome(t *testing.T) {
	out := filepath.Join(t.TempDir(), "in.json")
	e := mindEngine(t, nil, hooks.Options{BypassTrust: true, Discover: hooks.DiscoverOptions{SessionHooks: []byte(`{
		"SubagentStop": [{"hooks": [{"type": "command", "command": "cat > ` + out + `; echo '{}'"}]}]}`)}})
	if _, err := e.Run(context.Background(), "SubagentStop", []byte(`{"agent_id": "01KYYDDVHB0000000000000000", "agent_type": "worker"}`), "t1"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	sessions := filepath.Join(e.Session().Home, "sessions", "2026", "08", "01")
	if got := gjson.GetBytes(data, "transcript_path").Str; got != filepath.Join(sessions, "session-sid_019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e.jsonl") {
		t.Errorf("transcript_path = %q", got)
	}
	if got := gjson.GetBytes(data, "agent_transcript_path").Str; got != filepath.Join(sessions, "session-01KYYDDVHB0000000000000000.jsonl") {
		t.Errorf("agent_transcript_path = %q", got)
	}
}

func TestMindInput_HostTranscriptPathWinsAndUnknownTimesGiveNull(t *testing.T) {
	out := filepath.Join(t.TempDir(), "in.json")
	doc := []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "cat > ` + out + `; echo '{}'"}]}]}`)
	for _, tc := range []struct {
		sess hooks.Session
		want string
	}{
		{hooks.Session{ID: "sid_019fbcd6-ee2b-7c3e-9a52-0e2b1f3c4d5e", TranscriptPath: "/host/t.jsonl"}, `"/host/t.jsonl"`},
		{hooks.Session{ID: "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d"}, `null`},
	} {
		e := mindEngine(t, nil, hooks.Options{Session: tc.sess, BypassTrust: true, Discover: hooks.DiscoverOptions{SessionHooks: doc}})
		if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(out)
		if got := gjson.GetBytes(data, "transcript_path").Raw; got != tc.want {
			t.Errorf("session %q: transcript_path %s, want %s", tc.sess.ID, got, tc.want)
		}
	}
}

func TestMindCoverage_LabelsFollowWhereTheMatchedToolsRun(t *testing.T) {
	where := map[string]string{"web_search": hooks.LocationServer, "deploy": hooks.LocationServerApproval, "shell_command": hooks.LocationClient}
	e := mindEngine(t, nil, hooks.Options{ToolLocations: where, Discover: hooks.DiscoverOptions{SessionHooks: []byte(`{
		"PreToolUse": [
			{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]},
			{"matcher": "deploy", "hooks": [{"type": "command", "command": "true"}]},
			{"matcher": "web_search", "hooks": [{"type": "command", "command": "true"}]},
			{"hooks": [{"type": "command", "command": "true"}]}],
		"PermissionRequest": [
			{"matcher": "deploy", "hooks": [{"type": "command", "command": "true"}]},
			{"matcher": "deploy|web_search", "hooks": [{"type": "command", "command": "true"}]}],
		"PostToolUse": [
			{"matcher": "deploy", "hooks": [{"type": "command", "command": "true"}]},
			{"matcher": "my-tool", "hooks": [{"type": "command", "command": "true"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}`)}})
	list, _ := e.List("")
	want := map[string]string{
		"cli:pre_tool_use:0:0":       CoverageClientFull,
		"cli:pre_tool_use:1:0":       CoverageServerApprovalOnly,
		"cli:pre_tool_use:2:0":       CoverageClientOnly,
		"cli:pre_tool_use:3:0":       CoverageClientOnly,
		"cli:permission_request:0:0": CoverageApprovalEvents,
		"cli:permission_request:1:0": CoverageClientOnly,
		"cli:post_tool_use:0:0":      CoverageClientOnly,
		"cli:post_tool_use:1:0":      CoverageClientFull,
		"cli:stop:0:0":               "",
	}
	for _, h := range list {
		if h.Coverage != want[h.Key] {
			t.Errorf("%s: coverage %q, want %q", h.Key, h.Coverage, want[h.Key])
		}
	}
	// No declaration, no labels.
	e = mindEngine(t, nil, hooks.Options{Discover: hooks.DiscoverOptions{SessionHooks: []byte(`{"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}`)}})
	if list, _ := e.List(""); list[0].Coverage != "" {
		t.Fatalf("label without a declaration: %q", list[0].Coverage)
	}
}

func TestCheckToolLocations_NamesTheBadEntry(t *testing.T) {
	if err := hooks.CheckToolLocations(map[string]string{"a": "client", "b": "server", "c": "server-approval"}); err != nil {
		t.Fatal(err)
	}
	if err := hooks.CheckToolLocations(map[string]string{"web": "cloud"}); err == nil || !strings.Contains(err.Error(), `tool "web": location "cloud" must be client, server-approval or server`) {
		t.Fatalf("err = %v", err)
	}
	if err := hooks.CheckToolLocations(map[string]string{" ": "client"}); err == nil {
		t.Fatal("blank tool name accepted")
	}
}
