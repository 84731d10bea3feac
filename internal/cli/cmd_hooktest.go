package cli

// hookd test: plugin authors' test scripts. The scripts are txtar files in the
// testscript language (github.com/rogpeppe/go-internal/testscript), run
// outside go test through testscript.RunT with our own T. Inside a script,
// hookd is this binary, and a few commands (cmd_hooktest_script.go) write event
// inputs and check hookd run's result.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/cobra"
)

const testLong = `Runs plugin test scripts (txtar files in the testscript language). Without
arguments it runs ./testscripts/*.txtar; a DIR runs DIR/testscripts/*.txtar,
or DIR/*.txtar when DIR has no testscripts folder. Exit 0 when every script
passes, 1 otherwise; a failing script prints its log up to the failing line.

In a script, besides the testscript builtins (exec, stdout, cmp, env, ...):
  hookd ARGS...               this hookd binary (! hookd ... when it must exit non-zero;
                              exec hookd works too)
  event [-o FILE] [-set PATH=VALUE]... EVENT [ARGS...]
                              write an event input (default event.json), e.g.
                              event PreToolUse Bash 'rm -rf /'
  decision VALUE              the last hookd run's decision (none, allow, deny, block)
  reason | feedback | continuation | stop-reason | permission
         | context | system-message | updated-input  [is|contains|matches] VALUE
                              a field of the last hookd run's result
  status [STATUS...]          each hook's status, in configuration order
                              (none: no hook ran)
  result PATH [[is|contains|matches] VALUE]
                              any field of the result, by gjson path (quote a
                              path with #: testscript reads # as a comment)
Every command takes ! to negate it.

Scripts run strict (HOOKD_STRICT=1): a hooks file that discovery would skip
with a warning makes hookd run and hookd list fail, so a broken plugin cannot
pass as "decision none". A script that means to test such a file says so:
"! hookd run ..." with "stderr ...", or "hookd run --strict=false ...".

Variables: $PLUGIN (the plugin folder; also $PLUGIN_ROOT, $CLAUDE_PLUGIN_ROOT),
$PLUGIN_DATA, $CODEX_HOME (an empty folder in $WORK), $HOOKD (this binary), $WORK.`

type testOpts struct {
	verbose, work, watch bool
	run                  string
	// --profiles, --json, --fail-on-different (cmd_hooktest_matrix.go).
	profiles           string
	json, failOnChange bool
}

func newTestCmd(cio *cmdIO) *cobra.Command {
	to := &testOpts{}
	cmd := &cobra.Command{
		Use:   "test [flags] [SCRIPT.txtar | DIR]...",
		Short: "Run a plugin's test scripts (default ./testscripts/*.txtar)",
		Long:  testLong,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTests(to, args, cio)
		},
	}
	cmd.Flags().BoolVarP(&to.verbose, "verbose", "v", false, "print every script's log, not only the failing ones")
	cmd.Flags().BoolVar(&to.work, "work", false, "keep each script's $WORK folder and print its path")
	cmd.Flags().BoolVar(&to.watch, "watch", false, "after the run, run the scripts again whenever a file of the plugin changes, until Ctrl-C")
	cmd.Flags().StringVar(&to.run, "run", "", "run only the scripts whose name (file name without .txtar) matches this `regexp`")
	addMatrixFlags(cmd, to)
	return cmd
}

func runTests(to *testOpts, args []string, cio *cmdIO) error {
	stdout := cio.stdout
	var filter *regexp.Regexp
	if to.run != "" {
		var err error
		if filter, err = regexp.Compile(to.run); err != nil {
			return usagef("--run: %v", err)
		}
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the hookd binary for scripts: %w", err)
	}
	suites, err := findScripts(args, filter)
	if err != nil {
		return err
	}
	for _, s := range suites {
		if p := pluginHostProfile(s.plugin); p != "" {
			fmt.Fprintf(cio.stderr, "hookd test: plugin %s is a Claude Code plugin (.claude-plugin/plugin.json): its scripts' hookd run, list and explain --plugin use the %s profile unless they give --profile\n", filepath.Base(s.plugin), p)
		}
	}
	bin, err := os.MkdirTemp("", "hookd-test-bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bin)
	// "exec hookd" in a script finds this binary first on $PATH.
	if err := os.Symlink(self, filepath.Join(bin, "hookd")); err != nil {
		return fmt.Errorf("put hookd on the scripts' PATH: %w", err)
	}
	if to.profiles != "" {
		return runMatrix(to, suites, self, bin, cio)
	}
	err = runSuites(to, suites, self, bin, stdout)
	if !to.watch {
		return err
	}
	logger, _ := newLogger("warn", cio.stderr)
	ctx := signalContext(logger)
	fmt.Fprintln(stdout, "watching the plugin folders: the scripts run again on every change (Ctrl-C to stop)")
	return watchAndRerun(ctx, func() []string { return suiteFolders(suites) }, func() {
		fmt.Fprintf(stdout, "\n--- change seen at %s: running again\n", time.Now().Format("15:04:05"))
		if again, ferr := findScripts(args, filter); ferr != nil {
			fmt.Fprintf(stdout, "%v\n", ferr)
		} else {
			suites = again
			_ = runSuites(to, suites, self, bin, stdout)
		}
	}, nil)
}

// runSuites runs every suite once and prints the summary line.
func runSuites(to *testOpts, suites []suite, self, bin string, stdout io.Writer) error {
	r := &scriptRunner{out: stdout, verbose: to.verbose}
	for _, s := range suites {
		r.runSuite(s, self, bin, to.work)
	}
	switch {
	case r.failed > 0:
		fmt.Fprintf(stdout, "FAIL: %d of %d scripts failed\n", r.failed, r.ran)
		return exitError{1}
	case r.ran == 0:
		// As go test does when -run matches nothing: say so, but pass.
		fmt.Fprintf(stdout, "warning: no scripts to run (--run %q matches none)\n", to.run)
		return nil
	case r.ran == r.skipped:
		fmt.Fprintf(stdout, "no script ran: %d skipped\n", r.skipped)
		return nil
	default:
		fmt.Fprintf(stdout, "PASS: %s\n", plural(r.ran-r.skipped, "script"))
		return nil
	}
}

// A suite is the scripts of one plugin: they share the plugin folder.
type suite struct {
	plugin string
	files  []string
}

// findScripts resolves the command line to script files, grouped by plugin.
func findScripts(args []string, filter *regexp.Regexp) ([]suite, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	byPlugin := map[string]*suite{}
	var order []string
	add := func(file string) {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if filter != nil && !filter.MatchString(name) {
			return
		}
		root := pluginRoot(filepath.Dir(file))
		s := byPlugin[root]
		if s == nil {
			s = &suite{plugin: root}
			byPlugin[root] = s
			order = append(order, root)
		}
		s.files = append(s.files, file)
	}
	for _, arg := range args {
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, err)
		}
		if !fi.IsDir() {
			add(abs)
			continue
		}
		dir := abs
		if sub := filepath.Join(abs, "testscripts"); isDir(sub) {
			dir = sub
		}
		files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no test scripts in %s (looked for *.txtar): run hookd test in a plugin folder with a testscripts/ folder, or name the scripts", dir)
		}
		sort.Strings(files)
		for _, f := range files {
			add(f)
		}
	}
	suites := make([]suite, 0, len(order))
	for _, root := range order {
		suites = append(suites, *byPlugin[root])
	}
	return suites, nil
}

// pluginRoot is the plugin a script tests: the nearest folder at or above the
// script's folder with a plugin manifest; else the folder holding testscripts/;
// else the script's own folder.
func pluginRoot(dir string) string {
	if root := manifestRoot(dir, true); root != "" {
		return root
	}
	if filepath.Base(dir) == "testscripts" {
		return filepath.Dir(dir)
	}
	return dir
}

// scriptRunner runs suites and prints a line per script, go test style.
type scriptRunner struct {
	out                  io.Writer
	verbose              bool
	ran, failed, skipped int
	// host, in a --profiles run, is the profile the scripts are translated
	// to ($HOOKD_TEST_HOST); results collects each script's outcome.
	host    string
	results []scriptResult
}

// scriptResult is one script's outcome: PASS, FAIL or SKIP, and its log.
type scriptResult struct {
	name, status, log string
}

func (r *scriptRunner) runSuite(s suite, self, bin string, keepWork bool) {
	params := testscript.Params{
		Files:    s.files,
		TestWork: keepWork,
		Setup: func(env *testscript.Env) error {
			if err := setupScriptEnv(env, s.plugin, self, bin, keepWork); err != nil {
				return err
			}
			if r.host != "" {
				env.Setenv(hostEnv, r.host)
				hideHostVars(env)
			}
			return nil
		},
		Cmds:      scriptCmds(self),
		Condition: hostCondition(r.host, s.plugin),
	}
	top := &scriptT{r: r}
	func() {
		defer func() {
			// RunT reports its own set-up problems through the top-level T.
			switch p := recover(); p {
			case nil, errSkipScript:
			case errFailScript:
				r.failed++
				fmt.Fprintf(r.out, "--- FAIL: %s\n%s", s.plugin, indent(top.log.String()))
			default:
				panic(p)
			}
		}()
		testscript.RunT(top, params)
	}()
}

// setupScriptEnv gives a script its plugin and a private Codex home, data and
// XDG folders under $WORK, so nothing of the user's own setup leaks in.
func setupScriptEnv(env *testscript.Env, plugin, self, bin string, keepWork bool) error {
	if err := ScriptEnv(env, plugin); err != nil {
		return err
	}
	env.Setenv("HOOKD", self)
	env.Setenv("PATH", bin+string(os.PathListSeparator)+env.Getenv("PATH"))
	if t, ok := env.T().(*scriptT); ok && keepWork {
		t.work = env.WorkDir
	}
	return nil
}

// ScriptEnv is the environment every script gets, under hookd test and under
// go test (hookd's own testscripts/): the same variables, so a script that
// passes in one passes in the other.
func ScriptEnv(env *testscript.Env, plugin string) error {
	data := filepath.Join(env.WorkDir, ".plugin-data")
	home := filepath.Join(env.WorkDir, ".codex")
	for _, d := range []string{data, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	vars := [][2]string{
		{"PLUGIN", plugin},
		{"PLUGIN_ROOT", plugin},
		{"CLAUDE_PLUGIN_ROOT", plugin},
		{"PLUGIN_DATA", data},
		{"CLAUDE_PLUGIN_DATA", data},
		{"CODEX_HOME", home},
		{"XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config")},
		{"XDG_DATA_HOME", filepath.Join(env.WorkDir, ".local", "share")},
		{"XDG_STATE_HOME", filepath.Join(env.WorkDir, ".local", "state")},
		{"XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache")},
		{"HOOKD_STRICT", "1"},
	}
	for _, kv := range vars {
		env.Setenv(kv[0], kv[1])
	}
	return nil
}

// Sentinels that unwind a script's goroutine on FailNow and Skip.
var (
	errFailScript = errors.New("script failed")
	errSkipScript = errors.New("script skipped")
)

// scriptT implements testscript.T for one script (or, with name "", for
// RunT's own set-up). Scripts run one after another: Parallel is a no-op.
type scriptT struct {
	r    *scriptRunner
	name string
	log  strings.Builder
	work string
}

func (t *scriptT) Skip(args ...any) {
	t.Log(args...)
	panic(errSkipScript)
}

func (t *scriptT) Fatal(args ...any) {
	t.Log(args...)
	t.FailNow()
}

func (t *scriptT) Parallel() {}

func (t *scriptT) Log(args ...any) {
	msg := fmt.Sprint(args...)
	t.log.WriteString(msg)
	if !strings.HasSuffix(msg, "\n") {
		t.log.WriteByte('\n')
	}
}

func (t *scriptT) FailNow() { panic(errFailScript) }

func (t *scriptT) Verbose() bool { return t.r.verbose }

// Run runs one script and prints its outcome. A panic that is not one of
// our sentinels (a bug, or a go test-only condition such as [short]) fails
// that script only.
func (t *scriptT) Run(name string, f func(testscript.T)) {
	sub := &scriptT{r: t.r, name: name}
	start := time.Now()
	status := "PASS"
	func() {
		defer func() {
			switch p := recover(); p {
			case nil:
			case errFailScript:
				status = "FAIL"
			case errSkipScript:
				status = "SKIP"
			default:
				status = "FAIL"
				msg := fmt.Sprint(p)
				if strings.Contains(msg, "testing: Short called") {
					msg = "the [short] condition exists only under go test; hookd test cannot evaluate it"
				}
				fmt.Fprintf(&sub.log, "FAIL: %s\n", msg)
			}
		}()
		f(sub)
	}()
	t.r.ran++
	t.r.results = append(t.r.results, scriptResult{name: name, status: status, log: sub.log.String()})
	switch status {
	case "FAIL":
		t.r.failed++
	case "SKIP":
		t.r.skipped++
	}
	fmt.Fprintf(t.r.out, "--- %s: %s (%.2fs)\n", status, name, time.Since(start).Seconds())
	if status != "PASS" || t.r.verbose {
		fmt.Fprint(t.r.out, indent(sub.log.String()))
	}
	if sub.work != "" {
		fmt.Fprintf(t.r.out, "    WORK=%s\n", sub.work)
	}
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}
