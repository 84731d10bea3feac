package rpc

import (
	"fmt"

	"github.com/hookd/hookd/hooks"
)

// ReviewMessage is the one warning a host gets at initialize and hooks/reload
// when hooks are waiting for review, so that an untrusted hook is never
// skipped without a word.
func ReviewMessage(n int) string {
	what := fmt.Sprintf("%d hooks await review", n)
	if n == 1 {
		what = "1 hook awaits review"
	}
	return what + " (new, or changed since trusted) and will not run until trusted: " +
		"the host shows them (hooks/list) and records the user's review with hooks/trust " +
		"(or, for its own session hooks, initialize's config.bypassTrust); " +
		"from a terminal, `hookd list` and `hookd trust KEY` do the same for hooks in files"
}

// reportLoad sends the discovery warnings, then the review warning if any
// hook awaits review.
func (s *Server) reportLoad(e *hooks.Engine, warnings []hooks.Warning) {
	s.reportWarnings(warnings)
	_, leftOut := e.Sources()
	for _, lo := range leftOut {
		if lo.Reason == hooks.ReasonUntrustedProject {
			// Policy holds are already warnings of discovery.
			s.logMessage(LogWarning, lo.Message+"; to run its hooks: "+lo.Fix)
		}
	}
	if n := e.AwaitingReview(); n > 0 {
		s.logMessage(LogWarning, ReviewMessage(n))
	}
}

// reloadAfterWrite reloads the hook set after hook state was written, so the
// next hooks/run sees it. The write itself succeeded; a reload failure is
// reported, and the hooks loaded before stay in use.
func (s *Server) reloadAfterWrite(e *hooks.Engine) {
	if _, err := e.LoadChecked(); err != nil {
		s.logMessage(LogError, fmt.Sprintf("hook state recorded, but hooks were not reloaded: %v", err))
	}
}
