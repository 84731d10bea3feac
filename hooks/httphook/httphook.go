// Package httphook runs http hook handlers: the hook input is POSTed as
// JSON to the handler's URL and the body of a 2xx reply is read as a
// command's stdout on exit 0. Qwen Code and Copilot CLI have such handlers;
// their profiles register a HandlerKind that calls Post.
package httphook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hookd/hookd/hooks"
)

// MaxBody is how much of a reply is read.
const MaxBody = 1 << 20

// Request is one call.
type Request struct {
	URL string
	// Headers are sent with $VAR and ${VAR} in their values filled in from
	// hookd's environment, only for the names Allowed lists; other
	// references become empty.
	Headers map[string]string
	Allowed []string
	Body    []byte
	Timeout time.Duration
}

var headerVar = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// Expand fills the allowed variables into a header value.
func Expand(v string, allowed []string) string {
	return headerVar.ReplaceAllStringFunc(v, func(m string) string {
		name := strings.Trim(m, "${}")
		if slices.Contains(allowed, name) {
			return os.Getenv(name)
		}
		return ""
	})
}

var client = &http.Client{}

// Post sends the request. A reply outside 2xx, a transport error, the
// timeout (TimedOut) and ctx ending (Cancelled) are reported in the
// RawResult, which has no exit code then.
func Post(ctx context.Context, r Request) hooks.RawResult {
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	fail := func(err error) hooks.RawResult {
		res := hooks.RawResult{Err: err, Timeout: r.Timeout, Duration: time.Since(start)}
		switch {
		case ctx.Err() != nil:
			res.Err, res.Cancelled = nil, true
		case errors.Is(rctx.Err(), context.DeadlineExceeded):
			res.Err, res.TimedOut = nil, true
		}
		return res
	}
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return fail(fmt.Errorf("http hook: %w", err))
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range r.Headers {
		req.Header.Set(k, Expand(v, r.Allowed))
	}
	resp, err := client.Do(req)
	if err != nil {
		return fail(fmt.Errorf("http hook: %w", err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	if err != nil {
		return fail(fmt.Errorf("http hook: read reply from %s: %w", r.URL, err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return hooks.RawResult{Err: fmt.Errorf("http hook: %s answered %s", r.URL, resp.Status), Timeout: r.Timeout, Duration: time.Since(start)}
	}
	zero := 0
	return hooks.RawResult{ExitCode: &zero, Stdout: string(body), Timeout: r.Timeout, Duration: time.Since(start)}
}
