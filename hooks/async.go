package hooks

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hookd/hookd/spill"
)

// Async handlers (async: true, command only) run in the background with the
// same input, matcher, trust, timeout and spill rules as the others. Their
// hooks/run entry says "started"; when one finishes its result is read by the
// event's rules as an async result (no control effect: only
// additionalContext and systemMessage count), queued for hooks/takePending
// and announced with hooks/asyncCompleted. As in Codex, at most asyncLimit
// run at once per session; the rest wait their turn. Ending the session kills
// the unfinished ones and drops what they and the queue held, so no result of
// an ended session is ever delivered.
//
// Waiting costs memory (a goroutine and the event input), and so do results
// a host never takes (one that reads hooks/asyncCompleted only), so both are
// bounded: past maxAsyncWaiting handlers waiting for a slot, the one that has
// waited longest is dropped without running; past maxPending results not
// taken, the oldest is dropped. Each drop is logged and counted, and
// hooks/takePending reports the count (docs/robustness.md).

// asyncLimit is how many async handlers of one session run at once.
const asyncLimit = 8

// maxAsyncWaiting bounds the async handlers waiting for a slot.
const maxAsyncWaiting = 256

// maxPending bounds the finished async results waiting for hooks/takePending.
const maxPending = 1000

// AsyncResult is a finished async handler's result, as hooks/asyncCompleted
// sends it and hooks/takePending returns it.
type AsyncResult struct {
	// RunID names the hooks/run that started the handler.
	RunID             string         `json:"runId"`
	Hook              string         `json:"hook"`
	Event             string         `json:"event"`
	AdditionalContext []ContextEntry `json:"additionalContext"`
	SystemMessages    []Message      `json:"systemMessages"`
	Status            Status         `json:"status"`
	Error             *string        `json:"error"`
	ExitCode          *int           `json:"exitCode"`
	DurationMs        int64          `json:"durationMs"`
	// Rewake is the text an asyncRewake handler that exited 2 hands the
	// model with its next request: its stderr, else its stdout.
	Rewake string `json:"rewake,omitempty"`
}

// asyncRunner owns a session's async handlers.
type asyncRunner struct {
	// slots is the semaphore: a handler holds one while its process runs.
	slots chan struct{}

	mu      sync.Mutex
	gen     *asyncGen
	pending []AsyncResult
	// queue is the handlers waiting for a slot, longest waiting first.
	queue []*asyncWait
	// dropped counts results lost to the bounds since the last TakePending.
	dropped int
	// maxWaiting and maxPending are maxAsyncWaiting and maxPending; tests
	// set them lower.
	maxWaiting, maxPending int

	// waiting and running count handlers queued for a slot and holding one.
	waiting, running atomic.Int32
}

// asyncWait is one handler waiting for a slot; drop ends its wait.
type asyncWait struct {
	drop    context.CancelFunc
	dropped bool
}

// asyncGen is the handlers started since the session last ended: ending it
// cancels them all together.
type asyncGen struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newAsyncGen() *asyncGen {
	g := &asyncGen{}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	return g
}

func (a *asyncRunner) init() {
	a.slots = make(chan struct{}, asyncLimit)
	a.gen = newAsyncGen()
	a.maxWaiting, a.maxPending = maxAsyncWaiting, maxPending
}

// end kills the current generation's handlers, waits until they are gone and
// drops every undelivered result. Later handlers start a new generation.
func (a *asyncRunner) end() {
	a.mu.Lock()
	g := a.gen
	a.gen = newAsyncGen()
	a.pending = nil
	a.queue = nil
	a.dropped = 0
	a.mu.Unlock()
	g.cancel()
	g.wg.Wait()
}

// startAsync queues an async handler. It returns at once; the handler runs
// when a slot is free, on the engine's context, not the request's: a
// cancelled hooks/run does not stop what it started in the background.
func (e *Engine) startAsync(runID string, ev *EventRules, h *Hook, stdin []byte) {
	a := &e.async
	a.mu.Lock()
	g := a.gen
	g.wg.Add(1)
	wctx, drop := context.WithCancel(g.ctx)
	w := &asyncWait{drop: drop}
	if len(a.queue) >= a.maxWaiting {
		oldest := a.queue[0]
		a.queue = slices.Delete(a.queue, 0, 1)
		oldest.dropped = true
		oldest.drop()
		a.dropped++
		e.log.Warn("dropped the async handler that waited longest for a slot: too many waiting", "limit", a.maxWaiting)
	}
	a.queue = append(a.queue, w)
	a.mu.Unlock()
	a.waiting.Add(1)
	go func() {
		defer g.wg.Done()
		defer drop()
		// The login environment first, within the hook's timeout and
		// holding no slot, as for the hooks of a run (runOne).
		lctx, waited, inTime := e.awaitLoginEnv(wctx, h)
		var raw RawResult
		if inTime {
			select {
			case a.slots <- struct{}{}:
			case <-wctx.Done():
				a.waiting.Add(-1)
				return
			}
		}
		a.mu.Lock()
		if w.dropped {
			// Dropped as the slot came free: give it to the next one.
			a.mu.Unlock()
			if inTime {
				<-a.slots
			}
			a.waiting.Add(-1)
			return
		}
		if i := slices.Index(a.queue, w); i >= 0 {
			a.queue = slices.Delete(a.queue, i, i+1)
		}
		a.mu.Unlock()
		a.waiting.Add(-1)
		if inTime {
			a.running.Add(1)
			// On the session's context, not wctx (which only ends the
			// wait), with what the wait found.
			raw = e.execute(withLoginWait(g.ctx, lctx), h, stdin)
			a.running.Add(-1)
			<-a.slots
		} else {
			raw = RawResult{TimedOut: true, Timeout: h.Handler.Limit(), Duration: waited}
		}
		if g.ctx.Err() != nil {
			return // the session ended: its output is dropped
		}
		ar := e.asyncResult(runID, ev, h, raw)
		a.mu.Lock()
		if a.gen != g {
			a.mu.Unlock()
			return
		}
		if len(a.pending) >= a.maxPending {
			a.pending = slices.Delete(a.pending, 0, 1)
			a.dropped++
			e.log.Warn("dropped the oldest async result: too many not taken with hooks/takePending", "limit", a.maxPending)
		}
		a.pending = append(a.pending, ar)
		a.mu.Unlock()
		e.notify(MethodAsyncCompleted, ar)
	}()
}

// asyncResult reads a finished async handler's output by its event's rules
// and keeps what an async handler may deliver.
func (e *Engine) asyncResult(runID string, ev *EventRules, h *Hook, raw RawResult) AsyncResult {
	o := Outcome{Status: StatusSucceeded}
	if ev.Parse != nil {
		o = ev.Parse(raw, true)
	}
	o.Hook, o.Raw = h, raw
	outs := []Outcome{o}
	var res Result
	CombineAsync(&res, outs)
	e.spillResult(&res, outs)
	run := hookRun(outs[0])
	ar := AsyncResult{RunID: runID, Hook: h.Key, Event: ev.Name,
		AdditionalContext: res.AdditionalContext, SystemMessages: res.SystemMessages,
		Status: run.Status, Error: run.Error, ExitCode: run.ExitCode, DurationMs: run.DurationMs}
	if h.Handler.Rewake && raw.ExitCode != nil && *raw.ExitCode == 2 {
		ar.Rewake = strings.TrimSpace(raw.Stderr)
		if ar.Rewake == "" {
			ar.Rewake = strings.TrimSpace(raw.Stdout)
		}
		// Labelled with the command, as Claude Code words an exit 2.
		if h.Handler.Command != "" {
			ar.Rewake = "[" + h.Handler.Command + "]: " + ar.Rewake
		}
	}
	if ar.AdditionalContext == nil {
		ar.AdditionalContext = []ContextEntry{}
	}
	if ar.SystemMessages == nil {
		ar.SystemMessages = []Message{}
	}
	return ar
}

// TakePending returns the finished async results not yet taken, oldest
// first, and removes them from the queue. dropped is how many results were
// lost to the bounds (maxPending, maxAsyncWaiting) since the last call.
func (e *Engine) TakePending() (results []AsyncResult, dropped int) {
	a := &e.async
	a.mu.Lock()
	defer a.mu.Unlock()
	out := a.pending
	a.pending = nil
	if out == nil {
		out = []AsyncResult{}
	}
	dropped, a.dropped = a.dropped, 0
	return out, dropped
}

// EndsSession reports whether event ends the session (SessionEnd): after it
// has run and been answered, the caller calls EndSession.
func (e *Engine) EndsSession(event string) bool {
	ev := e.profile.Event(event)
	return ev != nil && ev.EndsSession
}

// EndSession ends what outlives a hooks/run: unfinished async handlers are
// killed (their process groups too) and their output dropped, undelivered
// results are discarded, and the session's spill folder is removed. It is
// safe to call more than once; the engine stays usable.
func (e *Engine) EndSession() error {
	e.async.end()
	return spill.Remove(e.opts.Session.ID)
}
