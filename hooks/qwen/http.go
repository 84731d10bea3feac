package qwen

import (
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/httphook"
	"github.com/hookd/hookd/internal/lazyre"
)

// Qwen Code's limits on http handlers (its httpHookRunner and UrlValidator):
//
//   - security.allowedHttpHookUrls lists URL patterns; an empty or absent
//     list allows every URL. The system settings' list wins, else the
//     user's; the workspace's counts only when neither sets one. A
//     pattern is anchored and case-insensitive, "*" matches any run of
//     characters; a pattern holding `\.` is taken as already escaped (only
//     its "*" are rewritten), any other has its regex characters escaped.
//     A URL no pattern matches is never requested: the handler fails with
//     "URL validation failed: …", which never blocks.
//   - once: true on an http handler runs it the first time its url is
//     called for that event in the session; later runs answer
//     {"continue": true} without a request (keyed "<url>:<event>", so two
//     handlers with one url share it).

// stateHTTPURLs is the State key of the allowedHttpHookUrls in force: a
// JSON array, "" when no list applies.
const stateHTTPURLs = "qwen.allowedHttpHookUrls"

// httpSettings picks the allowedHttpHookUrls that apply.
func httpSettings(files []settingsFile) map[string]string {
	pick := func(layers ...string) []string {
		for _, l := range layers {
			for _, f := range files {
				if f.layer == l && f.httpURLs != nil {
					return f.httpURLs
				}
			}
		}
		return nil
	}
	private := ""
	for _, f := range files {
		if f.allowPrivate {
			private = "true"
		}
	}
	urls := pick(hooks.LayerManaged, hooks.LayerUser)
	if urls == nil {
		urls = pick(hooks.LayerProject)
	}
	if len(urls) == 0 {
		// Set, so that a reload clears a list a file no longer has.
		return map[string]string{stateHTTPURLs: "", stateHTTPPrivate: private}
	}
	b, _ := json.Marshal(urls)
	return map[string]string{stateHTTPURLs: string(b), stateHTTPPrivate: private}
}

// httpPolicy is the policy of the engine's session, for every hop of a
// request: the allowlist (AllowedURLs is nil when every URL is allowed),
// the blocked hosts and IP literals (urlBlocked), and the address actually
// dialled (dialBlocked).
func httpPolicy(e *hooks.Engine, allowPrivate bool) httphook.Policy {
	p := httphook.Policy{AllowedURLs: jsonStrings(e.State().String(stateHTTPURLs)), Match: urlMatch}
	p.Refused = func(string) error { return urlRefused(p) }
	p.Check = func(u *url.URL) error {
		if urlBlocked(u.String(), allowPrivate) {
			return errSSRF
		}
		return nil
	}
	p.Dial = func(a netip.Addr) error { return dialBlocked(a, allowPrivate) }
	p.DialClass = "qwen"
	if allowPrivate {
		p.DialClass = "qwen+private"
	}
	return p
}

var escapeURLPattern = lazyre.New(`[.+?^${}()|[\]\\]`)

// urlMatch is UrlValidator's pattern rule. A pattern that does not compile
// matches nothing.
func urlMatch(pattern, url string) bool {
	re := pattern
	if !strings.Contains(pattern, `\.`) {
		re = escapeURLPattern.ReplaceAllString(pattern, `\$0`)
	}
	rx, err := regexp.Compile("(?i)^" + strings.ReplaceAll(re, "*", ".*") + "$")
	return err == nil && rx.MatchString(url)
}

// urlRefused is the failure of a URL the policy does not allow.
func urlRefused(p httphook.Policy) error {
	return fmt.Errorf("URL validation failed: URL does not match any allowed pattern. Allowed patterns: %s",
		strings.Join(p.AllowedURLs, ", "))
}

// onceSet records the "<url>:<event>" keys of once handlers already run in
// one engine's session.
type onceSet struct{ seen sync.Map }

// claim reports whether the once handler h may run now, and marks it run.
func (s *onceSet) claim(h *hooks.Hook) bool {
	if h.Env[envOnce] == "" {
		return true
	}
	_, ran := s.seen.LoadOrStore(h.Handler.Command+":"+h.Event, true)
	return !ran
}
