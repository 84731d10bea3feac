// Package spill keeps oversized hook output out of the model's context
// without losing it: the whole text goes to a file in the session's spill
// folder, and the model gets a preview (head, a marker, tail and the file's
// path) laid out as Codex lays it (reference/codex-hooks.md 2.9).
//
// A session's files live in <os.TempDir()>/hook_outputs/<session id>/, one
// <uuid>.txt per spilled text, the folder 0700 and the files 0600: hook
// output can hold anything a hook read. Remove deletes the folder when the
// session ends. File streams a handler's output past the capture cap to disk
// as it arrives, so a hook that prints gigabytes costs disk, not memory.
// CharLimit is the other rule, counted in characters with a short preview
// (Claude Code's).
//
// The package knows nothing of hooks: it deals in texts, limits and sessions.
package spill
