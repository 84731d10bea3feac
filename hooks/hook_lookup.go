package hooks

import (
	"context"
	"strings"
)

// HookLookup reads a variable from the environment h's process would get
// (hookd's environment after the profile's filter or the host's allowlist,
// the login environment when the cache has one, the hook's own variables
// and what the profile adds), never from hookd's own. An http handler's
// headers and URL expand through it, so a variable a command hook would
// not see (a scrubbed credential, a name outside the allowlist) is never
// sent anywhere either.
func (e *Engine) HookLookup(ctx context.Context, h *Hook) func(string) (string, bool) {
	_, base := e.hookShell(ctx)
	return lookupIn(e.hookEnv(base, h))
}

// BaseLookup reads a variable from the base environment of every hook
// (hookd's after the profile's filter or the host's allowlist, or the login
// environment), before any hook's own variables: what a hook's env values
// expand from.
func (e *Engine) BaseLookup(ctx context.Context) func(string) (string, bool) {
	_, base := e.hookShell(ctx)
	return lookupIn(base)
}

func lookupIn(env []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		// The last entry wins, as for a process environment.
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
}
