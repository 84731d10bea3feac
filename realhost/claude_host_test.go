//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"

	"github.com/hookd/hookd/realhost/rh"
)

// claudeRun is one claude -p run: its folders, recorder and model.
type claudeRun struct {
	home, work string
	rec        *rh.Recorder
	model      *model
	stdout     string
	stderr     string
	env        []string // extra environment for the host and hookd
	stdin      string   // the host's stdin (stream-json prompts, see execPrompts)
}

// newClaude prepares a HOME whose ~/.claude/settings.json holds settings
// (with "hooks") and a scripted model.
func newClaude(t *testing.T, rec *rh.Recorder, settings map[string]any, script ...turn) *claudeRun {
	t.Helper()
	r := &claudeRun{home: t.TempDir(), work: t.TempDir(), rec: rec}
	r.model = startAnthropic(t, script...)
	b, _ := json.MarshalIndent(settings, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, ".claude", "settings.json"), string(b))
	os.MkdirAll(filepath.Join(r.home, "tmp"), 0o755)
	return r
}

func (r *claudeRun) hostEnv() []string {
	env := append(baseEnv(r.home),
		"ANTHROPIC_BASE_URL="+r.model.URL(),
		"ANTHROPIC_API_KEY=sk-ant-realhost",
		"IS_SANDBOX=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
	)
	return append(env, r.env...)
}

// exec runs claude -p with prompt and returns when it exits.
func (r *claudeRun) exec(t *testing.T, prompt string, extra ...string) {
	t.Helper()
	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	args := append([]string{"-p", "--output-format", "stream-json", "--include-hook-events", "--verbose",
		"--dangerously-skip-permissions", "--model", "claude-sonnet-4-5"}, extra...)
	if prompt != "" {
		args = append(args, prompt)
	}
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, r.hostEnv(), r.stdin, bin, args...)
	if err != nil {
		t.Logf("claude -p: %v\nstdout:\n%.4000s\nstderr:\n%.4000s", err, r.stdout, r.stderr)
	}
}

// execPrompts runs claude -p with the prompts as stream-json user messages
// on its stdin, one after the other in one session.
func (r *claudeRun) execPrompts(t *testing.T, prompts []string, extra ...string) {
	t.Helper()
	var b strings.Builder
	for _, p := range prompts {
		b.WriteString(mustJSON(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": p}}) + "\n")
	}
	r.stdin = b.String()
	defer func() { r.stdin = "" }()
	r.exec(t, "", append([]string{"--input-format", "stream-json"}, extra...)...)
}

// hookd runs the same settings through `hookd run EVENT --profile claude`
// with the given input and returns its result JSON.
func (r *claudeRun) hookd(t *testing.T, event, input string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	in := filepath.Join(t.TempDir(), "input.json")
	rh.WriteFile(t, in, input)
	args := append([]string{"run", event, "--profile", "claude", "--home", filepath.Join(r.home, ".claude"), "--cwd", r.work, "--input", in}, extra...)
	env := append(baseEnv(r.home), r.env...)
	out, errOut, err := rh.Run(ctx, r.work, env, "", rh.Hookd(t), args...)
	if err != nil && out == "" {
		t.Logf("hookd run: %v\n%s", err, errOut)
	}
	return out
}

// serveHookd starts `hookd serve` with the run's environment and
// initializes a claude session in the run's folders, with the session
// fields of extra (printMode...). Kill it when done.
func (r *claudeRun) serveHookd(t *testing.T, ctx context.Context, extra ...map[string]any) *client.Client {
	t.Helper()
	// Built before TMPDIR changes: the binary outlives this test's folders.
	bin := rh.Hookd(t)
	for _, kv := range append(baseEnv(r.home), r.env...) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	c, err := client.Start(ctx, bin, io.Discard, "serve", "--log-level", "error")
	if err != nil {
		t.Fatal(err)
	}
	session := map[string]any{"cwd": r.work}
	for _, m := range extra {
		for k, v := range m {
			session[k] = v
		}
	}
	if _, err := c.Initialize(ctx, map[string]any{"profile": "claude", "session": session,
		"config": map[string]any{"home": filepath.Join(r.home, ".claude")}}); err != nil {
		c.Kill()
		t.Fatal(err)
	}
	return c
}

// hookdServe runs event under `hookd serve --profile claude` (the Go client)
// and returns its result and the async results that arrive for the hooks it
// started in the background.
func (r *claudeRun) hookdServe(t *testing.T, event, input string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	c := r.serveHookd(t, ctx)
	defer c.Kill()
	res, err := c.Run(ctx, event, json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	var async []string
	for range gjson.GetBytes(res, `hooks.#(status=="started")#`).Array() {
		for n := range c.Notifications {
			if n.Method == "hooks/asyncCompleted" {
				async = append(async, string(n.Params))
				break
			}
		}
	}
	return string(res), async
}
