package copilot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/httphook"
)

// A plugin folder whose name holds shell syntax must not run through a
// command that uses "${PLUGIN_ROOT}": the engine pastes plugin variables at
// run time through the one substitution path, which refuses such a value.
func TestSecurity_PluginFolderNamedWithShellSyntaxDoesNotRunThroughPluginRoot(t *testing.T) {
	for _, tc := range []struct {
		folder string
		runs   bool
	}{{"plug$(touch PWNED)", false}, {"plug", true}} {
		t.Run(tc.folder, func(t *testing.T) {
			dir := t.TempDir()
			home, repo := filepath.Join(dir, "home"), filepath.Join(dir, "repo")
			plug := filepath.Join(dir, "plugins", tc.folder)
			out := filepath.Join(dir, "seen")
			for _, d := range []string{home, repo, plug} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			doc := `{"hooks": {"userPromptSubmitted": [{"type": "command", "bash": "printf %s \"${PLUGIN_ROOT}\" > ` + out + `"}]}}`
			if err := os.WriteFile(filepath.Join(plug, "hooks.json"), []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: repo},
				Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: repo, Cwd: repo,
					PluginDirs: []string{filepath.Dir(plug)}, Managed: filepath.Join(home, "no-policy")}})
			t.Cleanup(e.Close)
			e.Load()
			res, err := e.Run(context.Background(), "userPromptSubmitted", []byte(`{"prompt": "hi"}`), "")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(repo, "PWNED")); err == nil {
				t.Fatal("the plugin folder's name ran as a command")
			}
			got, err := os.ReadFile(out)
			if tc.runs && string(got) != plug {
				t.Fatalf("${PLUGIN_ROOT} reached the hook as %q, want %q (%+v)", got, plug, res.Hooks)
			}
			if !tc.runs && (err == nil || len(res.Hooks) != 1 || res.Hooks[0].Status != hooks.StatusFailed) {
				t.Fatalf("the refused hook: %q %+v", got, res.Hooks)
			}
		})
	}
}

// The https rule holds on every hop: an https preToolUse hook redirected to
// plain http is refused before anything is sent there.
func TestSecurity_HTTPSRuleHoldsOnRedirectsNotOnlyTheFirstURL(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(plain.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(secure.Close)
	t.Setenv("COPILOT_HOOK_ALLOW_LOCALHOST", "")
	h := httphook.Handler{URL: secure.URL, Headers: map[string]string{"X-Key": "$K"}, AllowedEnvVars: []string{"K"}}
	res := httphook.Run(context.Background(), secure.Client(), h, httpPolicy("preToolUse", nil),
		func(string) (string, bool) { return "k", true }, []byte(`{}`))
	if !res.Blocked || plainHits.Load() != 0 || !strings.Contains(res.Err.Error(), "https URL is required") {
		t.Fatalf("result %+v, the http server got %d request(s)", res, plainHits.Load())
	}
}

// $VAR in a handler's env values expands from the hooks' environment (the
// provider settings Copilot CLI keeps from hooks, the host's allowlist),
// never from hookd's own.
func TestSecurity_EnvValuesDoNotExpandWhatTheHookEnvironmentDrops(t *testing.T) {
	t.Setenv("COPILOT_PROVIDER_API_KEY", "sk-provider")
	t.Setenv("T_COPILOT_OTHER", "other")
	dir := t.TempDir()
	home, repo, out := filepath.Join(dir, "home"), filepath.Join(dir, "repo"), filepath.Join(dir, "seen")
	for _, d := range []string{filepath.Join(home, "hooks"), repo} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	doc := `{"version": 1, "hooks": {"userPromptSubmitted": [{"type": "command", "bash": "printf %s \"$A|$B\" > ` + out +
		`", "env": {"A": "$COPILOT_PROVIDER_API_KEY", "B": "$T_COPILOT_OTHER"}}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks", "x.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		allow []string
		want  string
	}{{nil, "|other"}, {[]string{"PATH"}, "|"}} {
		e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: repo}, EnvAllowlist: tc.allow,
			Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: repo, Cwd: repo, Managed: filepath.Join(home, "no-policy")}})
		e.Load()
		if _, err := e.Run(context.Background(), "userPromptSubmitted", []byte(`{"prompt": "hi"}`), ""); err != nil {
			t.Fatal(err)
		}
		e.Close()
		if got, _ := os.ReadFile(out); string(got) != tc.want {
			t.Errorf("allowlist %v: the hook saw %q, want %q", tc.allow, got, tc.want)
		}
	}
}
