package hooks

import (
	"context"
	"fmt"
	"time"

	"github.com/tidwall/gjson"
)

// Seams for profiles whose handlers the engine's own kinds do not cover
// whole: a profile's command kind that wraps the engine's (Gemini CLI's
// millisecond timeouts and command-text substitution), and handler types the
// hooks walker reads through the profile (Qwen Code's http and prompt).

// RunCommand runs h as the engine's command kind does: hookd's environment
// with the hook's own variables, the session's working folder, the capture
// cap and spill. A profile's HandlerKinds entry for "command" wraps it.
func (e *Engine) RunCommand(ctx context.Context, h *Hook, stdin []byte) RawResult {
	return e.runCommand(ctx, h, stdin)
}

// profileHandler reads a handler whose type the profile runs with its own
// HandlerKinds entry (neither command nor mcp_tool): the hook gets the event's
// default timeout, and Profile.ReadHandler reads every other field, warning
// about those it does not know.
func (w *Walker) profileHandler(ev *EventRules, gi, hi int, h gjson.Result, path, typ string, gm cfgGroupMatcher) *Hook {
	s := Site{Event: ev.Name, Group: gi, Handler: hi}
	hook := &Hook{
		Key:        fmt.Sprintf("%s:%s:%d:%d", w.KeySource, ev.Label, gi, hi),
		Event:      ev.Name,
		Matcher:    gm.text,
		HasMatcher: gm.has,
		matcher:    gm.m,
		Source:     w.Src,
		Handler:    Handler{Type: typ, Timeout: ev.DefaultTimeout},
		Trust:      TrustUntrusted,
		Enabled:    true,
	}
	if w.Src.Layer == LayerManaged {
		hook.Trust = TrustManaged
	}
	msg, skip := w.Profile.ReadHandler(ev, h, hook)
	if msg != "" {
		w.Warn(s, h.Index, path, "%s in %s", msg, w.Name)
	}
	if skip {
		return nil
	}
	hook.Hash = hookHash(ev.Label, hook)
	return hook
}

// ownsType reports whether the profile reads and runs handlers of type typ
// itself.
func (w *Walker) ownsType(typ string) bool {
	if typ == TypeCommand || typ == TypeMCPTool || w.Profile.ReadHandler == nil {
		return false
	}
	_, ok := w.Profile.HandlerKinds[typ]
	return ok
}

// Limit is the handler's timeout: TimeoutMs when set, else Timeout seconds.
func (hd Handler) Limit() time.Duration {
	if hd.TimeoutMs > 0 {
		return time.Duration(hd.TimeoutMs) * time.Millisecond
	}
	return time.Duration(hd.Timeout) * time.Second
}

// SetTimeoutMs sets a millisecond timeout, and Timeout to it in whole
// seconds, rounded up, for what reports seconds.
func (hd *Handler) SetTimeoutMs(ms int) {
	ms = max(ms, 1)
	hd.TimeoutMs = ms
	hd.Timeout = (ms + 999) / 1000
}

// ProjectDir is the session's project root, else its working folder: where
// a profile that runs hooks in the project (Copilot CLI) points them.
func (e *Engine) ProjectDir() string { return e.projectDir() }
