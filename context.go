package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signalContext ends on SIGINT or SIGTERM, so that hookd kills its hooks'
// process groups instead of leaving them orphaned.
func signalContext() context.Context {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx
}
