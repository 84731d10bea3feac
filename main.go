// Command hookd runs coding-agent lifecycle hooks for a host: as a JSON-RPC
// sidecar (hookd serve) or once from the command line (hookd run).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/rpc"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `hookd runs coding-agent lifecycle hooks (Codex, Claude Code and others).

Usage:
  hookd [serve] [flags]          JSON-RPC 2.0 sidecar on stdin/stdout (what hosts spawn)
  hookd run EVENT [flags]        run one event's hooks once and print the result JSON
  hookd list [flags]             list discovered hooks (table, or --json)
  hookd trust KEY...|--all       record hooks as reviewed (trusted) in the user config.toml
  hookd enable KEY / disable KEY allow or stop one hook from running
  hookd test [SCRIPT.txtar|DIR]  run a plugin's test scripts (default ./testscripts/*.txtar)
  hookd version | --version      print the version
  hookd help [COMMAND]           show help

Exit codes of run: 0 nothing blocks, 2 the outcome denies or blocks, 1 error.
Run "hookd help COMMAND" for a command's flags.
`

// errUsage marks a command-line mistake: the usage was already printed.
var errUsage = errors.New("usage")

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	switch {
	case len(args) > 0 && isHelpFlag(args[0]):
		cmd, args = "help", args[1:]
	case len(args) > 0 && args[0] == "--version":
		cmd, args = "version", args[1:]
	case len(args) > 0 && !strings.HasPrefix(args[0], "-"):
		cmd, args = args[0], args[1:]
	}
	var err error
	code := 0
	switch cmd {
	case "serve":
		code, err = cmdServe(args, stderr)
	case "run":
		code, err = cmdRun(args, stdin, stdout, stderr)
	case "list":
		err = cmdList(args, stdout, stderr)
	case "trust":
		err = cmdTrust(args, stdout, stderr)
	case "enable", "disable":
		err = cmdSetEnabled(cmd == "enable", args, stdout, stderr)
	case "test":
		code, err = cmdTest(args, stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "hookd %s\n", hookdVersion())
	case "help":
		err = cmdHelp(args, stdout)
	default:
		fmt.Fprintf(stderr, "hookd: unknown command %q\n\n%s", cmd, usage)
		return 1
	}
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintf(stderr, "hookd %s: %v\n", cmd, err)
		}
		return 1
	}
	return code
}

func isHelpFlag(a string) bool { return a == "-h" || a == "-help" || a == "--help" }

func cmdHelp(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return nil
	}
	var fs *flag.FlagSet
	switch args[0] {
	case "serve":
		fs, _ = serveFlags(stdout)
	case "run":
		fs, _, _ = runFlags(stdout)
	case "list":
		fs, _, _ = listFlags(stdout)
	case "trust":
		fs, _, _ = trustFlags(stdout)
	case "enable", "disable":
		fs, _ = setEnabledFlags(args[0], stdout)
	case "test":
		fs, _ = testFlags(stdout)
	default:
		fmt.Fprint(stdout, usage)
		return nil
	}
	fs.Usage()
	return nil
}

// engineFlags are the discovery flags shared by run and list.
type engineFlags struct {
	profile, home, cwd, project string
	trustProject                optBool
	bypassTrust                 bool
	sessionID                   string
	logLevel                    string
	plugins                     pluginFlag
	managed, hookState          string
	configProfile               string
	toolLocations               toolLocationFlag
	envAllow                    envAllowFlag
	features                    featureFlag
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.profile, "profile", "codex", "host rule set: "+strings.Join(sortedProfiles(), ", "))
	fs.StringVar(&f.home, "home", "", "the profile's user folder (codex: $CODEX_HOME or ~/.codex; mind: $MIND_HOME or ~/.mind; mirri, soong, claude: see docs/profiles.md)")
	fs.StringVar(&f.cwd, "cwd", "", "session working directory (default: the current directory)")
	if fs.Lookup("project") == nil {
		fs.StringVar(&f.project, "project", "", "project root (default: the git root above --cwd, else --cwd)")
	}
	fs.Var(&f.trustProject, "trust-project", "the project is trusted (=false: it is not): load its hooks (codex: <project>/.codex/, mind: .mind/, claude: .claude/settings*.json); without it the host's own record decides (codex: [projects] in config.toml, claude: ~/.claude.json)")
	fs.BoolVar(&f.bypassTrust, "bypass-trust", false, "run enabled hooks that have not been reviewed, for this invocation only")
	fs.StringVar(&f.sessionID, "session-id", "", "session_id given to hooks (default: a new random id)")
	fs.StringVar(&f.logLevel, "log-level", "warn", "stderr log level: debug, info, warn, error")
	fs.Var(&f.plugins, "plugin", "load the plugin in this `folder` as if it were installed (repeatable)")
	fs.StringVar(&f.managed, "managed", "", "managed policy file (codex: requirements.toml with managed hooks, allow_managed_hooks_only, [features]; claude: managed-settings.json)")
	fs.Var(&f.envAllow, "env-allow", "give hooks only these `NAMES` of hookd's environment (comma-separated, repeatable; any profile, over its own rule)")
	fs.StringVar(&f.hookState, "hook-state", "", `hook state for this invocation only, over the user config's: {"KEY": {"enabled": false, "trusted_hash": "sha256:..."}}`)
	fs.StringVar(&f.configProfile, "config-profile", "", "the host's configuration profile whose hooks load as a layer (mind: [profiles.NAME.hooks] in the user config.toml)")
	fs.Var(&f.toolLocations, "tool-location", "where a tool runs, `TOOL=client|server|server-approval` (repeatable; mind labels hooks with their coverage)")
	fs.Var(&f.features, "feature", "host feature setting `NAME=VALUE`, as initialize's config.features (repeatable; mirri: hookCommandRewrite, hookEngine)")
}

func (f *engineFlags) options(stderr io.Writer) (hooks.Options, error) {
	prof, ok := hooks.LookupProfile(f.profile)
	if !ok {
		return hooks.Options{}, fmt.Errorf("unknown profile %q (known: %s)", f.profile, strings.Join(sortedProfiles(), ", "))
	}
	cwd := f.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return hooks.Options{}, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return hooks.Options{}, fmt.Errorf("--cwd %s is not a directory", cwd)
	}
	root := f.project
	if root == "" {
		root = hooks.FindProjectRoot(cwd)
	} else if root, err = filepath.Abs(root); err != nil {
		return hooks.Options{}, err
	}
	home := f.home
	if home != "" {
		if home, err = filepath.Abs(home); err != nil {
			return hooks.Options{}, err
		}
	}
	id := f.sessionID
	if id == "" {
		id = prof.MakeSessionID()
	}
	logger, err := newLogger(f.logLevel, stderr)
	if err != nil {
		return hooks.Options{}, err
	}
	if err := hooks.CheckEnvNames(f.envAllow.names); err != nil {
		return hooks.Options{}, fmt.Errorf("--env-allow: %s", strings.TrimPrefix(err.Error(), "envAllowlist: "))
	}
	if f.hookState != "" && !json.Valid([]byte(f.hookState)) {
		return hooks.Options{}, fmt.Errorf("--hook-state is not valid JSON: want {\"KEY\": {\"enabled\": false, \"trusted_hash\": \"sha256:...\"}}")
	}
	return hooks.Options{
		Profile: prof,
		Session: hooks.Session{ID: id, Cwd: cwd},
		Discover: hooks.DiscoverOptions{Home: home, ProjectRoot: root, ProjectTrusted: f.trustProject.val,
			ProjectTrustKnown: f.trustProject.set, Cwd: cwd, Plugins: f.plugins,
			Managed: f.managed, StateOverrides: []byte(f.hookState), ConfigProfile: f.configProfile,
			Features: f.features},
		BypassTrust: f.bypassTrust,
		Logger:      logger,
		// Where tools run, for the profile's coverage labels.
		ToolLocations: f.toolLocations,
		EnvAllowlist:  f.envAllow.names,
	}, nil
}

func runFlags(out io.Writer) (*flag.FlagSet, *engineFlags, *runOpts) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(out)
	ef, ro := &engineFlags{}, &runOpts{}
	ef.register(fs)
	fs.StringVar(&ro.input, "input", "", "event input JSON: a file, or - for stdin (default: {})")
	fs.StringVar(&ro.turnID, "turn-id", "", "turn_id given to turn-scoped events")
	fs.Usage = func() {
		fmt.Fprint(out, "Usage: hookd run EVENT [--input FILE|-] [flags]\n\nRuns the hooks that match EVENT once and prints the combined result as JSON.\nExit 0 when nothing blocks, 2 when the outcome denies or blocks, 1 on error.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, ef, ro
}

type runOpts struct{ input, turnID string }

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	fs, ef, ro := runFlags(stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 1, errUsage
	}
	if len(pos) != 1 {
		fs.Usage()
		return 1, errUsage
	}
	opts, err := ef.options(stderr)
	if err != nil {
		return 1, err
	}
	input, err := readInput(ro.input, stdin)
	if err != nil {
		return 1, err
	}
	e := hooks.New(opts)
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		return 1, err
	}
	_, warnings := e.List("")
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", rpc.FormatWarning(w))
	}
	warnReview(e, stderr)
	_, leftOut := e.Sources()
	printLeftOut(stderr, "warning: ", leftOut)
	res, err := e.Run(signalContext(), pos[0], input, ro.turnID)
	if err != nil {
		return 1, err
	}
	res.LeftOut = leftOut
	out, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(stdout, "%s\n", out)
	if e.EndsSession(pos[0]) {
		if err := e.EndSession(); err != nil {
			fmt.Fprintf(stderr, "warning: %v\n", err)
		}
	}
	if res.Decision == hooks.DecisionDeny || res.Decision == hooks.DecisionBlock {
		return 2, nil
	}
	return 0, nil
}

func readInput(path string, stdin io.Reader) ([]byte, error) {
	var (
		data []byte
		err  error
	)
	switch path {
	case "":
		return []byte("{}"), nil
	case "-":
		data, err = io.ReadAll(stdin)
	default:
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read --input: %w", err)
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("--input %s is not valid JSON", path)
	}
	return data, nil
}

func listFlags(out io.Writer) (*flag.FlagSet, *engineFlags, *listOpts) {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(out)
	ef, lo := &engineFlags{}, &listOpts{}
	ef.register(fs)
	fs.BoolVar(&lo.json, "json", false, "print hooks/list's JSON instead of a table")
	fs.StringVar(&lo.event, "event", "", "only this event's hooks")
	fs.Usage = func() {
		fmt.Fprint(out, "Usage: hookd list [--json] [--event EVENT] [flags]\n\nLists every discovered hook with its key, event, matcher, source, trust and enabled state.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, ef, lo
}

type listOpts struct {
	json  bool
	event string
}

func cmdList(args []string, stdout, stderr io.Writer) error {
	fs, ef, lo := listFlags(stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return errUsage
	}
	if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	opts, err := ef.options(stderr)
	if err != nil {
		return err
	}
	if lo.event != "" && opts.Profile.Event(lo.event) == nil {
		return fmt.Errorf("unknown event %q (known: %s)", lo.event, strings.Join(opts.Profile.EventNames(), ", "))
	}
	e := hooks.New(opts)
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		return err
	}
	list, warnings := e.List(lo.event)
	project, leftOut := e.Sources()
	if lo.json {
		if leftOut == nil {
			leftOut = []hooks.LeftOut{}
		}
		out, err := json.MarshalIndent(map[string]any{"hooks": list, "warnings": warnings, "project": project, "leftOut": leftOut}, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", out)
		return nil
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", rpc.FormatWarning(w))
	}
	if opts.BypassTrust {
		fmt.Fprintln(stdout, "# --bypass-trust: enabled hooks run without review for this invocation; nothing is recorded")
	}
	listNotes(stdout, list)
	printLeftOut(stdout, "# ", leftOut)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	coverage := len(opts.ToolLocations) > 0 && opts.Profile.Coverage != nil
	if coverage {
		fmt.Fprintln(tw, "KEY\tEVENT\tMATCHER\tSOURCE\tTRUST\tENABLED\tCOVERAGE")
	} else {
		fmt.Fprintln(tw, "KEY\tEVENT\tMATCHER\tSOURCE\tTRUST\tENABLED")
	}
	for _, h := range list {
		matcher := "*"
		if h.Matcher != nil && *h.Matcher != "" {
			matcher = *h.Matcher
		}
		trust := trustCell(h)
		if coverage {
			cov := h.Coverage
			if cov == "" {
				cov = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\t%s\n", h.Key, h.Event, matcher, h.Source.Layer, trust, h.Enabled, cov)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%v\n", h.Key, h.Event, matcher, h.Source.Layer, trust, h.Enabled)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no hooks found")
	}
	return nil
}

func serveFlags(out io.Writer) (*flag.FlagSet, *serveOpts) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	so := &serveOpts{}
	fs.StringVar(&so.framing, "framing", "auto", "message framing: auto (first byte decides), lsp (Content-Length) or jsonl (one message per line)")
	fs.Int64Var(&so.maxMessage, "max-message-bytes", 64<<20, "largest message accepted; larger frames are skipped unread")
	fs.StringVar(&so.profile, "profile", "codex", "default profile when initialize names none: "+strings.Join(sortedProfiles(), ", "))
	fs.StringVar(&so.home, "home", "", "default user folder when initialize names none")
	fs.BoolVar(&so.bypassTrust, "bypass-trust", false, "run enabled hooks without review unless initialize says otherwise")
	fs.StringVar(&so.logFile, "log-file", "", "write logs to this file instead of stderr")
	fs.StringVar(&so.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.Usage = func() {
		fmt.Fprint(out, "Usage: hookd [serve] [flags]\n\nSpeaks JSON-RPC 2.0 on stdin/stdout (see docs/protocol.md). stdout carries only\nprotocol messages; logs go to stderr or --log-file.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs, so
}

type serveOpts struct {
	framing, profile, home, logFile, logLevel string
	maxMessage                                int64
	bypassTrust                               bool
}

func cmdServe(args []string, stderr io.Writer) (int, error) {
	fs, so := serveFlags(stderr)
	if err := fs.Parse(args); err != nil {
		return 1, errUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 1, errUsage
	}
	framing, err := rpc.ParseFraming(so.framing)
	if err != nil {
		return 1, err
	}
	if so.maxMessage <= 0 {
		return 1, fmt.Errorf("--max-message-bytes must be positive")
	}
	if _, ok := hooks.LookupProfile(so.profile); !ok {
		return 1, fmt.Errorf("unknown profile %q (known: %s)", so.profile, strings.Join(sortedProfiles(), ", "))
	}
	logOut := stderr
	if so.logFile != "" {
		f, err := os.OpenFile(so.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return 1, fmt.Errorf("open --log-file: %w", err)
		}
		defer f.Close()
		logOut = f
	}
	logger, err := newLogger(so.logLevel, logOut)
	if err != nil {
		return 1, err
	}
	out, err := rpc.ClaimStdout()
	if err != nil {
		return 1, err
	}
	code := rpc.Serve(os.Stdin, out, nil, rpc.Options{
		// A host (or a terminal) that signals hookd gets what exit gives: every
		// handler's process group killed and the spill folder removed.
		Stop:            signalContext(),
		Framing:         framing,
		MaxMessageBytes: so.maxMessage,
		Profile:         so.profile,
		Home:            so.home,
		BypassTrust:     so.bypassTrust,
		Version:         hookdVersion(),
		Logger:          logger,
	})
	return code, nil
}

func newLogger(level string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// parseInterspersed parses flags that may come before or after positional
// arguments ("hookd run PreToolUse --input x" and "hookd run --input x PreToolUse").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func sortedProfiles() []string {
	names := hooks.ProfileNames()
	sort.Strings(names)
	return names
}

// envAllowFlag collects --env-allow NAME[,NAME...]; given once with an empty
// value it is an empty allowlist (hooks get no variables).
type envAllowFlag struct{ names []string }

func (f *envAllowFlag) String() string { return strings.Join(f.names, ",") }

func (f *envAllowFlag) Set(v string) error {
	if f.names == nil {
		f.names = []string{}
	}
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			f.names = append(f.names, n)
		}
	}
	return nil
}
