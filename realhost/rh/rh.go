//go:build realhost

// Package rh is what the real-host suites (realhost, realhost/newhosts)
// share: the CLIs installed from npm into a cache folder, hookd built from
// this tree, a recorder that hooks write their calls to, a process runner
// that leaves nothing behind, and a scripted model server whose wire format
// each suite supplies.
package rh

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/hookd/hookd/hooks"
)

// EnvOr is $k, or def when it is unset or empty.
func EnvOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// CacheDir is where the CLIs are installed: $REALHOST_CACHE, else the user
// cache folder's hookd-realhost.
func CacheDir() (string, error) {
	if d := os.Getenv("REALHOST_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder (set REALHOST_CACHE): %w", err)
	}
	return filepath.Join(d, "hookd-realhost"), nil
}

// NPMPath returns <cache>/<name>-<version>/node_modules/<rel>, installing
// pkg@version there first (one folder per version) when it is missing. The
// install is held under a file lock beside the folder, so test processes
// running side by side (go test runs one per package) wait for one install
// instead of starting a CLI another is still unpacking; a folder counts as
// installed once its marker file is written, after npm has finished.
func NPMPath(pkg, version, rel string) (string, error) {
	root, err := CacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.Base(pkg)+"-"+version)
	path := filepath.Join(dir, "node_modules", rel)
	marker := filepath.Join(dir, ".installed")
	lock := flock.New(dir + ".lock")
	if err := lock.Lock(); err != nil {
		return "", fmt.Errorf("lock %s: %w", lock.Path(), err)
	}
	defer lock.Unlock()
	if _, err := os.Stat(marker); err == nil {
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", pkg+"@"+version)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("npm install %s@%s left no %s: %w", pkg, version, path, err)
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return "", err
	}
	return path, nil
}

var (
	hookdOnce sync.Once
	hookdBin  string
	hookdErr  error
)

// Hookd builds the hookd binary of this tree once, or returns
// $REALHOST_HOOKD (a hookd built elsewhere, to fill a "before" column).
func Hookd(t testing.TB) string {
	t.Helper()
	hookdOnce.Do(func() {
		if p := os.Getenv("REALHOST_HOOKD"); p != "" {
			hookdBin = p
			return
		}
		dir, err := os.MkdirTemp("", "realhost-hookd")
		if err != nil {
			hookdErr = err
			return
		}
		hookdBin = filepath.Join(dir, "hookd")
		if out, err := exec.Command("go", "build", "-o", hookdBin, "github.com/hookd/hookd").CombinedOutput(); err != nil {
			hookdErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if hookdErr != nil {
		t.Fatal(hookdErr)
	}
	return hookdBin
}

// Run runs a program in its own process group with stdin, killed with the
// group when ctx ends or the program exits (hooks left running), and
// returns its stdout and stderr.
func Run(ctx context.Context, dir string, env []string, stdin string, name string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return out.String(), errb.String(), err
}

// WriteFile writes content to path, making its folder.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Recorder is a folder where hooks leave what they received: each call of
// hook NAME writes NAME.<random>.in (stdin), .env (environment) and .shell
// (login or nonlogin).
type Recorder struct{ Dir string }

// NewRecorder is a recorder in a fresh temporary folder.
func NewRecorder(t testing.TB) *Recorder { return &Recorder{Dir: t.TempDir()} }

// Cmd is a hook command that records its call as name, then prints out
// (kept in a file, so any text is safe) and exits with code.
func (r *Recorder) Cmd(name, out string, code int) string { return r.CmdSleep(name, out, code, 0) }

// CmdSleep is Cmd that sleeps sleep seconds before it prints.
func (r *Recorder) CmdSleep(name, out string, code int, sleep float64) string {
	outFile := filepath.Join(r.Dir, name+".out")
	if err := os.WriteFile(outFile, []byte(out), 0o644); err != nil {
		panic(err)
	}
	s := ""
	if sleep > 0 {
		s = fmt.Sprintf("sleep %g; ", sleep)
	}
	return fmt.Sprintf(`f=$(mktemp %s) && cat > "$f.in" && env > "$f.env" && { if shopt -q login_shell 2>/dev/null; then echo login; else echo nonlogin; fi; } > "$f.shell" && %scat %s; exit %d`,
		hooks.ShellQuote(filepath.Join(r.Dir, name)+".XXXXXX"), s, hooks.ShellQuote(outFile), code)
}

// Call is one recorded call of a hook.
type Call struct {
	Stdin string
	Env   map[string]string
	Shell string
}

// Calls returns name's recorded calls, oldest first (by time, then name).
func (r *Recorder) Calls(name string) []Call {
	files, _ := filepath.Glob(filepath.Join(r.Dir, name+".??????.in"))
	sort.Slice(files, func(i, j int) bool {
		a, _ := os.Stat(files[i])
		b, _ := os.Stat(files[j])
		if !a.ModTime().Equal(b.ModTime()) {
			return a.ModTime().Before(b.ModTime())
		}
		return files[i] < files[j]
	})
	var out []Call
	for _, f := range files {
		base := strings.TrimSuffix(f, ".in")
		in, _ := os.ReadFile(f)
		env, _ := os.ReadFile(base + ".env")
		sh, _ := os.ReadFile(base + ".shell")
		out = append(out, Call{Stdin: string(in), Env: ParseEnv(string(env)), Shell: strings.TrimSpace(string(sh))})
	}
	return out
}

// Reset forgets the recorded calls (between the host's run and hookd's).
func (r *Recorder) Reset() {
	files, _ := filepath.Glob(filepath.Join(r.Dir, "*.??????*"))
	for _, f := range files {
		os.Remove(f)
	}
}

// ParseEnv reads the output of env into a map.
func ParseEnv(s string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[k] = v
		}
	}
	return m
}

// Turn is one scripted model answer: a tool call (Tool, with JSON Args) or,
// when Tool is empty, a final Text.
type Turn struct{ Tool, Args, Text string }

// CallTool is a turn that calls tool with args.
func CallTool(tool, args string) Turn { return Turn{Tool: tool, Args: args} }

// Say is a turn that answers text.
func Say(text string) Turn { return Turn{Text: text} }

// Model is a scripted model server. Each main-loop request takes the next
// turn; when the script is used up it answers "done". It records every
// request body so a case can read what reached the model.
type Model struct {
	mu       sync.Mutex
	script   []Turn
	requests []string
	n        int
	srv      *httptest.Server
	// more is closed (and replaced) when a request is recorded.
	more chan struct{}
}

// StartModel serves a scripted model until the test ends; serve answers one
// request in the API's wire format, taking main-loop turns with Next.
func StartModel(t testing.TB, script []Turn, serve func(m *Model, w http.ResponseWriter, r *http.Request, body []byte)) *Model {
	m := &Model{script: script, more: make(chan struct{})}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		serve(m, w, r, body)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// URL is the server's base URL.
func (m *Model) URL() string { return m.srv.URL }

// SetScript replaces the turns still to come.
func (m *Model) SetScript(script ...Turn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.script = script
}

// Next records body and returns the next turn.
func (m *Model) Next(body string) Turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, body)
	m.signal()
	if len(m.script) == 0 {
		return Say("done")
	}
	t := m.script[0]
	m.script = m.script[1:]
	return t
}

// Record records body without taking a turn (a request answered otherwise).
func (m *Model) Record(body string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, body)
	m.signal()
}

// signal wakes WaitRequests; m.mu is held.
func (m *Model) signal() {
	close(m.more)
	m.more = make(chan struct{})
}

// WaitRequests waits until n requests are recorded or ctx ends, and says
// whether they were. It is the signal that a host, driven where nothing
// else tells when it got somewhere (an interactive session), reached the
// model.
func (m *Model) WaitRequests(ctx context.Context, n int) bool {
	for {
		m.mu.Lock()
		got, more := len(m.requests), m.more
		m.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-more:
		case <-ctx.Done():
			return false
		}
	}
}

// Seq is a number that grows with each call, for response ids.
func (m *Model) Seq() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
	return m.n
}

// Requests returns the recorded request bodies.
func (m *Model) Requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.requests...)
}
