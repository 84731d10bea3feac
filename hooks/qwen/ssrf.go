package qwen

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/lazyre"
)

// Qwen Code's SSRF guard on http handlers (urlValidator.ts, ssrfGuard.ts and
// httpHookRunner.ts in 0.24.4), in the order it applies them:
//
//  1. $VAR and ${VAR} in the url are filled in from the environment, only
//     for names the handler's allowedEnvVars lists (others become "").
//  2. The url is refused ("URL validation failed: URL is blocked for
//     security reasons (SSRF protection)") when its host is one of
//     blockedHosts, or an IP literal that is a cloud metadata address, or,
//     unless allowPrivateNetworkHooks, a private, CGNAT or link-local one.
//     Loopback is allowed.
//  3. The allowedHttpHookUrls patterns (http.go).
//  4. The host is checked again, and every address it resolves to: a
//     metadata address is always refused, a private one unless
//     allowPrivateNetworkHooks. A name that does not resolve passes (the
//     request then fails on its own).
//
// A refused url is never requested; the handler fails without blocking.
// hookd goes further (httpPolicy): steps 2 and 3 hold for
// every redirect's target too, and step 4 is applied again to the address
// each connection is actually made to (dialBlocked), so a name that
// rebinds between the check and the connection, or does not resolve at
// check time, cannot reach a private or metadata address.
// security.allowPrivateNetworkHooks counts only in user and system settings:
// a repository cannot lift the guard for itself.

var blockedHosts = []string{
	"localhost.localdomain", "ip6-localhost", "ip6-loopback",
	"metadata.google.internal", "169.254.169.254", "metadata.azure.internal",
}

var metadataIPs = []netip.Addr{netip.MustParseAddr("169.254.169.254"), netip.MustParseAddr("100.100.100.200")}

// stateHTTPPrivate is the State key that is "true" when user or system
// settings set security.allowPrivateNetworkHooks.
const stateHTTPPrivate = "qwen.allowPrivateNetworkHooks"

// parseIP reads an IP literal, brackets and an IPv4-mapped form included.
func parseIP(host string) (netip.Addr, bool) {
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone(""), true
}

func isMetadata(a netip.Addr) bool { return slices.Contains(metadataIPs, a.Unmap()) }

// isPrivate is ssrfGuard's range check: 0/8, 10/8, 169.254/16,
// 172.16/12, 100.64/10, 192.168/16, ::, fc00::/7 and fe80::/10 (and their
// IPv4-mapped forms); loopback is allowed.
func isPrivate(a netip.Addr) bool {
	if a.Is4In6() {
		a = a.Unmap()
	}
	if a.Is4() {
		b := a.As4()
		switch {
		case b[0] == 127:
			return false
		case b[0] == 0, b[0] == 10, b[0] == 169 && b[1] == 254, b[0] == 172 && b[1] >= 16 && b[1] <= 31,
			b[0] == 100 && b[1] >= 64 && b[1] <= 127, b[0] == 192 && b[1] == 168:
			return true
		}
		return false
	}
	if a == netip.IPv6Loopback() {
		return false
	}
	b := a.As16()
	return a == netip.IPv6Unspecified() || b[0]&0xfe == 0xfc || b[0] == 0xfe && b[1]&0xc0 == 0x80
}

// urlBlocked is step 2.
func urlBlocked(raw string, allowPrivate bool) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return true
	}
	host := strings.ToLower(u.Hostname())
	if slices.Contains(blockedHosts, host) {
		return true
	}
	if a, ok := parseIP(host); ok {
		return isMetadata(a) || !allowPrivate && isPrivate(a)
	}
	return false
}

// errSSRF is Qwen Code's words for a url the guard refuses.
var errSSRF = fmt.Errorf("URL validation failed: URL is blocked for security reasons (SSRF protection)")

// dialBlocked is step 4 on the address a connection is actually made to:
// checkResolved's answer can be stale by the time the client resolves the
// name again (a name that rebinds between the two, or fails at check
// time), so the request's dialer asks this for every address it connects
// to (httphook.Policy.Dial).
func dialBlocked(a netip.Addr, allowPrivate bool) error {
	if isMetadata(a) {
		return fmt.Errorf("HTTP hook blocked: %s is a cloud metadata endpoint", a)
	}
	if !allowPrivate && isPrivate(a) {
		return fmt.Errorf("HTTP hook blocked: %s is in a private/link-local range. Loopback (127.0.0.1, ::1) is allowed.", a)
	}
	return nil
}

// checkResolved is step 4 at check time, for Qwen Code's words naming the
// host; dialBlocked enforces it on the address dialled.
func checkResolved(ctx context.Context, host string, allowPrivate bool) error {
	if a, ok := parseIP(host); ok {
		if isMetadata(a) {
			return fmt.Errorf("HTTP hook blocked: %s is a cloud metadata endpoint", host)
		}
		if !allowPrivate && isPrivate(a) {
			return fmt.Errorf("HTTP hook blocked: %s is in a private/link-local range", host)
		}
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if isMetadata(a) {
			return fmt.Errorf("HTTP hook blocked: %s resolves to %s (cloud metadata endpoint)", host, a.Unmap())
		}
		if !allowPrivate && isPrivate(a) {
			return fmt.Errorf("HTTP hook blocked: %s resolves to %s (private/link-local). Loopback (127.0.0.1, ::1) is allowed.", host, a.Unmap())
		}
	}
	return nil
}

var urlVar = lazyre.New(`\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?`)

// interpolateURL is step 1: allowed names get their value from lookup (the
// hook's own environment), others "", and CR, LF and NUL are removed.
func interpolateURL(raw string, allowed []string, lookup func(string) (string, bool)) string {
	out := urlVar.ReplaceAllStringFunc(raw, func(m string) string {
		name := urlVar.FindStringSubmatch(m)[1]
		if !slices.Contains(allowed, name) || isInternalSecret(name) {
			return ""
		}
		v, _ := lookup(name)
		return v
	})
	return strings.NewReplacer("\r", "", "\n", "", "\x00", "").Replace(out)
}

// guardURL runs steps 1, 2 and 4 around the allowlist check (step 3, given
// as allows) and returns the url to request, or why it is refused.
func guardURL(ctx context.Context, raw string, allowedEnv []string, lookup func(string) (string, bool), allowPrivate bool, allows func(string) error) (string, error) {
	u := interpolateURL(raw, allowedEnv, lookup)
	if urlBlocked(u, allowPrivate) {
		return "", errSSRF
	}
	if err := allows(u); err != nil {
		return "", err
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("URL validation failed: %v", err)
	}
	return u, checkResolved(ctx, parsed.Hostname(), allowPrivate)
}

// internalSecrets are the variables Qwen Code never hands a child process
// (sanitize-child-env.ts): a hook's environment lacks them, and an http
// handler's url and headers get "" for them even when allowedEnvVars lists
// them. Compared case-insensitively.
var internalSecrets = []string{
	"QWEN_SERVER_TOKEN", "QWEN_DAEMON_TOKEN", "QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN",
	"QWEN_CODE_PRIVATE_ACP_CAPABILITY",
}

func isInternalSecret(name string) bool {
	return slices.Contains(internalSecrets, strings.ToUpper(name))
}

// envFilter is the profile's EnvFilter: hookd's environment less Qwen Code's
// internal secrets.
func envFilter(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !isInternalSecret(name) {
			out = append(out, kv)
		}
	}
	return out
}
