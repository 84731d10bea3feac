package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/nodedeps"
)

// The host packages' own suites (node/ with node --test, python/ with
// unittest) run here, against this build of hookd: the binary TestMain
// built is passed in HOOKD_BIN.

// inCI reports whether missing prerequisites must fail rather than skip.
func inCI() bool { return os.Getenv("CI") == "true" }

// need returns the path of a program a suite needs. Outside CI a missing one
// skips the test with the reason; in CI it fails it.
func need(t *testing.T, program, why string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		missing(t, "%s not found on PATH (%s): %v", program, why, err)
	}
	return p
}

func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if inCI() {
		t.Fatalf("CI=true, so this suite must run: "+format, args...)
	}
	t.Skipf(format, args...)
}

// needNodeModules installs node/'s development dependencies when they are
// missing or stale (npm ci, once for all the test binaries that need them).
func needNodeModules(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if err := nodedeps.Ensure(t.Context(), dir); err != nil {
		missing(t, "%v", err)
	}
	return dir
}

// runSuite runs a suite's command in dir with hookd in HOOKD_BIN and fails
// with its output when it exits non-zero.
func runSuite(t *testing.T, dir string, name string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOOKD_BIN="+hookdPath(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	t.Logf("%s %s:\n%s", name, strings.Join(args, " "), out)
}

// TestNodeHost runs node/'s node --test suites: the vscode-jsonrpc
// host against this hookd, the hooks.json schema against the fixtures, and
// the agent-framework adapters against the real AI SDK, OpenAI Agents JS and
// LangChain.js with the Claude Code plugins of fixtures/plugins.
func TestNodeHost(t *testing.T) {
	t.Parallel()
	node := need(t, "node", "the Node host example's suite")
	dir := needNodeModules(t)
	files, err := filepath.Glob(filepath.Join(dir, "test", "*.test.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s/test: %v", dir, err)
	}
	runSuite(t, dir, node, append([]string{"--test"}, files...)...)
}

// TestNodeHost_TypesCompile type-checks hookd.d.ts, the host module against
// it (checkJs) and protocol.check.ts (the documented examples as typed values).
func TestNodeHost_TypesCompile(t *testing.T) {
	t.Parallel()
	node := need(t, "node", "tsc runs on node")
	dir := needNodeModules(t)
	runSuite(t, dir, node, filepath.Join(dir, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", dir)
}

// TestPythonHost runs python/'s unittest suite against this hookd (the
// package from its source folder, src/).
func TestPythonHost(t *testing.T) {
	t.Parallel()
	python := need(t, "python3", "the Python host example's suite")
	dir, err := filepath.Abs(filepath.Join("..", "python"))
	if err != nil {
		t.Fatal(err)
	}
	runSuite(t, dir, python, "-m", "unittest", "discover", "-v", "-s", "tests", "-t", ".")
}

// TestHooksSchema_NamesEveryEventAndHandlerType keeps schema/hooks.schema.json
// in step with the engine: every event of every profile and both handler
// types hookd runs must be in it (editors complete from it). Validating the
// fixtures against it needs a JSON Schema library: that is ajv's part, in
// node/test/schema.test.js (TestNodeHost).
func TestHooksSchema_NamesEveryEventAndHandlerType(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "schema", "hooks.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Schema     string `json:"$schema"`
		Properties struct {
			Hooks struct {
				Properties map[string]struct {
					Ref string `json:"$ref"`
				} `json:"properties"`
			} `json:"hooks"`
		} `json:"properties"`
		Definitions struct {
			Handler struct {
				Properties struct {
					Type struct {
						Enum []string `json:"enum"`
					} `json:"type"`
				} `json:"properties"`
			} `json:"handler"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatalf("schema/hooks.schema.json is not valid JSON: %v", err)
	}
	if schema.Schema != "http://json-schema.org/draft-07/schema#" {
		t.Errorf("$schema = %q: editors handle draft-07 best", schema.Schema)
	}
	// The profiles whose hooks files have the Codex/Claude Code shape the
	// schema describes. Soong's hooks.json has its own (version, object
	// matchers) and Mirri keeps [[hooks]] rules in config.toml.
	for _, name := range []string{"codex", "mind", "claude"} {
		p, ok := hooks.LookupProfile(name)
		if !ok {
			t.Fatalf("profile %s is not registered", name)
		}
		for _, ev := range p.EventNames() {
			if got := schema.Properties.Hooks.Properties[ev].Ref; got != "#/definitions/groups" {
				t.Errorf("profile %s event %s: schema property $ref = %q, want #/definitions/groups", name, ev, got)
			}
		}
	}
	for _, typ := range []string{hooks.TypeCommand, hooks.TypeMCPTool} {
		if !slices.Contains(schema.Definitions.Handler.Properties.Type.Enum, typ) {
			t.Errorf("handler type %q missing from the schema's enum %v", typ, schema.Definitions.Handler.Properties.Type.Enum)
		}
	}
}
