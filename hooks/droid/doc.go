// Package droid is the profile of Factory's Droid CLI (@factory/cli 0.225):
// Claude Code's hooks shape in <project>/.factory and ~/.factory, where a
// folder's hooks.json (the bare map of events) replaces, event by event,
// the "hooks" of its settings.json, project hooks running before the
// user's (droid.go); nine events with Droid's own tool names and input
// fields (events.go); a matcher that is "", "*", the exact tool name or an
// unanchored regex, with a group's commandRegex tested against an Execute
// call's command (matcher.go); command handlers run by sh -c in the project
// folder, with FACTORY_PROJECT_DIR, DROID_PROJECT_DIR, CLAUDE_PROJECT_DIR
// and every scalar top-level input field exported under its own name
// (handler.go); and its reading of results, where only the first hook that
// says something counts on most events (output.go). docs/profile-droid.md
// says which points were measured on the CLI and which were read from it.
//
// The shape is Claude Code's but nearly every rule differs (no top-level
// decision on PreToolUse, exit 3 aborts the agent, first answer wins, no
// de-duplication), so the package builds on the engine only.
package droid
