package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/rpc"
	"github.com/hookd/hookd/spill"
)

// defaultWriteTimeout is how long a message to the host may wait for the host
// to read stdout before hookd takes the host for gone (docs/robustness.md).
const defaultWriteTimeout = time.Minute

type serveOpts struct {
	framing, profile, home, logFile, logLevel string
	record                                    string
	maxMessage, maxInFlight                   int64
	maxRunning                                int
	writeTimeout                              time.Duration
	bypassTrust, loginEnv                     bool
}

func (so *serveOpts) register(fs *pflag.FlagSet) {
	fs.StringVar(&so.framing, "framing", "auto", "message framing: auto (first byte decides), lsp (Content-Length) or jsonl (one message per line)")
	fs.Int64Var(&so.maxMessage, "max-message-bytes", 64<<20, "largest message accepted; larger frames are skipped unread")
	fs.Int64Var(&so.maxInFlight, "max-inflight-bytes", rpc.DefaultMaxInFlightBytes, "bytes of params that requests in flight may hold together; a request past it is refused with -32001")
	fs.IntVar(&so.maxRunning, "max-running-hooks", hooks.DefaultMaxRunning, "command hooks running at once; more wait their turn (hooks/status state \"queued\")")
	fs.StringVar(&so.profile, "profile", "codex", "default profile when initialize names none: "+joinProfiles())
	fs.StringVar(&so.home, "home", "", "default user `folder` when initialize names none")
	fs.BoolVar(&so.bypassTrust, "bypass-trust", false, "run enabled hooks without review unless initialize says otherwise")
	fs.DurationVar(&so.writeTimeout, "write-timeout", defaultWriteTimeout, "end the session when the host takes nothing from stdout for this long (0: never)")
	fs.BoolVar(&so.loginEnv, "login-env-cache", false, "resolve the login shell's environment once per session and run login-shell hooks as $SHELL -c with it, unless initialize says otherwise")
	fs.StringVar(&so.logFile, "log-file", "", "write logs to this `file` instead of stderr")
	fs.StringVar(&so.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.StringVar(&so.record, "record", "", "append every hooks/run input and result to this `file` (JSON lines, for hookd replay)")
}

func newServeCmd(cio *cmdIO) *cobra.Command {
	so := &serveOpts{}
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "JSON-RPC 2.0 sidecar on stdin/stdout (what hosts spawn; the default)",
		Long: `Speaks JSON-RPC 2.0 on stdin/stdout (see docs/cli.md and the protocol
reference). stdout carries only protocol messages; logs go to stderr or --log-file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return serve(cmd, so, cio)
		},
	}
	so.register(cmd.Flags())
	return cmd
}

func serve(cmd *cobra.Command, so *serveOpts, cio *cmdIO) error {
	framing, err := rpc.ParseFraming(so.framing)
	if err != nil {
		return usageError{err}
	}
	if so.maxMessage <= 0 {
		return usagef("--max-message-bytes must be positive")
	}
	if so.maxInFlight <= 0 || so.maxRunning <= 0 {
		return usagef("--max-inflight-bytes and --max-running-hooks must be positive")
	}
	if _, err := lookupProfile(so.profile); err != nil {
		return usageError{err}
	}
	if so.record != "" {
		if err := rpc.CheckRecordFile(so.record); err != nil {
			return usagef("--record: %v", err)
		}
	}
	logOut := cio.stderr
	if so.logFile != "" {
		f, err := os.OpenFile(so.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return fmt.Errorf("open --log-file: %w", err)
		}
		defer f.Close()
		logOut = f
	}
	logger, err := newLogger(so.logLevel, logOut)
	if err != nil {
		return usageError{err}
	}
	// The start, up to the first reply (initialize's, with the first
	// load), is one burst of work like a load: the collector waits and
	// every processor runs it (hooks.PauseGC); the settings below apply
	// once it is over (rpc.Options.Started, docs/performance.md).
	started := hooks.PauseGC()
	defer started()
	// A large request is garbage soon after its hooks have read it; with
	// the default GOGC of 100 the heap could grow to twice what is live
	// before it is collected. 50 keeps the peak near twice the bytes in
	// flight (docs/failure-modes.md). GOGC in the environment wins.
	if os.Getenv("GOGC") == "" {
		hooks.ServeGCPercent(50)
	}
	// Between loads a session waits far more than it computes: one
	// processor, and the full count for a load (hooks.ServeOnProcs,
	// docs/performance.md). GOMAXPROCS in the environment wins.
	if os.Getenv("GOMAXPROCS") == "" {
		hooks.ServeOnProcs(1)
	}
	// A hookd that was killed could not remove its session's spill folder.
	if n, err := spill.RemoveStale(); err != nil {
		logger.Warn("removing stale spill folders", "err", err)
	} else if n > 0 {
		logger.Info("removed spill folders of sessions whose hookd is gone", "count", n)
	}
	out, err := rpc.ClaimStdout()
	if err != nil {
		return err
	}
	if isTerminal(os.Stdin) {
		// A person typed "hookd": without this line it would sit silent.
		fmt.Fprintln(cio.stderr, "hookd: waiting for JSON-RPC 2.0 messages on stdin (this is what hosts spawn); run 'hookd help' for the commands, Ctrl-D to quit")
	}
	code := rpc.Serve(rpc.Stdin(), out, nil, rpc.Options{
		// A host (or a terminal) that signals hookd gets what exit gives: every
		// handler's process group killed and the spill folder removed.
		Stop:             signalContext(logger),
		WriteTimeout:     so.writeTimeout,
		Framing:          framing,
		MaxMessageBytes:  so.maxMessage,
		MaxInFlightBytes: so.maxInFlight,
		MaxRunningHooks:  so.maxRunning,
		Profile:          so.profile,
		Home:             so.home,
		BypassTrust:      so.bypassTrust,
		LoginEnvCache:    so.loginEnv,
		Version:          hookdVersion(),
		Logger:           logger,
		Record:           so.record,
		Started:          started,
	})
	rpc.RestoreBlocking()
	if code != 0 {
		return exitError{code}
	}
	return nil
}

// isTerminal reports whether f is a character device other than the null
// device: a terminal, not a pipe or file a host gave.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
