package cli

// What the commands that run hooks set up for the process: the logger and
// the context that ends on SIGINT or SIGTERM.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hookd/hookd/rpc"
)

func newLogger(level string, w io.Writer) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l})), nil
}

// stopBound is how long hookd may take to end after the first SIGINT or
// SIGTERM: a second longer than the session's own end may take under any
// profile (rpc.MaxExitBound: the longest kill grace, the reaping and the
// last replies' write grace), so that the session ends, and logs what it
// lost, before this bound cuts it short.
func stopBound() time.Duration { return rpc.MaxExitBound() + time.Second }

// signalContext ends on SIGINT or SIGTERM, so that hookd kills its hooks'
// process groups instead of leaving them orphaned. The first signal is a
// request to end cleanly; hookd exits anyway stopBound after it, and at once
// on a second signal (status 128 + the signal's number, as a shell reports a
// process killed by it).
func signalContext(log *slog.Logger) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		first := <-sigs
		cancel()
		bound := time.NewTimer(stopBound())
		select {
		case sig := <-sigs:
			log.Warn("second signal: exiting at once", "signal", sig.String())
			os.Exit(signalStatus(sig))
		case <-bound.C:
			log.Error("not ended within the bound after a signal: exiting", "signal", first.String(), "bound", stopBound())
			os.Exit(signalStatus(first))
		}
	}()
	return ctx
}

// signalStatus is the exit status of a process ended by sig.
func signalStatus(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}
