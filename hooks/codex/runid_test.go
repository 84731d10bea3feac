package codex

import (
	"testing"

	"github.com/hookd/hookd/hooks"
)

// Codex's run ids: the event label in kebab case, the place, the source
// path, and on PreToolUse and PostToolUse the tool use id last (Codex's
// hooks tests: pre-tool-use:0:<source path>:<tool_use_id>); Stop keeps
// stop:<n>:<source path> (measured on the real host).
func TestCodexHookRunID_AsCodexWritesIt(t *testing.T) {
	h := &hooks.Hook{Source: hooks.Source{Path: "/home/.codex/hooks.json"}}
	in := []byte(`{"tool_use_id":"call_7"}`)
	for ev, want := range map[string]string{
		"PreToolUse":       "pre-tool-use:0:/home/.codex/hooks.json:call_7",
		"PostToolUse":      "post-tool-use:0:/home/.codex/hooks.json:call_7",
		"Stop":             "stop:0:/home/.codex/hooks.json",
		"UserPromptSubmit": "user-prompt-submit:0:/home/.codex/hooks.json",
	} {
		if got := codexHookRunID(Profile.Event(ev), 0, h, in); got != want {
			t.Errorf("%s: %q, want %q", ev, got, want)
		}
	}
}

// A handler cancelled with its turn reports Codex 0.171's outcome.
func TestCodexCancelled_TheTurnWasInterrupted(t *testing.T) {
	for _, ev := range []string{"PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "SessionStart"} {
		o := Profile.Event(ev).Parse(hooks.RawResult{Cancelled: true}, false)
		if o.Status != hooks.StatusCancelled || o.Error != "Hook cancelled because the turn was interrupted" {
			t.Errorf("%s: %s %q", ev, o.Status, o.Error)
		}
	}
}
