package rpc

import (
	"os"
	"path/filepath"
	"testing"
)

// projectWithHooks makes a repository with a .codex/hooks.json and a user
// folder whose config.toml trusts it; it returns both.
func projectWithHooks(t *testing.T) (home, repo string) {
	t.Helper()
	home, repo = t.TempDir(), t.TempDir()
	for path, doc := range map[string]string{
		filepath.Join(repo, ".git", "HEAD"):         "ref: refs/heads/main\n",
		filepath.Join(repo, ".codex", "hooks.json"): `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`,
		filepath.Join(home, "config.toml"):          "[projects.\"" + repo + "\"]\ntrust_level = \"trusted\"\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, repo
}

func TestInitialize_ProjectTrustFromTheHostsRecordWhenTheHostIsSilent(t *testing.T) {
	home, repo := projectWithHooks(t)
	h := newHarness(t)
	got := h.init(t, map[string]any{"session": map[string]any{"cwd": repo},
		"config": map[string]any{"home": home}})
	if got.Get("hooks.installed").Int() != 1 || got.Get("hooks.leftOut").Exists() {
		t.Fatalf("initialize = %s, want the project's hook loaded by the record", got.Raw)
	}
	list, err := h.call(t, "hooks/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	if list.Get("project.decidedBy").Str != "record" || !list.Get("project.trusted").Bool() ||
		list.Get("project.recordDir").Str != repo || len(list.Get("leftOut").Array()) != 0 {
		t.Errorf("hooks/list = %s", list.Raw)
	}
}

func TestInitialize_ExplicitUntrustedWinsOverTheRecordAndIsReported(t *testing.T) {
	home, repo := projectWithHooks(t)
	h := newHarness(t)
	got := h.init(t, map[string]any{"session": map[string]any{"cwd": repo},
		"config": map[string]any{"home": home, "project": map[string]any{"trusted": false}}})
	if got.Get("hooks.installed").Int() != 0 {
		t.Fatalf("initialize = %s, want no project hook", got.Raw)
	}
	lo := got.Get("hooks.leftOut.0")
	if lo.Get("reason").Str != "untrustedProject" || lo.Get("path").Str != filepath.Join(repo, ".codex", "hooks.json") ||
		lo.Get("fix").Str != "hookd trust --project --home "+home+" "+repo {
		t.Errorf("leftOut = %s", got.Get("hooks.leftOut").Raw)
	}
	list, _ := h.call(t, "hooks/list", nil)
	if list.Get("project.decidedBy").Str != "host" || list.Get("project.trusted").Bool() {
		t.Errorf("hooks/list project = %s", list.Get("project").Raw)
	}
}

// initialize fills the project root from the cwd, so a host cannot leave
// the project out; its explicit "not trusted" must then keep a qwen
// workspace's settings unread, and is reported as left out.
func TestSecurity_InitializeUntrustedKeepsAQwenWorkspaceUnreadAlthoughTheRootIsFilledIn(t *testing.T) {
	home, repo := t.TempDir(), t.TempDir()
	settings := filepath.Join(repo, ".qwen", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		trusted any
		want    int64
	}{{false, 0}, {true, 1}, {nil, 1}} {
		h := newHarness(t)
		config := map[string]any{"home": home, "managed": map[string]any{"requirements": filepath.Join(home, "none.json")}}
		if tc.trusted != nil {
			config["project"] = map[string]any{"trusted": tc.trusted}
		}
		got := h.init(t, map[string]any{"profile": "qwen", "session": map[string]any{"cwd": repo}, "config": config})
		if n := got.Get("hooks.installed").Int(); n != tc.want {
			t.Fatalf("trusted %v: %d workspace hook(s) loaded, want %d: %s", tc.trusted, n, tc.want, got.Raw)
		}
		if tc.want == 0 && got.Get("hooks.leftOut.0.path").Str != settings {
			t.Errorf("trusted %v: leftOut = %s", tc.trusted, got.Get("hooks.leftOut").Raw)
		}
	}
}
