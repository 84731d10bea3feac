package qwen

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

func TestMatcher_AliasesListsAndUnanchoredRegex(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		tool    string
		want    bool
	}{
		{"", "run_shell_command", true},
		{" .* ", "run_shell_command", true},
		{"Bash", "run_shell_command", true},
		{"Shell", "run_shell_command", true},
		{"bash", "run_shell_command", false},
		{"shell", "run_shell_command", true},
		{"^run_shell", "run_shell_command", true},
		{"Write|Bash", "run_shell_command", true},
		{"Write|*", "read_file", true},
		{"Write", "run_shell_command", false},
		{"Write", "write_file", true},
		{"(Write|Edit)", "edit", false},
		{"run_shell_command(", "run_shell_command", false},
		{"run_shell_command(", "run_shell_command(", true},
		{"Read", "mcp__fs__Read", true},
		// A Claude Code name given by the host is matched as its Qwen name.
		{"run_shell_command", "Bash", true},
	} {
		m, err := compileMatcher(tc.pattern)
		if err != nil {
			t.Fatalf("%q: %v", tc.pattern, err)
		}
		if got := m.Match(toolNames(tc.tool)); got != tc.want {
			t.Errorf("matcher %q on %s: %v, want %v", tc.pattern, tc.tool, got, tc.want)
		}
	}
}

// engine builds a qwen engine over one settings.json.
func engine(t *testing.T, settings string) *hooks.Engine {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	e := hooks.New(hooks.Options{Profile: Profile, Session: hooks.Session{ID: "s1", Cwd: home},
		Discover: hooks.DiscoverOptions{Home: home, Managed: filepath.Join(home, "no-system.json")}})
	t.Cleanup(e.Close)
	e.Load()
	return e
}

func TestHTTPHandler_PostsTheInputAndReadsTheReplyAsStdout(t *testing.T) {
	var gotBody, gotAuth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotBody, gotAuth = string(b), r.Header.Get("Authorization")
		io.WriteString(w, `{"decision":"block","reason":"from http"}`)
	}))
	defer srv.Close()
	t.Setenv("HOOK_TOKEN", "tok")
	t.Setenv("NOT_ALLOWED", "secret")
	e := engine(t, `{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"`+srv.URL+`",
		"headers":{"Authorization":"Bearer $HOOK_TOKEN-${NOT_ALLOWED}-x"},"allowedEnvVars":["HOOK_TOKEN"]}]}]}}`)
	res, err := e.Run(context.Background(), "Stop", []byte(`{"stop_hook_active":false}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionBlock || res.Continuation != "from http" {
		t.Errorf("decision %s continuation %q", res.Decision, res.Continuation)
	}
	if !strings.Contains(gotBody, `"hook_event_name":"Stop"`) {
		t.Errorf("body %s", gotBody)
	}
	if gotAuth != "Bearer tok--x" {
		t.Errorf("Authorization %q: only allowedEnvVars may be filled in", gotAuth)
	}
}

func TestHTTPHandler_ANon2xxReplyIsANonBlockingError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"decision":"block","reason":"ignored"}`)
	}))
	defer srv.Close()
	e := engine(t, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"http","url":"`+srv.URL+`"}]}]}}`)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"hi"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionNone || res.Hooks[0].Status != hooks.StatusFailed || !strings.Contains(*res.Hooks[0].Error, "500") {
		t.Errorf("got %+v", res)
	}
}

func TestHTTPHandler_TimeoutFailsOpen(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	e := engine(t, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"http","url":"`+srv.URL+`","timeout":1}]}]}}`)
	res, err := e.Run(context.Background(), "PreToolUse", []byte(`{"tool_name":"edit","tool_input":{}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Decision != hooks.DecisionNone || res.Hooks[0].Status != hooks.StatusTimedOut {
		t.Errorf("got %+v", res.Hooks)
	}
}

func TestStop_BlocksAreCappedInARow(t *testing.T) {
	t.Setenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP", "2")
	e := engine(t, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'"}]}]}}`)
	var got []string
	for i := 0; i < 4; i++ {
		if i == 3 {
			// A new prompt starts the count again.
			if _, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"next"}`), ""); err != nil {
				t.Fatal(err)
			}
		}
		res, err := e.Run(context.Background(), "Stop", []byte(`{"stop_hook_active":true}`), "")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Decision+":"+res.Continuation)
	}
	want := "block:keep going,block:keep going,none:,block:keep going"
	if strings.Join(got, ",") != want {
		t.Errorf("got %s, want %s", strings.Join(got, ","), want)
	}
}

func TestURLMatch_QwenCodePatternRules(t *testing.T) {
	cases := []struct {
		pattern, url string
		want         bool
	}{
		{"https://api.example.com/*", "https://api.example.com/hook", true},
		{"https://api.example.com/*", "https://apixexample.com/hook", false},
		{"HTTPS://API.EXAMPLE.COM/*", "https://api.example.com/hook", true},
		{`https://api\.example\.com/.*`, "https://api.example.com/x", true},
		{`https://api\.example\.com/v(1|2)`, "https://api.example.com/v2", true},
		{"https://a.example/(", "https://a.example/(", true},
		{"https://a.example/", "https://a.example/x", false},
	}
	for _, c := range cases {
		if got := urlMatch(c.pattern, c.url); got != c.want {
			t.Errorf("urlMatch(%q, %q) = %v, want %v", c.pattern, c.url, got, c.want)
		}
	}
}

// Qwen Code's shell context reaches every command hook: the project folder
// under the home (<home>/projects/<path with every other character a
// dash>), the model identity when it describes the model (else ""), the
// subagent's id ("" outside one).
func TestCommandEnv_QwenShellContext(t *testing.T) {
	t.Setenv("QWEN_CODE_PROJECT_DIR", "")
	t.Setenv("QWEN_CODE_MODEL_IDENTITY", "")
	e := engine(t, `{"hooks": {"Stop": [{"hooks": [{"type": "command",
		"command": "cat >/dev/null; printf '%s|%s|%s' \"$QWEN_CODE_PROJECT_DIR\" \"${QWEN_CODE_MODEL_IDENTITY-unset}\" \"${QWEN_CODE_AGENT_ID-unset}\" >&2; exit 2"}]}]}}`)
	res, err := e.Run(context.Background(), "Stop", []byte(`{}`), "")
	if err != nil {
		t.Fatal(err)
	}
	home := e.Home()
	want := filepath.Join(home, "projects", projectSlug.ReplaceAllString(e.Session().Cwd, "-")) + "||"
	if len(res.Hooks) != 1 || !strings.Contains(res.Continuation+res.Reason, want) {
		t.Fatalf("env %q / %q, want %q", res.Continuation, res.Reason, want)
	}
	for id, want := range map[string]string{"qwen3-coder": "qwen3-coder", "qwen3-coder@0123abcd": "qwen3-coder@0123abcd", "other@0123abcd": "", "qwen3-coder@xyz": ""} {
		if got := modelIdentity(id, "qwen3-coder"); got != want {
			t.Errorf("modelIdentity(%q) = %q, want %q", id, got, want)
		}
	}
}
