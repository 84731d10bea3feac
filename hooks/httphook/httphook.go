// Package httphook runs one "http" hook handler as Claude Code runs it: the
// hook input is POSTed as JSON to the handler's URL, a 2xx response body is
// the hook's output (read like a command's stdout), and anything else (a
// non-2xx status, a connection error, a timeout, a URL the settings do not
// allow) is a failure that never blocks by itself.
//
// Two settings restrict http hooks (measured against Claude Code 2.1.328):
// allowedHttpHookUrls lists URL patterns ("*" matches any run of
// characters); a URL matching none is never requested. Header values expand
// $VAR and ${VAR} only for names in the handler's allowedEnvVars and, when
// the settings set httpHookAllowedEnvVars, in that list too; any other
// variable expands to "".
//
// The package knows nothing about profiles or hook files: the claude profile
// builds a Handler and a Policy from its settings and reads Result.Body with
// its own output rules.
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
)

// MaxBody is how much of a response body is read; the rest is dropped and
// Result.Truncated says so.
const MaxBody = 10 << 20

// Handler is one configured http hook.
type Handler struct {
	URL            string
	Headers        map[string]string
	AllowedEnvVars []string // the handler's allowedEnvVars
}

// Policy holds the settings that restrict every http hook. A nil slice
// means the setting is absent: no restriction from it.
type Policy struct {
	AllowedURLs    []string // allowedHttpHookUrls
	AllowedEnvVars []string // httpHookAllowedEnvVars
	// Match reports whether url matches one AllowedURLs pattern, for a host
	// whose pattern dialect differs from Claude Code's; nil: Claude Code's
	// ("*" any run of characters, the rest literal, case-sensitive).
	Match func(pattern, url string) bool
}

// Result is what one request gave.
type Result struct {
	Status    int    // the HTTP status, 0 when no response came
	Body      []byte // the body of a 2xx response
	Truncated bool   // the body was longer than MaxBody
	Blocked   bool   // the URL is not allowed: no request was sent
	TimedOut  bool   // ctx ended before the response was read
	Err       error  // why the hook failed; nil on a 2xx response
}

// Allows reports whether the policy lets a hook request url.
func (p Policy) Allows(url string) bool {
	if p.AllowedURLs == nil {
		return true
	}
	return slices.ContainsFunc(p.AllowedURLs, func(pat string) bool {
		if p.Match != nil {
			return p.Match(pat, url)
		}
		return urlPattern(pat).MatchString(url)
	})
}

func urlPattern(pat string) *regexp.Regexp {
	parts := strings.Split(pat, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

// BlockedError is the failure of a hook whose URL the policy does not allow,
// worded as Claude Code words it.
type BlockedError struct{ URL string }

func (e *BlockedError) Error() string {
	return fmt.Sprintf("HTTP hook blocked: %s does not match any pattern in allowedHttpHookUrls", e.URL)
}

// ExpandHeader expands $VAR and ${VAR} in a header value: names the handler
// and the policy allow take their value from lookup, every other name
// expands to "".
func (p Policy) ExpandHeader(h Handler, value string, lookup func(string) (string, bool)) string {
	return os.Expand(value, func(name string) string {
		if !slices.Contains(h.AllowedEnvVars, name) {
			return ""
		}
		if p.AllowedEnvVars != nil && !slices.Contains(p.AllowedEnvVars, name) {
			return ""
		}
		v, _ := lookup(name)
		return v
	})
}

// Run sends input to the handler's URL and reads the answer. ctx carries
// the hook's timeout. client may be nil (http.DefaultClient's transport);
// redirects are followed only to URLs the policy allows. lookup reads the
// environment for header expansion (os.LookupEnv when nil).
func Run(ctx context.Context, client *http.Client, h Handler, p Policy, lookup func(string) (string, bool), input []byte) Result {
	if !p.Allows(h.URL) {
		return Result{Blocked: true, Err: &BlockedError{URL: h.URL}}
	}
	if lookup == nil {
		lookup = os.LookupEnv
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(input))
	if err != nil {
		return Result{Err: fmt.Errorf("HTTP hook %s: %w", h.URL, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h.Headers {
		req.Header.Set(k, p.ExpandHeader(h, v, lookup))
	}
	c := http.Client{CheckRedirect: func(r *http.Request, via []*http.Request) error {
		if !p.Allows(r.URL.String()) {
			return &BlockedError{URL: r.URL.String()}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}}
	if client != nil {
		c.Transport, c.Jar = client.Transport, client.Jar
	}
	resp, err := c.Do(req)
	if err != nil {
		return failed(ctx, h, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return failed(ctx, h, err)
	}
	res := Result{Status: resp.StatusCode}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		res.Err = fmt.Errorf("HTTP %d from %s", resp.StatusCode, h.URL)
		return res
	}
	if len(body) > MaxBody {
		body, res.Truncated = body[:MaxBody], true
	}
	res.Body = body
	return res
}

func failed(ctx context.Context, h Handler, err error) Result {
	if blocked := (*BlockedError)(nil); errors.As(err, &blocked) {
		return Result{Blocked: true, Err: blocked}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return Result{TimedOut: true, Err: fmt.Errorf("HTTP hook %s timed out", h.URL)}
	}
	if ctx.Err() != nil {
		return Result{Err: fmt.Errorf("HTTP hook %s cancelled", h.URL)}
	}
	return Result{Err: fmt.Errorf("HTTP hook %s: %w", h.URL, err)}
}
