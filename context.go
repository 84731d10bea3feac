package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// contextForCLI ends when the user interrupts hookd run, so the hooks' process
// groups are killed instead of orphaned.
func contextForCLI() context.Context {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx
}
