package hooks

import (
	"context"
	"sync/atomic"
)

// DefaultMaxRunning is Options.MaxRunning when it is not positive: how many
// command handlers run at once in one engine. Each running hook costs a
// process group, three pipes and a pidfd; beyond the cap, hooks wait their
// turn instead of failing to start for want of file descriptors (which
// would silently skip a policy that fails open).
const DefaultMaxRunning = 64

// StateQueued is the hooks/status state of a handler waiting for one of the
// running slots (Options.MaxRunning).
const StateQueued = "queued"

// runSlots bounds the command handlers running at once.
type runSlots struct {
	ch      chan struct{}
	waiting atomic.Int64
}

func (r *runSlots) init(n int) {
	if n <= 0 {
		n = DefaultMaxRunning
	}
	r.ch = make(chan struct{}, n)
}

// Running reports the command handlers running now, the cap, and how many
// wait for a slot.
func (e *Engine) Running() (running, limit, waiting int) {
	return len(e.slots.ch), cap(e.slots.ch), int(e.slots.waiting.Load())
}

type (
	runIDKey    struct{}
	slotHeldKey struct{}
)

// acquireSlot waits for a running slot for a command handler; the host hears
// of a handler that has to wait (hooks/status, state "queued"). It returns
// false when ctx ends first. Other handlers run no process and take none.
// runOne takes the slot before it reports "started" and marks its ctx
// (slotHeldKey), so that execute does not take a second one.
func (e *Engine) acquireSlot(ctx context.Context, h *Hook) (release func(), ok bool) {
	if h.Handler.Type != TypeCommand {
		return func() {}, true
	}
	select {
	case e.slots.ch <- struct{}{}:
		return func() { <-e.slots.ch }, true
	default:
	}
	e.slots.waiting.Add(1)
	defer e.slots.waiting.Add(-1)
	runID, _ := ctx.Value(runIDKey{}).(string)
	msg := ""
	if h.Handler.StatusMessage != nil {
		msg = *h.Handler.StatusMessage
	}
	e.notify(MethodStatus, StatusNotice{RunID: runID, Hook: h.Key, StatusMessage: msg, State: StateQueued})
	select {
	case e.slots.ch <- struct{}{}:
		return func() { <-e.slots.ch }, true
	case <-ctx.Done():
		return nil, false
	}
}
