package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hookd/hookd/internal/nodedeps"
)

// The programs in hosts.md's "A first deny" are run as a newcomer runs them:
// each in a new scratch project, with the hookd of this checkout on PATH (as
// `go install .` puts it there) and a scratch user folder, and each must
// print the deny.

// exampleBlock is an example program: a comment naming its kind and file
// name, then one fenced code block.
var exampleBlock = regexp.MustCompile("(?s)<!-- example: (\\S+) (\\S+) -->\n```[a-z]*\n(.*?)\n```")

const wantDeny = "deny no recursive deletes\n"

func TestHostsExamples_EachLanguageGetsADeny(t *testing.T) {
	data, err := os.ReadFile("hosts.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := exampleBlock.FindAllStringSubmatch(string(data), -1)
	kinds := map[string]bool{}
	for _, ex := range examples {
		kinds[ex[1]] = true
	}
	for _, k := range []string{"node-esm", "node-cjs", "python", "go"} {
		if !kinds[k] {
			t.Errorf("hosts.md has no %s example", k)
		}
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		kind, file, code := ex[1], ex[2], ex[3]
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			if lines := strings.Count(code, "\n") + 1; kind != "go" && lines > 16 {
				t.Errorf("the %s example has %d lines: keep it to about 15", kind, lines)
			}
			env := newcomerEnv(t, repo)
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, file), []byte(code+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var out string
			switch kind {
			case "node-esm", "node-cjs":
				need(t, "node")
				need(t, "npm")
				// The package's own dependency (vscode-jsonrpc), as npm
				// would install it from the registry.
				if err := nodedeps.Ensure(t.Context(), filepath.Join(repo, "node")); err != nil {
					missing(t, "%v", err)
				}
				run(t, dir, env, "npm", "init", "-y")
				run(t, dir, env, "npm", "install", "--no-audit", "--no-fund", filepath.Join(repo, "node"))
				out = run(t, dir, env, "node", file)
			case "python":
				need(t, "python3")
				// The package from the checkout, as pip install ./python
				// lays it out (the release tests install the wheel itself).
				out = run(t, dir, append(env, "PYTHONPATH="+filepath.Join(repo, "python", "src")), "python3", file)
			case "go":
				run(t, dir, env, "go", "mod", "init", "example.com/host")
				run(t, dir, env, "go", "mod", "edit", "-require", "github.com/hookd/hookd@v0.0.0", "-replace", "github.com/hookd/hookd="+repo)
				run(t, dir, env, "go", "mod", "tidy")
				out = run(t, dir, env, "go", "run", ".")
			default:
				t.Fatalf("unknown example kind %q", kind)
			}
			if out != wantDeny {
				t.Errorf("%s printed %q, want %q", file, out, wantDeny)
			}
		})
	}
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// newcomerEnv is the environment of a user who ran `go install .` in this
// checkout: hookd on PATH, and user folders of a scratch home.
func newcomerEnv(t *testing.T, repo string) []string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "hookd-docs-bin-"); buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(binDir, "hookd"), ".")
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "PATH", "HOME", "CODEX_HOME", "HOOKD_PATH", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "PYTHONPATH", "NODE_OPTIONS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "CODEX_HOME="+codexHome,
		// Go and npm keep their caches where they were: a newcomer's
		// machine has them in its own home.
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOCACHE="+goEnv(t, "GOCACHE"), "GOPATH="+goEnv(t, "GOPATH"),
		"npm_config_cache="+npmCache())
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build hookd: " + e.err.Error() + "\n" + e.out }

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func npmCache() string {
	if c := os.Getenv("npm_config_cache"); c != "" {
		return c
	}
	h, _ := os.UserHomeDir()
	return filepath.Join(h, ".npm")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

func need(t *testing.T, program string) {
	t.Helper()
	if _, err := exec.LookPath(program); err != nil {
		missing(t, "%s not found on PATH", program)
	}
}

// missing skips outside CI and fails in it (CI=true), as the package
// suites do.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true, so this must run: "+format, args...)
	}
	t.Skipf(format, args...)
}
