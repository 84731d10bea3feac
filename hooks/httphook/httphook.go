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
// variable expands to "". Values come from the environment the hook would
// get, never from hookd's own.
//
// One Policy covers every hop of a request: each redirect's target passes
// the allowlist and the profile's Check again, every address dialled
// passes its Dial check (after DNS, so a name cannot rebind past it), and
// the headers whose values expanded a variable are dropped on a redirect
// to another origin.
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
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
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
// means the setting is absent: no restriction from it. The one policy is
// applied to every hop: the URL first requested and each redirect's target
// pass AllowedURLs and Check, every address connected to passes Dial, and a
// header whose value expanded a variable is not sent to another origin than
// the first URL's.
type Policy struct {
	AllowedURLs    []string // allowedHttpHookUrls
	AllowedEnvVars []string // httpHookAllowedEnvVars
	// Match reports whether url matches one AllowedURLs pattern, for a host
	// whose pattern dialect differs from Claude Code's; nil: Claude Code's
	// ("*" any run of characters, the rest literal, case-sensitive).
	Match func(pattern, url string) bool
	// Refused words the failure of a URL no AllowedURLs pattern matches;
	// nil: Claude Code's words (BlockedError).
	Refused func(url string) error
	// Check is a profile's own rule on each URL requested, the first and
	// every redirect's (Copilot CLI's https rule, Qwen Code's blocked
	// hosts); nil: none. Its error is the hook's failure.
	Check func(u *url.URL) error
	// Dial checks each address actually connected to, once the name is
	// resolved, so a name that resolves to another address at connect time
	// than at check time (DNS rebinding) cannot pass; nil: none. With
	// Dial set, proxies from the environment are not used: the address
	// dialled would be the proxy's.
	Dial func(addr netip.Addr) error
	// DialClass names the rule Dial applies, for connection reuse: requests
	// whose policies have one DialClass share kept-alive connections, so
	// Dial must decide alike for every policy of a class. "": connections
	// of a request with Dial set are not kept.
	DialClass string
	// UserAgent and Accept are the host's own request headers, sent unless
	// the handler's headers set them; "" leaves Go's (and no Accept).
	UserAgent, Accept string
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

// check applies the policy to one hop's URL; the error is a BlockedError
// (or what Refused and Check return, wrapped as one).
func (p Policy) check(u *url.URL) error {
	s := u.String()
	if !p.Allows(s) {
		if p.Refused != nil {
			return &BlockedError{URL: s, Err: p.Refused(s)}
		}
		return &BlockedError{URL: s}
	}
	if p.Check != nil {
		if err := p.Check(u); err != nil {
			return &BlockedError{URL: s, Err: err}
		}
	}
	return nil
}

func urlPattern(pat string) *regexp.Regexp {
	parts := strings.Split(pat, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

// BlockedError is the failure of a hook whose URL (or a redirect's) the
// policy does not allow; no request was sent to it. Err, when set, is the
// profile's own words for it.
type BlockedError struct {
	URL string
	Err error
}

func (e *BlockedError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("HTTP hook blocked: %s does not match any pattern in allowedHttpHookUrls", e.URL)
}

func (e *BlockedError) Unwrap() error { return e.Err }

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
// the hook's timeout. client may be nil (http.DefaultTransport); the policy
// is applied to the first URL and to every redirect (Policy). lookup reads
// the environment for header expansion: the environment the hook itself
// would get (Engine.HookLookup), never hookd's own; nil expands every name
// to "".
func Run(ctx context.Context, client *http.Client, h Handler, p Policy, lookup func(string) (string, bool), input []byte) Result {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	first, err := url.Parse(h.URL)
	if err != nil {
		return Result{Err: fmt.Errorf("HTTP hook %s: %w", h.URL, err)}
	}
	if err := p.check(first); err != nil {
		return failed(ctx, h, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(input))
	if err != nil {
		return Result{Err: fmt.Errorf("HTTP hook %s: %w", h.URL, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	if p.UserAgent != "" {
		req.Header.Set("User-Agent", p.UserAgent)
	}
	if p.Accept != "" {
		req.Header.Set("Accept", p.Accept)
	}
	// Headers whose value names a variable carry what the environment
	// holds; they go to the first URL's origin only.
	var expanded []string
	for k, v := range h.Headers {
		req.Header.Set(k, p.ExpandHeader(h, v, lookup))
		if strings.Contains(v, "$") {
			expanded = append(expanded, k)
		}
	}
	tr, done := transport(client, p)
	defer done()
	c := http.Client{Transport: tr, CheckRedirect: func(r *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if err := p.check(r.URL); err != nil {
			return err
		}
		if !sameOrigin(r.URL, first) {
			for _, k := range expanded {
				r.Header.Del(k)
			}
		}
		return nil
	}}
	if client != nil {
		c.Jar = client.Jar
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

// sameOrigin reports whether a and b have one scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	port := func(u *url.URL) string {
		if p := u.Port(); p != "" {
			return p
		}
		if strings.EqualFold(u.Scheme, "https") {
			return "443"
		}
		return "80"
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

// transport is what carries the request: the client's transport
// (http.DefaultTransport when nil) when the policy has no Dial check, else a
// copy of it whose dialer asks Dial about every connection (net.Dialer's
// Control sees the address after resolution, the one the socket connects
// to). Copies are kept per base transport and DialClass, so connections are
// reused within one rule; done releases what a request without a class
// used.
func transport(client *http.Client, p Policy) (http.RoundTripper, func()) {
	var base http.RoundTripper = http.DefaultTransport
	if client != nil && client.Transport != nil {
		base = client.Transport
	}
	if p.Dial == nil {
		return base, func() {}
	}
	bt, ok := base.(*http.Transport)
	if !ok {
		// A round tripper hookd cannot give a dialer: the check still
		// holds, on a default transport.
		bt = http.DefaultTransport.(*http.Transport)
	}
	if p.DialClass == "" {
		tr := guarded(bt, p.Dial)
		return tr, tr.CloseIdleConnections
	}
	key := guardKey{bt, p.DialClass}
	guardedMu.Lock()
	defer guardedMu.Unlock()
	tr := guardedTransports[key]
	if tr == nil {
		tr = guarded(bt, p.Dial)
		guardedTransports[key] = tr
	}
	return tr, func() {}
}

type guardKey struct {
	base  *http.Transport
	class string
}

var (
	guardedMu         sync.Mutex
	guardedTransports = map[guardKey]*http.Transport{}
)

// guarded is a copy of base whose every connection passes check.
func guarded(base *http.Transport, check func(netip.Addr) error) *http.Transport {
	tr := base.Clone()
	tr.Proxy = nil
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &BlockedError{URL: address, Err: fmt.Errorf("HTTP hook blocked: cannot read the address %s: %v", address, err)}
			}
			if err := check(ap.Addr().Unmap()); err != nil {
				return &BlockedError{URL: address, Err: err}
			}
			return nil
		}}
	tr.DialContext = d.DialContext
	return tr
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
