package hooks

import (
	"context"
	"time"
)

// Seams for profiles whose command handlers the engine's own kind does not
// cover whole: a profile's command kind that wraps the engine's (Gemini
// CLI's command-text substitution, Copilot CLI's snake_case input for
// PascalCase hooks), and millisecond timeouts (Gemini CLI, Qwen Code).

// RunCommand runs h as the engine's command kind does: hookd's environment
// with the hook's own variables, the session's working folder, the capture
// cap and spill. A profile's HandlerKinds entry for "command" wraps it.
func (e *Engine) RunCommand(ctx context.Context, h *Hook, stdin []byte) RawResult {
	return e.runCommand(ctx, h, stdin)
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
