package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// hookServer records the http hook requests it gets and answers reply.
type hookServer struct {
	mu     sync.Mutex
	bodies []string
	heads  []http.Header
	*httptest.Server
}

func newHookServer(t *testing.T, status int, reply string) *hookServer {
	s := &hookServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies, s.heads = append(s.bodies, string(b)), append(s.heads, r.Header.Clone())
		s.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, reply)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *hookServer) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Claude Code's http handlers (measured on 2.1.328): the input is POSTed,
// a 2xx body is read like stdout, header variables expand only when
// allowed, a URL outside allowedHttpHookUrls is never requested, and a
// non-2xx answer is a failure that does not block.
func TestClaudeHTTP_HandlersThroughTheBinary(t *testing.T) {
	deny := newHookServer(t, 200, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"http says no"}}`)
	broken := newHookServer(t, 500, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`)
	outside := newHookServer(t, 200, `{}`)
	outsideURL := strings.Replace(outside.URL, "127.0.0.1", "localhost", 1) + "/x"
	home := t.TempDir()
	settings := `{"allowedHttpHookUrls": ["http://127.0.0.1:*"], "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "http", "url": "` + deny.URL + `/hook", "headers": {"X-Allowed": "Bearer $ALLOWED_TOKEN", "X-Other": "${OTHER_TOKEN}"}, "allowedEnvVars": ["ALLOWED_TOKEN"]},
		{"type": "http", "url": "` + broken.URL + `/broken"},
		{"type": "http", "url": "` + outsideURL + `"}
	]}]}}`
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(hookdPath(t), "run", "PreToolUse", "--profile", "claude", "--home", home, "--cwd", t.TempDir(), "--input", "-")
	cmd.Stdin = strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1"}`)
	cmd.Env = append(os.Environ(), "ALLOWED_TOKEN=tok-a", "OTHER_TOKEN=tok-b")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("hookd run: %v (want exit 2)\n%s", err, out)
	}
	res := gjson.ParseBytes(out)
	if res.Get("decision").Str != "deny" || res.Get("reason").Str != "http says no" {
		t.Errorf("decision %q reason %q, want deny with the server's reason\n%s", res.Get("decision").Str, res.Get("reason").Str, out)
	}
	if deny.requests() != 1 || gjson.Get(deny.bodies[0], "tool_input.command").Str != "ls" || gjson.Get(deny.bodies[0], "hook_event_name").Str != "PreToolUse" {
		t.Fatalf("the hook server got %q", deny.bodies)
	}
	if h := deny.heads[0]; h.Get("X-Allowed") != "Bearer tok-a" || h.Get("X-Other") != "" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers: %v", h)
	}
	if broken.requests() != 1 || res.Get("hooks.1.status").Str != "failed" || !strings.Contains(res.Get("hooks.1.error").Str, "HTTP 500 from "+broken.URL+"/broken") {
		t.Errorf("non-2xx: %s", res.Get("hooks.1").Raw)
	}
	want := "HTTP hook blocked: " + outsideURL + " does not match any pattern in allowedHttpHookUrls"
	if outside.requests() != 0 || res.Get("hooks.2.status").Str != "failed" || !strings.Contains(res.Get("hooks.2.error").Str, want) {
		t.Errorf("blocked URL: %d requests, %s", outside.requests(), res.Get("hooks.2").Raw)
	}
}
