//go:build realhost

package newhosts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// hostTimeout bounds one run of a real CLI.
const hostTimeout = 2 * time.Minute

// Versions measured against, the one place per host that names the version
// the suite installs; override with REALHOST_<HOST>_VERSION.
var (
	geminiVersion  = rh.EnvOr("REALHOST_GEMINI_VERSION", "0.61.0")
	qwenVersion    = rh.EnvOr("REALHOST_QWEN_VERSION", "0.24.4")
	copilotVersion = rh.EnvOr("REALHOST_COPILOT_VERSION", "1.0.102")
	node22Version  = "22.23.3"
)

// cacheDir is where the CLIs are installed (rh.CacheDir).
func cacheDir(t *testing.T) string {
	d, err := rh.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// npmBin returns <cache>/<name>-<version>/node_modules/<rel>, installing
// pkg@version there first when it is missing.
func npmBin(t *testing.T, pkg, version, rel string) string {
	t.Helper()
	path, err := rh.NPMPath(pkg, version, rel)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// baseEnv is what every CLI run starts from: PATH and the locale, nothing of
// the developer's configuration.
func baseEnv(home string) []string {
	os.MkdirAll(filepath.Join(home, "tmp"), 0o755)
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "SHELL=/bin/bash", "LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(home, "tmp"), "NO_COLOR=1", "CI=1"}
}

// hookdRun runs `hookd run event --profile profile` with input and extra
// flags and returns the result JSON.
func hookdRun(t *testing.T, home, cwd, profile, event, input string, extra ...string) string {
	t.Helper()
	return hookdRunEnv(t, nil, home, cwd, profile, event, input, extra...)
}

// hookdRunEnv is hookdRun with env added to hookd's environment, as the
// host's own would be.
func hookdRunEnv(t *testing.T, env []string, home, cwd, profile, event, input string, extra ...string) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "input.json")
	rh.WriteFile(t, in, input)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	args := append([]string{"run", event, "--profile", profile, "--cwd", cwd, "--input", in}, extra...)
	out, errOut, err := rh.Run(ctx, cwd, append(baseEnv(home), env...), "", rh.Hookd(t), args...)
	if err != nil && out == "" {
		t.Logf("hookd run: %v\n%s", err, errOut)
	}
	return out
}

// firstMatcherStdin is the stdin of the first of the hooks m0 ... m<n-1>
// that the CLI ran (the matcher cases name their hooks so), failing the
// test, with the CLI's stderr, when none ran.
func firstMatcherStdin(t *testing.T, rec *rh.Recorder, n int, stderr string) string {
	t.Helper()
	for i := range n {
		if c := rec.Calls(fmt.Sprintf("m%d", i)); len(c) > 0 {
			return c[0].Stdin
		}
	}
	t.Fatalf("no hook ran\n%s", stderr)
	return ""
}

// newTurn says, for the CLI and for hookd, whether a stop hook's reason
// went back to the model as a new turn: in the CLI's last request to the
// model (of reqs), in hookd's result as its continuation.
func newTurn(reqs []string, hookdResult, reason string) (host, mine string) {
	host, mine = "no new turn", "no new turn"
	if len(reqs) > 0 && strings.Contains(reqs[len(reqs)-1], reason) {
		host = "reason sent as a new turn"
	}
	if gjson.Get(hookdResult, "continuation").Str == reason {
		mine = "reason sent as a new turn"
	}
	return host, mine
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
	for _, p := range []string{"gemini", "qwen", "copilot", "droid", "letta", "cline"} {
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
