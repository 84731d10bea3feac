package httphook

import (
	"context"
	"net/http"
	"time"

	"github.com/hookd/hookd/hooks"
)

// RunRaw is Run for a profile's HandlerKind (Qwen Code's and Copilot CLI's
// http handlers): the request gets its own timeout, and the Result becomes
// the RawResult the event's Parse reads, a 2xx body being stdout on exit 0.
// ctx ending is reported as Cancelled, the timeout as TimedOut. lookup is
// as for Run: the hook's own environment.
func RunRaw(ctx context.Context, client *http.Client, h Handler, p Policy, lookup func(string) (string, bool), input []byte, timeout time.Duration) hooks.RawResult {
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := Run(rctx, client, h, p, lookup, input)
	raw := hooks.RawResult{Timeout: timeout, Duration: time.Since(start)}
	switch {
	case ctx.Err() != nil:
		raw.Cancelled = true
	case res.TimedOut:
		raw.TimedOut = true
	case res.Err != nil:
		raw.Err = res.Err
	default:
		zero := 0
		raw.ExitCode, raw.Stdout = &zero, string(res.Body)
	}
	return raw
}
