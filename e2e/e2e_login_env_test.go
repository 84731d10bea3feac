package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/client"
)

// loginEnvHome makes a user HOME whose ~/.profile counts its runs and
// exports a variable (plus extra lines), and a mind home whose Stop hook
// writes what it sees of that variable.
func loginEnvHome(t testing.TB, extra string) (userHome, mindHome string) {
	t.Helper()
	userHome, mindHome = t.TempDir(), t.TempDir()
	profile := `echo x >> "$HOME/profile-runs"` + "\nexport HOOKD_FROM_PROFILE=yes\n" + extra
	if err := os.WriteFile(filepath.Join(userHome, ".profile"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "printf '%s\\n' \"$HOOKD_FROM_PROFILE\" >> \"$HOME/seen\""}]}]}}`
	if err := os.WriteFile(filepath.Join(mindHome, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", userHome)
	t.Setenv("ENV", "")
	t.Setenv("TMPDIR", t.TempDir())
	return userHome, mindHome
}

func countLines(t *testing.T, path string) (n int, all string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n"), string(b)
}

// The mind profile runs hooks in a login shell. With --login-env-cache the
// profile runs once for the session and hooks still see what it exports;
// initialize's config.loginEnvCache overrides the flag.
func TestServe_LoginEnvCache_MindProfileRunsOnceAndExportsReachHooks(t *testing.T) {
	for _, c := range []struct {
		name        string
		args        []string
		config      map[string]any
		profileRuns int
	}{
		{"flag", []string{"--login-env-cache"}, nil, 1},
		{"initialize option", nil, map[string]any{"loginEnvCache": true}, 1},
		{"initialize turns the flag off", []string{"--login-env-cache"}, map[string]any{"loginEnvCache": false}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			userHome, mindHome := loginEnvHome(t, "")
			ctx := context.Background()
			args := append([]string{"serve", "--log-level", "warn", "--profile", "mind"}, c.args...)
			hc, err := client.Start(ctx, hookdPath(t), testWriter{t}, args...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(hc.Kill)
			cfg := map[string]any{"home": mindHome, "bypassTrust": true}
			for k, v := range c.config {
				cfg[k] = v
			}
			if _, err := hc.Initialize(ctx, map[string]any{"session": map[string]any{"cwd": t.TempDir()}, "config": cfg}); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if _, err := hc.Run(ctx, "Stop", map[string]any{}); err != nil {
					t.Fatal(err)
				}
			}
			if n, _ := countLines(t, filepath.Join(userHome, "profile-runs")); n != c.profileRuns {
				t.Errorf("the login profile ran %d times for 3 hooks, want %d", n, c.profileRuns)
			}
			if _, seen := countLines(t, filepath.Join(userHome, "seen")); seen != "yes\nyes\nyes\n" {
				t.Errorf("hooks saw %q, want the exported value each time", seen)
			}
		})
	}
}
