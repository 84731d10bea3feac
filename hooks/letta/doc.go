// Package letta is the profile of Letta Code (@letta-ai/letta-code 0.25):
// Claude-like "hooks" in ~/.letta/settings.json and the project's
// .letta/settings.json and .letta/settings.local.json, run local first,
// then project, then user (letta.go); eleven events with Letta's own input
// (event_type, working_directory, tool_call_id, agent_id) and an anchored
// matcher on tool events only (events.go); command handlers run by $SHELL
// -c in the working folder with LETTA_HOOK_EVENT, LETTA_WORKING_DIR,
// USER_CWD and the agent's id, timeouts in milliseconds (handler.go); and
// its reading of results, where only the exit code decides: 2 blocks, and
// a JSON decision on stdout is never read (output.go). The facts come from
// the bundled letta.js (src/hooks/*.ts) and runs of `letta -p` against a
// scripted model; docs/profile-letta.md marks which is which.
package letta
