//go:build realhost

package realhost

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hostTimeout bounds one run of a real host; a run that hits it fails the case.
const hostTimeout = 3 * time.Minute

// recorder is a folder where hooks write what they received: each call of
// hook NAME leaves NAME.<n>.in (stdin), .env (environment) and .shell
// (login or nonlogin).
type recorder struct{ dir string }

func newRecorder(t *testing.T) *recorder { return &recorder{dir: t.TempDir()} }

// cmd returns a shell command that records its call as name and then prints
// out (written to a file, so any text is safe) and exits with code.
func (r *recorder) cmd(name, out string, code int) string {
	outFile := filepath.Join(r.dir, name+".out")
	if err := os.WriteFile(outFile, []byte(out), 0o644); err != nil {
		panic(err)
	}
	base := filepath.Join(r.dir, name)
	return fmt.Sprintf(`f=$(mktemp %s.XXXXXX) && cat > "$f.in" && env > "$f.env" && { if shopt -q login_shell 2>/dev/null; then echo login; else echo nonlogin; fi; } > "$f.shell" && cat %s; exit %d`,
		base, outFile, code)
}

// calls returns the recorded calls of name, oldest first (by mtime, then name).
func (r *recorder) calls(name string) []call {
	files, _ := filepath.Glob(filepath.Join(r.dir, name+".??????.in"))
	sort.Slice(files, func(i, j int) bool {
		a, _ := os.Stat(files[i])
		b, _ := os.Stat(files[j])
		if !a.ModTime().Equal(b.ModTime()) {
			return a.ModTime().Before(b.ModTime())
		}
		return files[i] < files[j]
	})
	var out []call
	for _, f := range files {
		base := strings.TrimSuffix(f, ".in")
		in, _ := os.ReadFile(f)
		env, _ := os.ReadFile(base + ".env")
		sh, _ := os.ReadFile(base + ".shell")
		out = append(out, call{stdin: string(in), env: parseEnv(string(env)), shell: strings.TrimSpace(string(sh))})
	}
	return out
}

// reset forgets the recorded calls (between the host run and the hookd run).
func (r *recorder) reset() {
	files, _ := filepath.Glob(filepath.Join(r.dir, "*.??????*"))
	for _, f := range files {
		os.Remove(f)
	}
}

type call struct {
	stdin string
	env   map[string]string
	shell string
}

func parseEnv(s string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[k] = v
		}
	}
	return m
}

// run runs a program in its own process group, killed with the group when
// ctx ends, and returns stdout and stderr.
func run(ctx context.Context, dir string, env []string, stdin string, name string, args ...string) (string, string, error) {
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
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // hooks left running
	}
	return out.String(), errb.String(), err
}

// baseEnv is the environment every host run starts from: PATH and the
// locale, nothing of the developer's own configuration.
func baseEnv(home string) []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"SHELL=/bin/bash",
		"LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(home, "tmp"),
	}
}

var (
	hookdOnce sync.Once
	hookdBin  string
	hookdErr  error
)

// hookd builds the hookd binary of this tree once, or returns
// $REALHOST_HOOKD (a hookd built elsewhere, to fill a "before" column).
func hookd(t *testing.T) string {
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
		out, err := exec.Command("go", "build", "-o", hookdBin, "..").CombinedOutput()
		if err != nil {
			hookdErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if hookdErr != nil {
		t.Fatal(hookdErr)
	}
	return hookdBin
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
