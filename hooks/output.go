package hooks

import (
	"fmt"
	"strings"
	"time"
)

// What every host's reader shares: the process failures (timed out,
// cancelled, no exit status), the Outcome setters, and attributing contexts
// and system messages to their hook. Codex's own classification of exit codes
// and stdout is in package codex.

// Failure texts shared by the events, as Codex words them.
const (
	MsgNoStatus  = "hook exited without a status code"
	MsgCancelled = "hook cancelled"
)

// ProcessFailure reports a handler whose process did not finish on its own
// (timed out, cancelled, failed to start or wait, killed by a signal), with
// noCode as the text for a process without an exit status. Every profile's
// reader starts with it: such a handler has no output to read. ok is false
// when the process exited and its output is the profile's to read; the
// Outcome is then a success carrying raw.
func ProcessFailure(raw RawResult, noCode string) (o Outcome, ok bool) {
	o = Outcome{Raw: raw, Status: StatusSucceeded}
	switch {
	case raw.TimedOut:
		// The timeout wins over the error the runner saw when it killed the
		// process: the user needs to know the limit was hit.
		o.Status = StatusTimedOut
		o.Error = fmt.Sprintf("hook timed out after %ds", int64(raw.Timeout.Round(time.Second)/time.Second))
	case raw.Cancelled:
		o.Status = StatusCancelled
		o.Error = MsgCancelled
	case raw.Err != nil:
		o.Fail(raw.Err.Error())
	case raw.ExitCode == nil:
		o.Fail(noCode)
	default:
		return o, false
	}
	return o, true
}

// Fail marks the outcome failed with a one-line reason.
func (o *Outcome) Fail(msg string) {
	o.Status = StatusFailed
	o.Error = msg
}

// DropControl removes every control effect from an async handler's outcome:
// only additionalContext and systemMessage are delivered later (SEMANTICS
// 2.8), so an async handler never blocks, denies, rewrites or stops, and is
// not reported as having blocked.
func (o *Outcome) DropControl() {
	o.Block, o.Reason = false, ""
	o.Stop, o.StopReason = false, ""
	o.Feedback = ""
	o.UpdatedInput = nil
	o.Permission = ""
	if o.Status == StatusBlocked {
		o.Status = StatusSucceeded
	}
}

// AddContext records a context text; an empty one has nothing for the model.
func (o *Outcome) AddContext(s *string) {
	if s != nil && *s != "" {
		o.Contexts = append(o.Contexts, *s)
	}
}

// hookKey names the hook an outcome came from, for attribution.
func hookKey(o *Outcome) string {
	if o.Hook == nil {
		return ""
	}
	return o.Hook.Key
}

// AddMessages appends an outcome's contexts and system message to res,
// attributed to its hook. Combining in configuration order keeps both lists
// in configuration order.
func AddMessages(res *Result, o *Outcome) {
	for _, c := range o.Contexts {
		res.AdditionalContext = append(res.AdditionalContext, ContextEntry{Hook: hookKey(o), Text: c})
	}
	if o.SystemMessage != "" {
		res.SystemMessages = append(res.SystemMessages, Message{Hook: hookKey(o), Text: o.SystemMessage})
	}
}

// CombineAsync folds async handlers' outcomes into res. Async handlers have
// no control effect, so only their additionalContext and systemMessage are
// applied, in the order given.
func CombineAsync(res *Result, outs []Outcome) {
	for i := range outs {
		AddMessages(res, &outs[i])
	}
}

// FirstStopReason returns the first non-empty stop reason of a stopping
// outcome, in configuration order, and whether any outcome stopped.
func FirstStopReason(outs []Outcome) (reason string, stopped bool) {
	for i := range outs {
		if !outs[i].Stop {
			continue
		}
		stopped = true
		if reason == "" {
			reason = outs[i].StopReason
		}
	}
	return reason, stopped
}

// BlockWith records a block (or deny) whose reason is already trimmed.
func BlockWith(o *Outcome, reason string) {
	o.Status = StatusBlocked
	o.Block = true
	o.Reason = reason
}

// NonBlank returns the trimmed text, or "" when s is absent or blank.
func NonBlank(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// StopWith records continue:false. def is the stop reason when the hook gave
// none (the compact events have a fixed text).
func StopWith(o *Outcome, stopReason *string, def string) {
	o.Stop = true
	o.StopReason = def
	if s := NonBlank(stopReason); s != "" {
		o.StopReason = *stopReason
	}
}
