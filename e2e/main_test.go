package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain makes this test binary answer as "hookd" on $PATH, so scripts and
// end-to-end tests run the real command-line entry point in a child process.
func TestMain(m *testing.M) {
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
	// The run fails if any test leaves a process behind (leftover_*_test.go).
	testscript.Main(noLeftovers{m}, map[string]func(){
		"hookd": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs testscripts/*.txtar: the CLI as a user types it.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testscripts",
		RequireExplicitExec: true,
		// The environment hookd test gives scripts, $PLUGIN being the
		// repository: "hookd test" in a clone runs these scripts too.
		Setup: func(env *testscript.Env) error {
			env.Setenv("SHELL", "/bin/sh")
			env.Setenv("HOOKD_TEST_KEEP_SHELL", "1")
			return scriptEnv(env, root)
		},
	})
}
