package hooks

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func discWriteFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// discStopJSON is a hooks.json with one Stop command per name.
func discStopJSON(cmds ...string) string {
	var hs []string
	for _, c := range cmds {
		hs = append(hs, `{"type": "command", "command": "`+c+`"}`)
	}
	return `{"hooks": {"Stop": [{"hooks": [` + strings.Join(hs, ",") + `]}]}}`
}

// discStopTOML is a config.toml with one Stop command per name.
func discStopTOML(cmds ...string) string {
	s := "model = \"o3\"\n[[hooks.Stop]]\n"
	for _, c := range cmds {
		s += "[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"" + c + "\"\n"
	}
	return s
}

func discCommands(hooks []*Hook) []string {
	out := make([]string, len(hooks))
	for i, h := range hooks {
		out[i] = h.Handler.Command
	}
	return out
}

// discCodexHome makes a temp user folder and points $CODEX_HOME at it.
func discCodexHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "codex-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CODEX_HOME", home)
	return home
}

func TestDiscover_UserLayerFromCodexHome(t *testing.T) {
	home := discCodexHome(t)
	discWriteFile(t, filepath.Join(home, "hooks.json"), discStopJSON("a", "b"))
	hooks, warns := Discover(codexProfile(), DiscoverOptions{})
	cfgWantWarnings(t, warns)
	jsonPath := filepath.Join(home, "hooks.json")
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{jsonPath + ":stop:0:0", jsonPath + ":stop:0:1"}) {
		t.Errorf("keys = %q", got)
	}
	for _, h := range hooks {
		if h.Source != (Source{Layer: LayerUser, Path: jsonPath}) || h.Trust != TrustUntrusted || !h.Enabled {
			t.Errorf("hook %s: source %+v trust %q enabled %v", h.Key, h.Source, h.Trust, h.Enabled)
		}
	}
}

func TestDiscover_MissingFilesAreNotWarnings(t *testing.T) {
	discCodexHome(t)
	project := t.TempDir()
	hooks, warns := Discover(codexProfile(), DiscoverOptions{ProjectRoot: project, ProjectTrusted: true})
	if len(hooks) != 0 || len(warns) != 0 {
		t.Errorf("hooks %q warnings %q", cfgKeys(hooks), cfgMessages(warns))
	}
	// A user folder that does not exist at all is not a warning either.
	hooks, warns = Discover(codexProfile(), DiscoverOptions{Home: filepath.Join(project, "nope")})
	if len(hooks) != 0 || len(warns) != 0 {
		t.Errorf("hooks %q warnings %q", cfgKeys(hooks), cfgMessages(warns))
	}
}

func TestDiscover_BothJSONAndTOMLInOneLayerLoadBothWithWarning(t *testing.T) {
	home := discCodexHome(t)
	jsonPath, tomlPath := filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
	discWriteFile(t, jsonPath, discStopJSON("from-json"))
	discWriteFile(t, tomlPath, discStopTOML("from-toml"))
	hooks, warns := Discover(codexProfile(), DiscoverOptions{})
	if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"from-json", "from-toml"}) {
		t.Errorf("commands = %q, want JSON first", got)
	}
	if got := cfgKeys(hooks); !reflect.DeepEqual(got, []string{jsonPath + ":stop:0:0", tomlPath + ":stop:0:0"}) {
		t.Errorf("keys = %q", got)
	}
	cfgWantWarnings(t, warns, "loading hooks from both "+jsonPath+" and "+tomlPath+"; prefer a single representation for this layer")
}

func TestDiscover_OneEmptyRepresentationIsNoConflict(t *testing.T) {
	for _, tc := range []struct{ name, json, toml string }{
		{"toml without hooks", discStopJSON("a"), "model = \"o3\"\n"},
		{"toml with only state", discStopJSON("a"), "[hooks.state.\"k\"]\nenabled = false\n"},
		{"json with empty hooks", `{"hooks": {}}`, discStopTOML("a")},
		{"json with empty event", `{"hooks": {"Stop": []}}`, discStopTOML("a")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := discCodexHome(t)
			discWriteFile(t, filepath.Join(home, "hooks.json"), tc.json)
			discWriteFile(t, filepath.Join(home, "config.toml"), tc.toml)
			hooks, warns := Discover(codexProfile(), DiscoverOptions{})
			cfgWantWarnings(t, warns)
			if len(hooks) != 1 {
				t.Errorf("hooks = %q", cfgKeys(hooks))
			}
		})
	}
}

func TestDiscover_ProjectLayerOnlyWhenTrusted(t *testing.T) {
	home := discCodexHome(t)
	discWriteFile(t, filepath.Join(home, "hooks.json"), discStopJSON("user"))
	project := t.TempDir()
	discWriteFile(t, filepath.Join(project, ".codex", "hooks.json"), discStopJSON("project-json"))
	discWriteFile(t, filepath.Join(project, ".codex", "config.toml"), "[[hooks.PreToolUse]]\nhooks = [{type = \"command\", command = \"project-toml\"}]\n")

	for _, tc := range []struct {
		name    string
		trusted bool
		want    []string
	}{
		{"untrusted project not loaded", false, []string{"user"}},
		{"trusted project loaded after user", true, []string{"user", "project-json", "project-toml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, warns := Discover(codexProfile(), DiscoverOptions{ProjectRoot: project, ProjectTrusted: tc.trusted})
			if got := discCommands(hooks); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("commands = %q, want %q", got, tc.want)
			}
			if tc.trusted {
				cfgWantWarnings(t, warns, "loading hooks from both")
				h := hooks[1]
				jsonPath := filepath.Join(project, ".codex", "hooks.json")
				if h.Source != (Source{Layer: LayerProject, Path: jsonPath}) || h.Key != jsonPath+":stop:0:0" {
					t.Errorf("project hook source %+v key %q", h.Source, h.Key)
				}
			} else {
				cfgWantWarnings(t, warns)
			}
		})
	}
}

func TestDiscover_ProjectFolderSameAsUserFolderReadOnce(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, ".codex")
	discWriteFile(t, filepath.Join(home, "hooks.json"), discStopJSON("once"))
	// Reached through a symlink, the folder is still the same one.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	for _, projectRoot := range []string{root, link} {
		hooks, warns := Discover(codexProfile(), DiscoverOptions{Home: home, ProjectRoot: projectRoot, ProjectTrusted: true})
		if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"once"}) {
			t.Errorf("project %s: commands = %q", projectRoot, got)
		}
		cfgWantWarnings(t, warns)
	}
}

func TestDiscover_SessionHooksLoadLast(t *testing.T) {
	home := discCodexHome(t)
	discWriteFile(t, filepath.Join(home, "config.toml"), discStopTOML("user"))
	hooks, warns := Discover(codexProfile(), DiscoverOptions{SessionHooks: []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "session"}]}]}`)})
	cfgWantWarnings(t, warns)
	if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"user", "session"}) {
		t.Fatalf("commands = %q", got)
	}
	if h := hooks[1]; h.Key != "session:stop:0:0" || h.Source != (Source{Layer: LayerSession, Path: "session"}) || h.Trust != TrustUntrusted {
		t.Errorf("session hook key %q source %+v trust %q", h.Key, h.Source, h.Trust)
	}
}

func TestDiscover_OrderIncreasesAcrossAllSources(t *testing.T) {
	home := discCodexHome(t)
	discWriteFile(t, filepath.Join(home, "hooks.json"), discStopJSON("u1", "u2"))
	discWriteFile(t, filepath.Join(home, "config.toml"), discStopTOML("u3"))
	project := t.TempDir()
	discWriteFile(t, filepath.Join(project, ".codex", "hooks.json"), discStopJSON("p1", "", "p2"))
	hooks, _ := Discover(codexProfile(), DiscoverOptions{ProjectRoot: project, ProjectTrusted: true,
		SessionHooks: []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "s1"}]}]}`)})
	if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"u1", "u2", "u3", "p1", "p2", "s1"}) {
		t.Fatalf("commands = %q", got)
	}
	for i, h := range hooks {
		if h.Order != i {
			t.Errorf("%s: order %d, want %d", h.Key, h.Order, i)
		}
	}
}

func TestDiscover_UnreadableFileWarnsAndOthersStillLoad(t *testing.T) {
	home := discCodexHome(t)
	// A directory where hooks.json should be cannot be read.
	if err := os.Mkdir(filepath.Join(home, "hooks.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	discWriteFile(t, filepath.Join(home, "config.toml"), discStopTOML("still"))
	hooks, warns := Discover(codexProfile(), DiscoverOptions{})
	if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"still"}) {
		t.Errorf("commands = %q", got)
	}
	cfgWantWarnings(t, warns, "failed to read hooks config "+filepath.Join(home, "hooks.json")+": ")
	if warns[0].Source != filepath.Join(home, "hooks.json") {
		t.Errorf("source = %q", warns[0].Source)
	}
}

func TestDiscover_PermissionDeniedFileWarns(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	home := discCodexHome(t)
	path := filepath.Join(home, "hooks.json")
	discWriteFile(t, path, discStopJSON("secret"))
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	hooks, warns := Discover(codexProfile(), DiscoverOptions{})
	if len(hooks) != 0 {
		t.Errorf("hooks = %q", cfgKeys(hooks))
	}
	cfgWantWarnings(t, warns, "failed to read hooks config "+path)
}

func TestDiscover_MalformedFileLoadsNothingFromItOnly(t *testing.T) {
	home := discCodexHome(t)
	jsonPath := filepath.Join(home, "hooks.json")
	discWriteFile(t, jsonPath, string(cfgReadTestdata(t, "malformed.json")))
	discWriteFile(t, filepath.Join(home, "config.toml"), discStopTOML("ok"))
	hooks, warns := Discover(codexProfile(), DiscoverOptions{})
	if got := discCommands(hooks); !reflect.DeepEqual(got, []string{"ok"}) {
		t.Errorf("commands = %q", got)
	}
	cfgWantWarnings(t, warns, "failed to parse hooks config "+jsonPath+": ")
	if !strings.Contains(warns[0].Message, "line 4") {
		t.Errorf("warning lacks the position: %q", warns[0].Message)
	}
}

func TestDiscover_RelativeHomeGivesAbsoluteKeys(t *testing.T) {
	dir := t.TempDir()
	discWriteFile(t, filepath.Join(dir, "h", "hooks.json"), discStopJSON("x"))
	t.Chdir(dir)
	hooks, _ := Discover(codexProfile(), DiscoverOptions{Home: "./h/../h"})
	want := filepath.Join(dir, "h", "hooks.json") + ":stop:0:0"
	if len(hooks) != 1 || hooks[0].Key != want {
		t.Errorf("keys = %q, want %q", cfgKeys(hooks), want)
	}
}

func TestDiscover_ResolveHomeOptionThenEnvThenHomeDir(t *testing.T) {
	user := t.TempDir()
	t.Setenv("HOME", user)
	t.Setenv("CODEX_HOME", "")
	if got, want := ResolveHome(codexProfile(), ""), filepath.Join(user, ".codex"); got != want {
		t.Errorf("no env: %q, want %q", got, want)
	}
	t.Setenv("CODEX_HOME", "/opt/codex/")
	if got := ResolveHome(codexProfile(), ""); got != "/opt/codex" {
		t.Errorf("CODEX_HOME: %q", got)
	}
	if got := ResolveHome(codexProfile(), "/given//home"); got != "/given/home" {
		t.Errorf("option: %q", got)
	}
}

func TestDiscover_FindProjectRootNearestGitDirOrFileElseCwd(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	worktree := filepath.Join(repo, "sub", "wt")
	deep := filepath.Join(worktree, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	discWriteFile(t, filepath.Join(worktree, ".git"), "gitdir: /elsewhere\n")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(root, "plain", "x")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ cwd, want string }{
		{repo, repo},
		{filepath.Join(repo, "sub"), repo},
		{deep, worktree},
		{worktree, worktree},
		{plain, plain},
	} {
		if got := FindProjectRoot(tc.cwd); got != tc.want {
			t.Errorf("FindProjectRoot(%s) = %s, want %s", tc.cwd, got, tc.want)
		}
	}
}
