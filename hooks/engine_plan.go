package hooks

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/tidwall/gjson"
)

// A plan is what Run decided before running anything: the event, the input
// as given, the hooks that will run and the skips already known. Planning
// reads the input where it lies (gjson) and the hook set where it lies (the
// per-event index), so an event no hook matches costs a lookup, not a copy.
type plan struct {
	ev     *EventRules
	input  []byte
	turnID string
	run    []*Hook
	res    *Result
	// hookRunIDs are the profile's per-hook run ids (Profile.HookRunID) of
	// the hooks in run; nil when the profile has none.
	hookRunIDs map[*Hook]string
	// scope is where the event happened (scope.go); the run ends it.
	scope eventScope
}

// eventArgs checks a run's (or an explanation's) event and input: the
// event must be the profile's, the input a JSON object ("" counts as {}),
// and the event's precondition must accept it. gate is why the precondition
// keeps every hook from running, or "".
func (e *Engine) eventArgs(event string, input []byte) (ev *EventRules, in []byte, gate string, err error) {
	ev = e.profile.Event(event)
	if ev == nil {
		return nil, nil, "", &ParamError{Field: "event", Msg: fmt.Sprintf("%v %q (known: %s)", ErrUnknownEvent, event, strings.Join(e.profile.EventNames(), ", "))}
	}
	if len(input) == 0 {
		input = []byte("{}")
	}
	if !gjson.Parse(view(input)).IsObject() {
		return nil, nil, "", &ParamError{Field: "input", Msg: "must be a JSON object"}
	}
	if ev.Precondition != nil {
		if gate, err = ev.Precondition(input); err != nil {
			return nil, nil, "", &ParamError{Field: "input", Msg: err.Error()}
		}
	}
	return ev, input, gate, nil
}

// plan validates a run's arguments and selects its handlers. It records
// where the event happened (a running subagent) and claims the once-only
// handlers it selects; a dry plan only looks at them, so that a plan that
// is then run again for real claims nothing twice.
func (e *Engine) plan(event string, input []byte, turnID string, dry bool) (*plan, error) {
	ev, input, gate, err := e.eventArgs(event, input)
	if err != nil {
		return nil, err
	}
	res := &Result{Event: ev.Name, Decision: DecisionNone, Continue: true, Hooks: []HookRun{}, Skipped: []Skip{}, RunID: e.runIDs.next()}
	p := &plan{ev: ev, input: input, turnID: turnID, res: res, scope: e.scopeOf(input)}
	hooks := e.eventHooks(ev.Name)
	if len(hooks) == 0 {
		return p, nil
	}
	targets, _ := ev.MatchTargets(e.profile, input)
	for n, h := range hooks {
		if !e.inScope(h, p.scope) || !e.selects(ev, h, targets, input) {
			continue
		}
		if gate != "" {
			res.Skipped = append(res.Skipped, Skip{Key: h.Key, Reason: gate})
			continue
		}
		if why := e.skipReason(h); why != "" {
			res.Skipped = append(res.Skipped, Skip{Key: h.Key, Reason: why})
			continue
		}
		if dry && e.onceSpent(h) || !dry && !e.claimOnce(h) {
			res.Skipped = append(res.Skipped, Skip{Key: h.Key, Reason: SkipOnce})
			continue
		}
		p.run = append(p.run, h)
		// n is the hook's place among the event's hooks, in display order.
		if e.profile.HookRunID != nil {
			if p.hookRunIDs == nil {
				p.hookRunIDs = map[*Hook]string{}
			}
			p.hookRunIDs[h] = e.profile.HookRunID(ev, n, h, input)
		}
	}
	if e.profile.Dedupe != nil {
		kept := e.profile.Dedupe(p.run)
		res.Skipped = append(res.Skipped, dropped(p.run, kept)...)
		p.run = kept
	}
	return p, nil
}

// QuickRun is Run for the common case of an event for which no handler will
// run (no hook matches, or every match is skipped). It then returns Run's
// result with ok true, computed on the caller's goroutine without blocking:
// no process, no stdin JSON unless the profile's AfterCombine reads it.
// An event whose rules read files (EventRules.ReadFiles) never does.
// Argument errors are returned with ok true as well. When handlers would run
// it returns ok false and the caller calls Run.
func (e *Engine) QuickRun(event string, input []byte, turnID string) (res *Result, ok bool, err error) {
	p, err := e.plan(event, input, turnID, true)
	if err != nil {
		return nil, true, err
	}
	if len(p.run) > 0 || p.ev.ReadFiles != nil {
		return nil, false, nil
	}
	defer e.endScope(p.ev, p.scope)
	return e.finishIdle(p), true, nil
}

// finishIdle completes a plan that runs no handler, as runPlan would.
func (e *Engine) finishIdle(p *plan) *Result {
	res := p.res
	if p.ev.Combine != nil {
		p.ev.Combine(res, nil)
	}
	if p.ev.ReadFiles != nil {
		p.ev.ReadFiles(e.opts.Session, res)
	}
	e.afterCombine(p.ev, func() []byte { return e.buildInput(p.ev, p.input, p.turnID) }, res)
	e.spillResult(res, nil)
	return res
}

// eventHooks returns the current hooks of one event, in configuration order.
// The slice is shared: callers must not modify it.
func (e *Engine) eventHooks(event string) []*Hook {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.byEvent[event]
}

// indexHooks groups hooks by event, keeping their order.
func indexHooks(hooks []*Hook) map[string][]*Hook {
	m := map[string][]*Hook{}
	for _, h := range hooks {
		m[h.Event] = append(m[h.Event], h)
	}
	return m
}

// runIDs names the runs of one engine: a random UUID drawn once, with a
// counter added to its low 64 bits for each run. Names stay unique within the
// session and across sessions without a crypto/rand read per event.
type runIDs struct {
	base [16]byte
	n    atomic.Uint64
}

func (r *runIDs) init() {
	_, _ = rand.Read(r.base[:])
}

func (r *runIDs) next() string {
	b := r.base
	n := r.n.Add(1)
	for i := 15; i >= 8 && n > 0; i-- {
		sum := uint64(b[i]) + n&0xff
		b[i] = byte(sum)
		n = n>>8 + sum>>8
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:16])
	return string(out[:])
}
