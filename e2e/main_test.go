package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hookd/hookd/internal/cli"
)

// TestMain builds the hookd binary once for this test binary (with -race
// when the tests run with it), puts it first on $PATH as hookd for the
// tests and the scripts, and removes it after. With $HOOKD_BIN set (the
// benchmark and chaos scripts build the binaries they compare) the tests run
// that binary instead.
func TestMain(m *testing.M) {
	if os.Getenv(echoEnv) != "" {
		os.Exit(runEchoServer())
	}
	if os.Getenv(copyEnv) != "" {
		os.Exit(runCopyServer())
	}
	if os.Getenv(sidecarEnv) != "" {
		os.Exit(runSidecar())
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// Hooks run through $SHELL (-c for codex, -lc for mind). A login bash with a heavy profile costs
	// ~150 ms a hook on some machines; sh keeps the suite measuring hookd, not
	// the machine's shell start-up. Children (hookd, hooks) inherit it.
	// A testscript's hookd child keeps the SHELL its script set (Setup
	// gives every script /bin/sh; codex_shell.txtar sets its own).
	if os.Getenv("HOOKD_TEST_KEEP_SHELL") == "" {
		os.Setenv("SHELL", "/bin/sh")
	}
	// Under -race every hookd child would sleep 1 s at exit to flush reports;
	// it has none to flush when it passes, so skip the wait.
	os.Setenv("GORACE", "atexit_sleep_ms=0")
	bin, err := os.MkdirTemp("", "hookd-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(bin)
	if given := os.Getenv("HOOKD_BIN"); given != "" {
		if given, err = filepath.Abs(given); err == nil {
			err = os.Symlink(given, filepath.Join(bin, "hookd"))
		}
	} else {
		err = buildHookd(filepath.Join(bin, "hookd"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// Every hookd child shares one plugin load cache of the suite's own
	// (a test may name another), never the user's.
	os.Setenv("XDG_CACHE_HOME", filepath.Join(bin, "cache"))
	// The run fails if any test leaves a process behind (leftover_*_test.go).
	return noLeftovers{m}.Run()
}

// buildHookd builds the module's hookd command to path.
func buildHookd(path string) error {
	args := []string{"build", "-o", path}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command("go", append(args, "github.com/hookd/hookd")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build hookd for the end-to-end tests: %v\n%s", err, out)
	}
	return nil
}

// TestScripts runs testscripts/*.txtar: the CLI as a user types it.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(root, "testscripts"),
		RequireExplicitExec: true,
		// The environment hookd test gives scripts, $PLUGIN being the
		// repository: "hookd test" in a clone runs these scripts too.
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHELL", "/bin/sh")
			env.Setenv("HOOKD_TEST_KEEP_SHELL", "1")
			return cli.ScriptEnv(env, root)
		},
	})
}
