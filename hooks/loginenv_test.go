package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
)

// loginEnvEngine builds an engine whose hooks run in a login shell
// (/bin/sh -lc, as Mind runs them), whose user's ~/.profile is profile,
// with one Stop hook.
func loginEnvEngine(t *testing.T, cache bool, profile, hook string) (e *Engine, home string) {
	t.Helper()
	home = t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("HOME", home)
	t.Setenv("ENV", "")
	hooksObj := `{"Stop":[{"hooks":[{"type":"command","command":` + jsonString(hook) + `}]}]}`
	login := seamProfile(func(p *Profile) { p.Shell = []string{"/bin/sh", "-lc"} })
	e = New(Options{Profile: login, Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(hooksObj)},
		BypassTrust: true, LoginEnvCache: cache})
	t.Cleanup(e.Close)
	e.Load()
	return e, home
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

const countingProfile = `echo x >> "$HOME/profile-runs"
export HOOKD_TEST_FROM_PROFILE=exported
unexported=1
greet() { echo hi; }
`

func TestLoginEnvCache_ProfileRunsOncePerLoadAndExportsReachHooks(t *testing.T) {
	hook := `printf '%s:%s:%s\n' "$HOOKD_TEST_FROM_PROFILE" "${unexported:-none}" "$(greet 2>/dev/null || echo nofunc)" >> "$HOME/seen"`
	for _, c := range []struct {
		cache    bool
		runs     int
		wantSeen string
	}{
		// Without the cache each hook is a login shell: the profile runs
		// every time and everything it defines is there.
		{false, 3, "exported:1:hi"},
		// With it the profile ran once; only what it exports is there.
		{true, 1, "exported:none:nofunc"},
	} {
		e, home := loginEnvEngine(t, c.cache, countingProfile, hook)
		for range 3 {
			res, err := e.Run(context.Background(), "Stop", nil, "")
			if err != nil || len(res.Hooks) != 1 || res.Hooks[0].Status != StatusSucceeded {
				t.Fatalf("cache %v: run %+v %v", c.cache, res, err)
			}
		}
		if n := len(lines(t, filepath.Join(home, "profile-runs"))); n != c.runs {
			t.Errorf("cache %v: the profile ran %d times for 3 hooks, want %d", c.cache, n, c.runs)
		}
		if seen := lines(t, filepath.Join(home, "seen")); !slices.Equal(seen, []string{c.wantSeen, c.wantSeen, c.wantSeen}) {
			t.Errorf("cache %v: hooks saw %q, want %q three times", c.cache, seen, c.wantSeen)
		}
	}
}

func TestLoginEnvCache_ReloadResolvesAgain(t *testing.T) {
	// What a profile prints is not mistaken for the environment.
	e, home := loginEnvEngine(t, true, "echo profile chatter\nexport HOOKD_TEST_V=one\n", `printf '%s\n' "$HOOKD_TEST_V" >> "$HOME/seen"`)
	if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte("echo more chatter\nexport HOOKD_TEST_V=two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
		t.Fatal(err)
	}
	e.Load()
	if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
		t.Fatal(err)
	}
	if seen := lines(t, filepath.Join(home, "seen")); !slices.Equal(seen, []string{"one", "one", "two"}) {
		t.Errorf("hooks saw %q: the profile change must show only after a reload", seen)
	}
}

func TestLoginEnvCache_ShellLevelAndPwdAreTheLoginShells(t *testing.T) {
	t.Setenv("SHLVL", "4")
	hook := `printf '%s %s\n' "$SHLVL" "$PWD" >> "$HOME/seen"`
	var got [2][]string
	for i, cache := range []bool{false, true} {
		e, home := loginEnvEngine(t, cache, "", hook)
		if _, err := e.Run(context.Background(), "Stop", nil, ""); err != nil {
			t.Fatal(err)
		}
		got[i] = lines(t, filepath.Join(home, "seen"))
		if len(got[i]) != 2 || got[i][1] != e.opts.Session.Cwd {
			t.Errorf("cache %v: hook saw %q, want its cwd %s", cache, got[i], e.opts.Session.Cwd)
		}
	}
	if got[0][0] != got[1][0] {
		t.Errorf("SHLVL %s with the login shell, %s with the cache", got[0][0], got[1][0])
	}
}

func TestLoginEnvCache_FailedResolutionFallsBackToTheLoginShell(t *testing.T) {
	p := seamProfile(func(p *Profile) { p.Shell = []string{"/bin/sh", "-lc"} })
	home := t.TempDir()
	// A profile that makes the login shell fail: the resolution gives up,
	// and hooks get what they get without the cache.
	profile := "exit 3\n"
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	e := New(Options{Profile: p, Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover: DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(`{}`)}, LoginEnvCache: true})
	t.Cleanup(e.Close)
	e.Load()
	shell, base := e.hookShell(context.Background())
	if !slices.Equal(shell, []string{"/bin/sh", "-lc"}) || !slices.Equal(base, e.env) {
		t.Errorf("after a failed resolution: shell %q, want the login shell with hookd's environment", shell)
	}
}

func TestNonLoginShell(t *testing.T) {
	for _, c := range []struct {
		in, want []string
		login    bool
	}{
		{[]string{"/bin/bash", "-lc"}, []string{"/bin/bash", "-c"}, true},
		{[]string{"zsh", "-l", "-c"}, []string{"zsh", "-c"}, true},
		{[]string{"bash", "--login", "-c"}, []string{"bash", "-c"}, true},
		{[]string{"sh", "-c"}, nil, false},
		{[]string{"sh"}, nil, false},
	} {
		got, login := nonLoginShell(c.in)
		if login != c.login || (login && !slices.Equal(got, c.want)) {
			t.Errorf("nonLoginShell(%q) = %q, %v; want %q, %v", c.in, got, login, c.want, c.login)
		}
	}
}

// A hook waiting for the login environment waits within its own timeout, and
// without a running slot: a login profile slower than the timeout times the
// hook out, as the login shell would have.
func TestLoginEnvCache_TheWaitCountsAgainstTheHooksTimeout(t *testing.T) {
	home := t.TempDir()
	// The profile takes 3 s, once (the resolution); the hook has 1 s.
	if err := os.WriteFile(filepath.Join(home, ".profile"), []byte("[ -e \"$HOME/resolved\" ] || { sleep 3; : > \"$HOME/resolved\"; }\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("HOME", home)
	t.Setenv("ENV", "")
	hooksObj := `{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":1}]}]}`
	login := seamProfile(func(p *Profile) { p.Shell = []string{"/bin/sh", "-lc"} })
	e := New(Options{Profile: login, Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(hooksObj)},
		BypassTrust: true, LoginEnvCache: true})
	t.Cleanup(e.Close)
	e.Load()
	res, err := e.Run(context.Background(), "Stop", []byte(`{}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Status != StatusTimedOut || res.Hooks[0].DurationMs < 1000 {
		t.Fatalf("hooks %+v, want one timed out after its 1 s", res.Hooks)
	}
}
