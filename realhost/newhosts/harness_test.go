//go:build realhost

package newhosts

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

// hostTimeout bounds one run of a real CLI.
const hostTimeout = 2 * time.Minute

// Versions measured against; override with REALHOST_<HOST>_VERSION.
var (
	geminiVersion  = envOr("REALHOST_GEMINI_VERSION", "0.61.0")
	qwenVersion    = envOr("REALHOST_QWEN_VERSION", "0.24.4")
	copilotVersion = envOr("REALHOST_COPILOT_VERSION", "1.0.102")
	node22Version  = "22.23.3"
)

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

func cacheDir(t *testing.T) string {
	if d := os.Getenv("REALHOST_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache folder (set REALHOST_CACHE): %v", err)
	}
	return filepath.Join(d, "hookd-realhost")
}

var installMu sync.Mutex

// npmBin returns <cache>/<name>-<version>/node_modules/<rel>, installing
// pkg@version there first when it is missing.
func npmBin(t *testing.T, pkg, version, rel string) string {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	dir := filepath.Join(cacheDir(t), filepath.Base(pkg)+"-"+version)
	path := filepath.Join(dir, "node_modules", rel)
	if _, err := os.Stat(path); err == nil {
		return path
	}
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private":true}`), 0o644)
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", pkg+"@"+version)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s@%s: %v\n%s", pkg, version, err, out)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("npm install %s@%s left no %s", pkg, version, path)
	}
	return path
}

// recorder is a folder where hooks leave what they received: each call of
// hook NAME writes NAME.<random>.in (stdin) and .env (environment).
type recorder struct{ dir string }

func newRecorder(t *testing.T) *recorder { return &recorder{dir: t.TempDir()} }

// cmd is a hook command that records its call as name, prints out (kept in
// a file, so any text is safe), then sleeps sleep seconds and exits with
// code.
func (r *recorder) cmd(name, out string, code int) string {
	return r.cmdSleep(name, out, code, 0)
}

func (r *recorder) cmdSleep(name, out string, code int, sleep float64) string {
	outFile := filepath.Join(r.dir, name+".out")
	if err := os.WriteFile(outFile, []byte(out), 0o644); err != nil {
		panic(err)
	}
	base := filepath.Join(r.dir, name)
	s := ""
	if sleep > 0 {
		s = fmt.Sprintf("sleep %g; ", sleep)
	}
	return fmt.Sprintf(`f=$(mktemp %s) && cat > "$f.in" && env > "$f.env" && %scat %s; exit %d`, quote(base+".XXXXXX"), s, quote(outFile), code)
}

// quote quotes s for a POSIX shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

type call struct {
	stdin string
	env   map[string]string
}

// calls returns name's recorded calls, oldest first.
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
		in, _ := os.ReadFile(f)
		env, _ := os.ReadFile(strings.TrimSuffix(f, ".in") + ".env")
		m := map[string]string{}
		for _, line := range strings.Split(string(env), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				m[k] = v
			}
		}
		out = append(out, call{stdin: string(in), env: m})
	}
	return out
}

// run runs a program in its own process group, killed with the group when
// ctx ends or the program exits (hooks left running).
func run(ctx context.Context, dir string, env []string, name string, args ...string) (string, string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
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

// baseEnv is what every CLI run starts from: PATH and the locale, nothing of
// the developer's configuration.
func baseEnv(home string) []string {
	os.MkdirAll(filepath.Join(home, "tmp"), 0o755)
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "SHELL=/bin/bash", "LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(home, "tmp"), "NO_COLOR=1", "CI=1"}
}

var (
	hookdOnce sync.Once
	hookdBin  string
	hookdErr  error
)

// hookd builds this tree's hookd once (or uses $REALHOST_HOOKD).
func hookd(t *testing.T) string {
	hookdOnce.Do(func() {
		if p := os.Getenv("REALHOST_HOOKD"); p != "" {
			hookdBin = p
			return
		}
		dir, err := os.MkdirTemp("", "newhosts-hookd")
		if err != nil {
			hookdErr = err
			return
		}
		hookdBin = filepath.Join(dir, "hookd")
		if out, err := exec.Command("go", "build", "-o", hookdBin, "../..").CombinedOutput(); err != nil {
			hookdErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if hookdErr != nil {
		t.Fatal(hookdErr)
	}
	return hookdBin
}

// hookdRun runs `hookd run event --profile profile` with input and extra
// flags and returns the result JSON.
func hookdRun(t *testing.T, home, cwd, profile, event, input string, extra ...string) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "input.json")
	writeFile(t, in, input)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	args := append([]string{"run", event, "--profile", profile, "--cwd", cwd, "--input", in}, extra...)
	out, errOut, err := run(ctx, cwd, baseEnv(home), hookd(t), args...)
	if err != nil && out == "" {
		t.Logf("hookd run: %v\n%s", err, errOut)
	}
	return out
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

// row is one compared behaviour.
type row struct{ profile, behaviour, host, hookd string }

var (
	rowsMu  sync.Mutex
	rows    []row
	timings []string
)

// record adds a row and fails the test when hookd differs from the CLI.
// host and hookd are short descriptions worded alike.
func record(t *testing.T, profile, behaviour, host, hookd string) {
	t.Helper()
	rowsMu.Lock()
	rows = append(rows, row{profile, behaviour, host, hookd})
	rowsMu.Unlock()
	if host != hookd {
		t.Errorf("%s: %s: real CLI %q, hookd %q", profile, behaviour, host, hookd)
	}
}

// TestMain prints the tables after the cases ran.
func TestMain(m *testing.M) {
	code := m.Run()
	var b strings.Builder
	for _, p := range []string{"gemini", "qwen", "copilot"} {
		n, same := 0, 0
		var body strings.Builder
		for _, r := range rows {
			if r.profile != p {
				continue
			}
			n++
			mark := "**no**"
			if r.host == r.hookd {
				same++
				mark = "yes"
			}
			fmt.Fprintf(&body, "| %s | %s | %s | %s |\n", cell(r.behaviour), cell(r.host), cell(r.hookd), mark)
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: %d behaviours, %d agree\n\n| behaviour | real CLI | hookd | same |\n|---|---|---|---|\n%s", p, n, same, body.String())
	}
	if len(timings) > 0 {
		fmt.Fprintf(&b, "\nTimings:\n\n")
		for _, l := range timings {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	fmt.Print(b.String())
	if p := os.Getenv("REALHOST_TABLE"); p != "" {
		os.WriteFile(p, []byte(b.String()), 0o644)
	}
	os.Exit(code)
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", `\n`)
}
