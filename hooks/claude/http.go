package claude

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/httphook"
)

// TypeHTTP is Claude Code's http handler: the hook input is POSTed to url;
// a 2xx body is read like a command's stdout (package httphook).
const TypeHTTP = "http"

// State keys of the settings that restrict http hooks: JSON arrays, absent
// when no settings file sets them.
const (
	stateHTTPURLs = "claude.allowedHttpHookUrls"
	stateHTTPEnv  = "claude.httpHookAllowedEnvVars"
)

// httpSettings joins allowedHttpHookUrls and httpHookAllowedEnvVars over the
// settings files: the patterns of every file that sets one (no file: no
// restriction).
func httpSettings(files []claudeSettings) map[string]string {
	var urls, env []string
	urlsSet, envSet := false, false
	for _, f := range files {
		if f.httpURLs != nil {
			urls, urlsSet = append(urls, f.httpURLs...), true
		}
		if f.httpEnv != nil {
			env, envSet = append(env, f.httpEnv...), true
		}
	}
	out := map[string]string{}
	if urlsSet {
		b, _ := json.Marshal(append([]string{}, urls...))
		out[stateHTTPURLs] = string(b)
	}
	if envSet {
		b, _ := json.Marshal(append([]string{}, env...))
		out[stateHTTPEnv] = string(b)
	}
	return out
}

// httpConfig is an http handler's own fields.
type httpConfig struct {
	URL            string            `json:"url"`
	Headers        map[string]string `json:"headers"`
	AllowedEnvVars []string          `json:"allowedEnvVars"`
}

// readHTTP checks an http handler's fields when it is read. SessionStart
// and Setup take no http handlers in Claude Code.
func readHTTP(ev *hooks.EventRules, raw gjson.Result) (string, bool) {
	if ev.Name == "SessionStart" || ev.Name == "Setup" {
		return fmt.Sprintf("skipping http hook: %s takes only command and mcp_tool handlers", ev.Name), true
	}
	var c httpConfig
	if err := json.Unmarshal([]byte(raw.Raw), &c); err != nil {
		return fmt.Sprintf("skipping http hook: %s", strings.TrimPrefix(err.Error(), "json: ")), true
	}
	if strings.TrimSpace(c.URL) == "" {
		return `skipping http hook: missing field "url"`, true
	}
	return "", false
}

// httpKind builds the http handler kind of one engine.
func httpKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		timeout := time.Duration(h.Handler.Timeout) * time.Second
		var c httpConfig
		if err := json.Unmarshal(h.Handler.Config, &c); err != nil {
			return hooks.RawResult{Err: fmt.Errorf("http hook: %w", err), Timeout: timeout}
		}
		st := e.State()
		policy := httphook.Policy{AllowedURLs: stateList(st, stateHTTPURLs), AllowedEnvVars: stateList(st, stateHTTPEnv),
			UserAgent: claudeHTTPUserAgent, Accept: claudeHTTPAccept}
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		start := time.Now()
		// Headers expand from the environment the hook would get (the
		// scrub and the allowlist applied), never hookd's own.
		res := httphook.Run(rctx, nil, httphook.Handler{URL: c.URL, Headers: c.Headers, AllowedEnvVars: c.AllowedEnvVars},
			policy, e.HookLookup(ctx, h), stdin)
		raw := hooks.RawResult{Timeout: timeout, Duration: time.Since(start)}
		switch {
		case res.TimedOut && ctx.Err() == nil:
			raw.TimedOut = true
		case ctx.Err() != nil:
			raw.Cancelled, raw.Err = true, context.Cause(ctx)
		case res.Err != nil:
			raw.Err = res.Err
		default:
			code := 0
			raw.ExitCode, raw.Stdout = &code, string(res.Body)
		}
		if raw.Err == nil && !raw.TimedOut && !raw.Cancelled && raw.ExitCode == nil {
			raw.Err = errors.New("http hook gave no answer")
		}
		return raw
	})
}

func stateList(st *hooks.State, key string) []string {
	v := st.String(key)
	if v == "" {
		return nil
	}
	var out []string
	if json.Unmarshal([]byte(v), &out) != nil {
		return nil
	}
	return append([]string{}, out...)
}

// The headers Claude Code's http hooks arrive with besides Content-Type
// (its HTTP client's; measured on 2.1.332).
const (
	claudeHTTPUserAgent = "axios/1.15.2"
	claudeHTTPAccept    = "application/json, text/plain, */*"
)
