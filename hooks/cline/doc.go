// Package cline is the profile of the Cline CLI (cline 3.0, its
// @cline/core hook runtime): no settings file, but one executable per
// event, named after it (PreToolUse, PreToolUse.sh, pretooluse.py, ...),
// in ~/Documents/Cline/Hooks, ~/.cline/hooks ($CLINE_DIR), and the
// workspace's .clinerules/hooks and .cline/hooks, run in the order of
// their full paths (cline.go); ten event names, two of which Cline waits
// for (PreToolUse and PostToolUse) while the others are started and left
// to run, and PreCompact never runs (events.go); its own camelCase input
// and its own output, a JSON object (or the last HOOK_CONTROL<TAB> line)
// with cancel, context or contextModification, errorMessage and
// overrideInput, the exit code being ignored, a cancel ending the whole
// task and context reaching the model wrapped in <hook_context> (output.go).
// docs/profile-cline.md marks what was measured and what was read.
package cline
