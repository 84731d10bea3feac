//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/realhost/rh"
)

// codexRun is one codex exec run: its folders, recorder and model.
type codexRun struct {
	home, work string
	rec        *rh.Recorder
	model      *model
	stdout     string
	stderr     string
}

// newCodex prepares CODEX_HOME with a config that points at a scripted model
// and the given hooks (the "hooks" object of hooks.json).
func newCodex(t *testing.T, hooks map[string]any, script ...turn) *codexRun {
	t.Helper()
	r := &codexRun{home: t.TempDir(), work: t.TempDir(), rec: rh.NewRecorder(t)}
	r.model = startOpenAI(t, script...)
	rh.WriteFile(t, filepath.Join(r.home, "config.toml"), fmt.Sprintf(`model = "realhost-model"
model_provider = "realhost"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.realhost]
name = "realhost"
base_url = "%s/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true
`, r.model.URL()))
	b, _ := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	rh.WriteFile(t, filepath.Join(r.home, "hooks.json"), string(b))
	os.MkdirAll(filepath.Join(r.home, "tmp"), 0o755)
	return r
}

// exec runs codex exec with prompt and returns when it exits.
func (r *codexRun) exec(t *testing.T, prompt string, extra ...string) {
	t.Helper()
	bin, err := hostBinary("@openai/codex", codexVersion, "codex")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	env := append(baseEnv(r.home), "CODEX_HOME="+r.home, "OPENAI_API_KEY=sk-realhost", "RUST_LOG=error")
	args := append([]string{"exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", "-C", r.work}, extra...)
	args = append(args, prompt)
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, env, "", bin, args...)
	if err != nil {
		t.Logf("codex exec: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

// hookd runs the same hooks through `hookd run EVENT` with the given input
// and returns its result JSON.
func (r *codexRun) hookd(t *testing.T, event, input string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	in := filepath.Join(t.TempDir(), "input.json")
	rh.WriteFile(t, in, input)
	args := append([]string{"run", event, "--profile", "codex", "--home", r.home, "--cwd", r.work, "--bypass-trust", "--input", in}, extra...)
	env := append(baseEnv(r.home), "CODEX_HOME="+r.home)
	out, errOut, err := rh.Run(ctx, r.work, env, "", rh.Hookd(t), args...)
	if err != nil && out == "" {
		t.Logf("hookd run: %v\n%s", err, errOut)
	}
	return out
}
