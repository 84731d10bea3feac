package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trustFixture is a user folder and a trusted project, each with a hooks.json
// holding one Stop hook.
type trustFixture struct {
	home, project string
	userKey       string
	projectKey    string
}

func newTrustFixture(t *testing.T) *trustFixture {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	dir := t.TempDir()
	f := &trustFixture{home: filepath.Join(dir, "home"), project: filepath.Join(dir, "repo")}
	discWriteFile(t, filepath.Join(f.home, "hooks.json"), discStopJSON("echo user"))
	discWriteFile(t, filepath.Join(f.project, ".codex", "hooks.json"), discStopJSON("echo project"))
	f.userKey = filepath.Join(f.home, "hooks.json") + ":stop:0:0"
	f.projectKey = filepath.Join(f.project, ".codex", "hooks.json") + ":stop:0:0"
	return f
}

func (f *trustFixture) opts() DiscoverOptions {
	return DiscoverOptions{Home: f.home, ProjectRoot: f.project, ProjectTrusted: true}
}

func (f *trustFixture) writeUserConfig(t *testing.T, content string) {
	t.Helper()
	discWriteFile(t, filepath.Join(f.home, "config.toml"), content)
}

func hookByKey(t *testing.T, hooks []*Hook, key string) *Hook {
	t.Helper()
	for _, h := range hooks {
		if h.Key == key {
			return h
		}
	}
	t.Fatalf("no hook %s among %q", key, cfgKeys(hooks))
	return nil
}

func wantWarning(t *testing.T, warns []Warning, substr string) {
	t.Helper()
	for _, w := range warns {
		if strings.Contains(w.Message, substr) {
			return
		}
	}
	t.Errorf("no warning containing %q in %q", substr, cfgMessages(warns))
}

func stateTOML(key, fields string) string {
	return "[hooks.state.\"" + key + "\"]\n" + fields + "\n"
}

func TestTrust_StatusFollowsTheStoredHash(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	h := hookByKey(t, hooks, f.userKey)
	if h.Trust != TrustUntrusted || !h.Enabled || h.TrustedHash != "" {
		t.Fatalf("no state: trust %q enabled %v", h.Trust, h.Enabled)
	}
	f.writeUserConfig(t, stateTOML(f.userKey, `trusted_hash = "`+h.Hash()+`"`))
	hooks, _ = Discover(codexProfile(), f.opts())
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustTrusted || h.TrustedHash != h.Hash() {
		t.Errorf("stored hash equal: trust %q", h.Trust)
	}
	// The same key with other content: modified, and the old hash is kept
	// so the list can say the content changed since it was trusted.
	discWriteFile(t, filepath.Join(f.home, "hooks.json"), discStopJSON("echo changed"))
	hooks, _ = Discover(codexProfile(), f.opts())
	if m := hookByKey(t, hooks, f.userKey); m.Trust != TrustModified || m.TrustedHash != h.Hash() || m.Hash() == h.Hash() {
		t.Errorf("content changed: trust %q trustedHash %q hash %q", m.Trust, m.TrustedHash, m.Hash())
	}
}

func TestTrust_EnabledIsIndependentOfTrust(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	hash := hookByKey(t, hooks, f.userKey).Hash()
	f.writeUserConfig(t, stateTOML(f.userKey, "enabled = false\ntrusted_hash = \""+hash+"\""))
	hooks, _ = Discover(codexProfile(), f.opts())
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustTrusted || h.Enabled {
		t.Errorf("trust %q enabled %v, want trusted and disabled", h.Trust, h.Enabled)
	}
}

func TestTrust_ProjectConfigCannotTrustItsOwnHooks(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	hash := hookByKey(t, hooks, f.projectKey).Hash()
	discWriteFile(t, filepath.Join(f.project, ".codex", "config.toml"), stateTOML(f.projectKey, `trusted_hash = "`+hash+`"`))
	hooks, warns := Discover(codexProfile(), f.opts())
	if h := hookByKey(t, hooks, f.projectKey); h.Trust != TrustUntrusted {
		t.Errorf("project state was honoured: trust %q", h.Trust)
	}
	wantWarning(t, warns, "a project cannot authorize its own hooks")
}

func TestTrust_ProfileTablesCannotHoldState(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	hash := hookByKey(t, hooks, f.userKey).Hash()
	f.writeUserConfig(t, "[profiles.work.hooks.state.\""+f.userKey+"\"]\ntrusted_hash = \""+hash+"\"\n")
	hooks, warns := Discover(codexProfile(), f.opts())
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustUntrusted {
		t.Errorf("profile state was honoured: trust %q", h.Trust)
	}
	wantWarning(t, warns, `ignoring hooks.state in profile "work"`)
}

func TestTrust_MalformedEntriesAreIgnoredAndTOMLHooksStillLoad(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	hash := hookByKey(t, hooks, f.userKey).Hash()
	f.writeUserConfig(t, discStopTOML("echo toml")+
		stateTOML(f.userKey, `trusted_hash = "`+hash+`"`)+
		stateTOML(f.projectKey, `enabled = "no"`)+
		"[hooks.state.\"other\"]\ntrusted-hash = \"x\"\n")
	hooks, warns := Discover(codexProfile(), f.opts())
	if len(hooks) != 3 {
		t.Fatalf("hooks %q", cfgKeys(hooks))
	}
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustTrusted {
		t.Errorf("a malformed neighbour broke a good entry: %q", h.Trust)
	}
	if h := hookByKey(t, hooks, f.projectKey); !h.Enabled {
		t.Error("a malformed entry was applied")
	}
	wantWarning(t, warns, `ignoring malformed hooks.state entry "`+f.projectKey+`"`)
	wantWarning(t, warns, `ignoring unknown field "trusted-hash"`)
}

func TestTrust_OverridesApplyFieldByFieldOverTheUserConfig(t *testing.T) {
	f := newTrustFixture(t)
	hooks, _ := Discover(codexProfile(), f.opts())
	hash := hookByKey(t, hooks, f.userKey).Hash()
	f.writeUserConfig(t, stateTOML(" "+f.userKey+" ", "enabled = false"))
	opts := f.opts()
	// The session trusts the hook; the command line re-enables it.
	opts.SessionHooks = []byte(`{"state": {"` + f.userKey + `": {"trusted_hash": "` + hash + `"}}}`)
	opts.StateOverrides = []byte(`{"` + f.userKey + `": {"enabled": true}}`)
	hooks, warns := Discover(codexProfile(), opts)
	cfgWantWarnings(t, warns)
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustTrusted || !h.Enabled {
		t.Errorf("trust %q enabled %v, want trusted and enabled", h.Trust, h.Enabled)
	}
	opts.StateOverrides = nil
	hooks, _ = Discover(codexProfile(), opts)
	if h := hookByKey(t, hooks, f.userKey); h.Trust != TrustTrusted || h.Enabled {
		t.Errorf("without the CLI override: trust %q enabled %v, want trusted and disabled (trimmed key)", h.Trust, h.Enabled)
	}
}

func TestTrust_SessionHooksNeedTrustAndTrustByKey(t *testing.T) {
	f := newTrustFixture(t)
	opts := f.opts()
	opts.SessionHooks = []byte(`{"Stop": [{"hooks": [{"type": "command", "command": "echo session"}]}]}`)
	hooks, _ := Discover(codexProfile(), opts)
	h := hookByKey(t, hooks, "session:stop:0:0")
	if h.Trust != TrustUntrusted || h.Source.Layer != LayerSession {
		t.Fatalf("session hook trust %q layer %q", h.Trust, h.Source.Layer)
	}
	f.writeUserConfig(t, stateTOML("session:stop:0:0", `trusted_hash = "`+h.Hash()+`"`))
	hooks, _ = Discover(codexProfile(), opts)
	if h := hookByKey(t, hooks, "session:stop:0:0"); h.Trust != TrustTrusted {
		t.Errorf("trusted by key: %q", h.Trust)
	}
}

func newEngine(t *testing.T, opts DiscoverOptions, bypass bool) *Engine {
	t.Helper()
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: t.TempDir()}, Discover: opts, BypassTrust: bypass})
	t.Cleanup(e.Close)
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	return e
}

func skipReasons(t *testing.T, e *Engine, event, input string) map[string]string {
	t.Helper()
	res, err := e.Run(context.Background(), event, []byte(input), "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range res.Skipped {
		out[s.Key] = s.Reason
	}
	return out
}

func TestEngine_TrustRecordsTheHashAndReTrustKeepsDisabled(t *testing.T) {
	f := newTrustFixture(t)
	e := newEngine(t, f.opts(), false)
	if n := e.AwaitingReview(); n != 2 {
		t.Errorf("awaiting review = %d, want 2", n)
	}
	got, err := e.Trust(context.Background(), []string{f.userKey, f.userKey})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Key != f.userKey || !strings.HasPrefix(got[0].Hash, "sha256:") {
		t.Fatalf("trusted %+v", got)
	}
	if err := e.SetEnabled(context.Background(), f.userKey, false); err != nil {
		t.Fatal(err)
	}
	e.Load()
	if r := skipReasons(t, e, "Stop", `{}`); r[f.userKey] != "disabled" || r[f.projectKey] != "untrusted" {
		t.Errorf("skipped %v", r)
	}
	// Edit the hook: modified, and re-trusting it keeps it disabled.
	discWriteFile(t, filepath.Join(f.home, "hooks.json"), discStopJSON("echo edited"))
	e.Load()
	if err := e.SetEnabled(context.Background(), f.userKey, true); err != nil {
		t.Fatal(err)
	}
	e.Load()
	if r := skipReasons(t, e, "Stop", `{}`); r[f.userKey] != "modified" {
		t.Errorf("after edit: %v", r)
	}
	if err := e.SetEnabled(context.Background(), f.userKey, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Trust(context.Background(), []string{f.userKey}); err != nil {
		t.Fatal(err)
	}
	e.Load()
	list, _ := e.List("Stop")
	for _, h := range list {
		if h.Key == f.userKey && (h.Trust != TrustTrusted || h.Enabled || h.SkipReason != "disabled") {
			t.Errorf("re-trusted: %+v", h)
		}
	}
}

func TestEngine_TrustAndSetEnabledRefuseUnknownKeysAndManagedDisable(t *testing.T) {
	f := newTrustFixture(t)
	m := newManagedFixture(t, "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo managed\"\n")
	opts := f.opts()
	opts.Managed = m.requirements
	e := newEngine(t, opts, false)
	var pe *ParamError
	if _, err := e.Trust(context.Background(), []string{f.userKey, "nope"}); !errors.As(err, &pe) || pe.Field != "keys" || !strings.Contains(pe.Msg, `"nope"`) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.home, "config.toml")); !os.IsNotExist(err) {
		t.Errorf("a failed trust wrote state: %v", err)
	}
	if err := e.SetEnabled(context.Background(), m.key, false); !errors.As(err, &pe) || !strings.Contains(pe.Msg, "managed hooks cannot be disabled") {
		t.Errorf("disable managed: %v", err)
	}
	if got, err := e.Trust(context.Background(), []string{m.key}); err != nil || len(got) != 1 {
		t.Errorf("trusting a managed hook is a no-op: %v %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(f.home, "config.toml")); !os.IsNotExist(err) {
		t.Errorf("trusting a managed hook wrote state: %v", err)
	}
}

func TestEngine_BypassRunsUntrustedButNotDisabledAndWritesNothing(t *testing.T) {
	f := newTrustFixture(t)
	f.writeUserConfig(t, stateTOML(f.projectKey, "enabled = false"))
	before, _ := os.ReadFile(filepath.Join(f.home, "config.toml"))
	e := newEngine(t, f.opts(), true)
	res, err := e.Run(context.Background(), "Stop", []byte(`{}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Key != f.userKey || len(res.Skipped) != 1 || res.Skipped[0].Reason != "disabled" {
		t.Errorf("ran %+v skipped %+v", res.Hooks, res.Skipped)
	}
	if n := e.AwaitingReview(); n != 0 {
		t.Errorf("awaiting review under bypass = %d", n)
	}
	after, _ := os.ReadFile(filepath.Join(f.home, "config.toml"))
	if string(before) != string(after) {
		t.Error("bypass wrote state")
	}
}
