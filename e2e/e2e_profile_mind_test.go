package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
	"github.com/hookd/hookd/hooks/mind"
)

// The rules of spec 000 (Mind), each turned into one run of the real binary:
// hookd run EVENT --profile mind. The home holds, for every event, one group
// of two command handlers that answer what the case's environment says
// (stdout $MIND_R<i>, stderr $MIND_E<i>, exit $MIND_X<i>), so each row states
// a hook's behaviour and the outcome the spec requires.

// mindRuleHooks writes the reply-by-environment hooks.json and returns its home.
func mindRuleHooks(t *testing.T) string {
	t.Helper()
	handler := func(i int) string {
		cmd := fmt.Sprintf(`[ -n "$MIND_SLEEP%[1]d" ] && sleep "$MIND_SLEEP%[1]d"; printf '%%s' "$MIND_R%[1]d"; printf '%%s' "$MIND_E%[1]d" >&2; exit "${MIND_X%[1]d:-0}"`, i)
		return fmt.Sprintf(`{"type": "command", "command": %q, "timeout": %d}`, cmd, 1+i)
	}
	var groups []string
	for _, ev := range []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
		"SessionStart", "SessionEnd", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop"} {
		matcher := ""
		if ev == "UserPromptSubmit" || ev == "Stop" {
			// These events ignore matchers (spec 000): the group still runs.
			matcher = `"matcher": "never-matches", `
		}
		groups = append(groups, fmt.Sprintf(`%q: [{%s"hooks": [%s, %s]}]`, ev, matcher, handler(0), handler(1)))
	}
	home := t.TempDir()
	doc := `{"hooks": {` + strings.Join(groups, ",\n") + `}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// mindInputs are the event inputs the rows use unless they give their own.
var mindInputs = map[string]string{
	"PreToolUse":        `{"tool_name": "shell_command", "tool_use_id": "c1", "tool_input": {"command": "ls"}}`,
	"PermissionRequest": `{"tool_name": "shell_command", "tool_input": {"command": "ls"}}`,
	"PostToolUse":       `{"tool_name": "shell_command", "tool_use_id": "c1", "tool_input": {"command": "ls"}, "tool_response": "ok"}`,
	"PreCompact":        `{"trigger": "auto"}`,
	"PostCompact":       `{"trigger": "auto"}`,
	"SessionStart":      `{"source": "startup"}`,
	"SessionEnd":        `{"reason": "exit"}`,
	"UserPromptSubmit":  `{"prompt": "hi"}`,
	"SubagentStart":     `{"agent_id": "a1", "agent_type": "worker"}`,
	"SubagentStop":      `{"agent_id": "a1", "agent_type": "worker"}`,
	"Stop":              `{}`,
}

type mindRule struct {
	name  string
	event string
	input string
	env   map[string]string
	// want maps gjson paths of the result to their expected text; "<none>"
	// means the field is absent.
	want map[string]string
}

func TestMindRules_ThroughTheBinary(t *testing.T) {
	const (
		deny    = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`
		none    = "<none>"
		failed  = "failed"
		blocked = "blocked"
	)
	rules := []mindRule{
		// Exit codes: 2 blocks only on the six blockable events, with stderr.
		{name: "PreToolUse exit 2 denies with stderr", event: "PreToolUse",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "  not here  "},
			want: map[string]string{"decision": "deny", "reason": "not here", "hooks.0.status": blocked}},
		{name: "exit 2 without stderr fails the handler", event: "PreToolUse",
			env: map[string]string{"MIND_X0": "2"},
			want: map[string]string{"decision": "none", "hooks.0.status": failed,
				"hooks.0.error": "PreToolUse hook exited with code 2 but did not write a blocking reason to stderr"}},
		{name: "PermissionRequest exit 2 denies", event: "PermissionRequest",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "policy"},
			want: map[string]string{"decision": "deny", "permission.behavior": "deny", "permission.message": "policy"}},
		{name: "PostToolUse exit 2 blocks the result with feedback", event: "PostToolUse",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "bad output"},
			want: map[string]string{"decision": "block", "feedback": "bad output"}},
		{name: "UserPromptSubmit exit 2 blocks", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "not that"},
			want: map[string]string{"decision": "block", "reason": "not that"}},
		{name: "Stop exit 2 continues with stderr", event: "Stop",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "keep going"},
			want: map[string]string{"decision": "block", "continuation": "keep going"}},
		{name: "SubagentStop exit 2 continues with stderr", event: "SubagentStop",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "again"},
			want: map[string]string{"decision": "block", "continuation": "again"}},
		{name: "SessionStart exit 2 is a failure like any non-zero", event: "SessionStart",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "nope"},
			want: map[string]string{"decision": "none", "continue": "true", "hooks.0.status": failed, "hooks.0.error": "hook exited with code 2"}},
		{name: "SubagentStart exit 2 is a failure", event: "SubagentStart",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "nope"},
			want: map[string]string{"decision": "none", "hooks.0.status": failed}},
		{name: "PostCompact exit 2 is a failure reported with stderr", event: "PostCompact",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "compact broke"},
			want: map[string]string{"continue": "true", "hooks.0.status": failed, "hooks.0.error": "compact broke"}},
		{name: "other non-zero exits fail and the operation goes on", event: "PreToolUse",
			env:  map[string]string{"MIND_X0": "1", "MIND_E0": "oops"},
			want: map[string]string{"decision": "none", "hooks.0.status": failed, "hooks.0.error": "hook exited with code 1"}},
		{name: "a timeout fails the handler only", event: "PreToolUse",
			env:  map[string]string{"MIND_SLEEP0": "30", "MIND_R1": deny},
			want: map[string]string{"decision": "deny", "hooks.0.status": "timedOut", "hooks.0.error": "hook timed out after 1s", "hooks.1.status": blocked}},

		// Plain stdout: context on three events, an error on the stop events,
		// ignored elsewhere; JSON-looking text is never plain text.
		{name: "SessionStart plain stdout is context", event: "SessionStart",
			env:  map[string]string{"MIND_R0": "rules"},
			want: map[string]string{"additionalContext.0.text": "rules"}},
		{name: "UserPromptSubmit plain stdout is context", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_R0": "rules"},
			want: map[string]string{"additionalContext.0.text": "rules"}},
		{name: "SubagentStart plain stdout is context", event: "SubagentStart",
			env:  map[string]string{"MIND_R0": "rules"},
			want: map[string]string{"additionalContext.0.text": "rules"}},
		{name: "PreToolUse plain stdout is ignored", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": "rules"},
			want: map[string]string{"additionalContext": none, "hooks.0.status": "succeeded"}},
		{name: "Stop must print JSON", event: "Stop",
			env:  map[string]string{"MIND_R0": "done"},
			want: map[string]string{"decision": "none", "hooks.0.status": failed, "hooks.0.error": "hook returned invalid stop hook JSON output"}},
		{name: "SubagentStop must print JSON", event: "SubagentStop",
			env:  map[string]string{"MIND_R0": "done"},
			want: map[string]string{"hooks.0.status": failed, "hooks.0.error": "hook returned invalid subagent stop hook JSON output"}},
		{name: "broken JSON is invalid, not text", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_R0": `{"decision": "block",`},
			want: map[string]string{"additionalContext": none, "hooks.0.status": failed, "hooks.0.error": "hook returned invalid user prompt submit JSON output"}},
		{name: "a JSON array is invalid, not text", event: "SessionStart",
			env:  map[string]string{"MIND_R0": `["a"]`},
			want: map[string]string{"additionalContext": none, "hooks.0.status": failed, "hooks.0.error": "hook returned invalid session start JSON output"}},
		{name: "systemMessage is a user warning, not model context", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_R0": `{"systemMessage": "heads up"}`},
			want: map[string]string{"systemMessages.0.text": "heads up", "additionalContext": none}},

		// PreToolUse.
		{name: "PreToolUse deny with a reason blocks", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": deny},
			want: map[string]string{"decision": "deny", "reason": "no"}},
		{name: "PreToolUse deny without a reason fails", event: "PreToolUse",
			env: map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"  "}}`},
			want: map[string]string{"decision": "none", "hooks.0.status": failed,
				"hooks.0.error": "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"}},
		{name: "PreToolUse allow only with updatedInput", event: "PreToolUse",
			env: map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
			want: map[string]string{"decision": "none", "hooks.0.status": failed,
				"hooks.0.error": "PreToolUse hook returned unsupported permissionDecision:allow"}},
		{name: "PreToolUse allow with updatedInput rewrites the shell command", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"}}}`},
			want: map[string]string{"decision": "allow", "updatedInput.command": "ls -a"}},
		{name: "PreToolUse shell updatedInput needs a string command", event: "PreToolUse",
			env: map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"cmd":"ls"}}}`},
			want: map[string]string{"decision": "none", "hooks.0.status": failed,
				"hooks.0.error": `hook returned invalid pre-tool-use JSON output: updatedInput for Bash must be an object with a string "command"`}},
		{name: "PreToolUse patch updatedInput.command goes back as the patch", event: "PreToolUse",
			input: `{"tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch"}}`,
			env:   map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"*** Begin Patch\n*** End Patch"}}}`},
			want:  map[string]string{"decision": "allow", "updatedInput.command": "*** Begin Patch\n*** End Patch"}},
		{name: "PreToolUse ask fails", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`},
			want: map[string]string{"hooks.0.status": failed, "hooks.0.error": "PreToolUse hook returned unsupported permissionDecision:ask"}},
		{name: "PreToolUse decision approve fails", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"decision":"approve"}`},
			want: map[string]string{"hooks.0.status": failed, "hooks.0.error": "PreToolUse hook returned unsupported decision:approve"}},
		{name: "PreToolUse continue false fails", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"continue":false}`},
			want: map[string]string{"continue": "true", "hooks.0.status": failed, "hooks.0.error": "PreToolUse hook returned unsupported continue:false"}},
		{name: "PreToolUse stopReason fails", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"stopReason":"x"}`},
			want: map[string]string{"hooks.0.status": failed, "hooks.0.error": "PreToolUse hook returned unsupported stopReason"}},
		{name: "PreToolUse suppressOutput fails", event: "PreToolUse",
			env:  map[string]string{"MIND_R0": `{"suppressOutput":true}`},
			want: map[string]string{"hooks.0.status": failed, "hooks.0.error": "PreToolUse hook returned unsupported suppressOutput"}},
		{name: "PreToolUse context stays with a block", event: "PreToolUse",
			env: map[string]string{"MIND_R0": deny,
				"MIND_R1": `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"why"}}`},
			want: map[string]string{"decision": "deny", "additionalContext.0.text": "why"}},
		{name: "PreToolUse first block in configuration order wins", event: "PreToolUse",
			env:  map[string]string{"MIND_X0": "2", "MIND_E0": "first", "MIND_R1": deny},
			want: map[string]string{"decision": "deny", "reason": "first", "hooks.1.status": blocked}},

		// PermissionRequest.
		{name: "PermissionRequest deny with a message", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Blocked by repository policy."}}}`},
			want: map[string]string{"decision": "deny", "permission.message": "Blocked by repository policy."}},
		{name: "PermissionRequest deny without a message gets the fixed reason", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}`},
			want: map[string]string{"decision": "deny", "permission.message": "PermissionRequest hook denied approval"}},
		{name: "PermissionRequest deny wins over allow", event: "PermissionRequest",
			env: map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`,
				"MIND_R1": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`},
			want: map[string]string{"decision": "deny", "permission.behavior": "deny"}},
		{name: "PermissionRequest no decision asks as usual", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{}`},
			want: map[string]string{"decision": "none", "permission": none}},
		{name: "PermissionRequest updatedInput fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"x"}}}}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "PermissionRequest hook returned unsupported updatedInput"}},
		{name: "PermissionRequest updatedPermissions fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedPermissions":[]}}}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "PermissionRequest hook returned unsupported updatedPermissions"}},
		{name: "PermissionRequest interrupt fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","interrupt":true}}}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "PermissionRequest hook returned unsupported interrupt:true"}},
		{name: "PermissionRequest continue false fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"continue":false}`},
			want: map[string]string{"continue": "true", "hooks.0.error": "PermissionRequest hook returned unsupported continue:false"}},
		{name: "PermissionRequest stopReason fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"stopReason":"x"}`},
			want: map[string]string{"hooks.0.error": "PermissionRequest hook returned unsupported stopReason"}},
		{name: "PermissionRequest suppressOutput fails", event: "PermissionRequest",
			env:  map[string]string{"MIND_R0": `{"suppressOutput":true}`},
			want: map[string]string{"hooks.0.error": "PermissionRequest hook returned unsupported suppressOutput"}},

		// PostToolUse: only after success; block, stop and context are
		// separate; undeclared fields fail.
		{name: "PostToolUse does not run for a failed tool", event: "PostToolUse",
			input: `{"tool_name": "shell_command", "tool_response": "boom", "tool_status": "failed"}`,
			env:   map[string]string{"MIND_R0": `{"decision":"block","reason":"x"}`},
			want:  map[string]string{"decision": "none", "hooks": "[]", "skipped.0.reason": "toolNotSucceeded", "skipped.1.reason": "toolNotSucceeded"}},
		{name: "PostToolUse does not run for a cancelled tool", event: "PostToolUse",
			input: `{"tool_name": "shell_command", "tool_status": "cancelled"}`,
			want:  map[string]string{"hooks": "[]", "skipped.0.reason": "toolNotSucceeded"}},
		{name: "PostToolUse does not run after an execution error", event: "PostToolUse",
			input: `{"tool_name": "shell_command", "tool_status": "error"}`,
			want:  map[string]string{"hooks": "[]", "skipped.0.reason": "toolNotSucceeded"}},
		{name: "PostToolUse block replaces the result with the reason", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"decision":"block","reason":"secret in output"}`},
			want: map[string]string{"decision": "block", "feedback": "secret in output", "continue": "true"}},
		{name: "PostToolUse block needs a reason", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"decision":"block"}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "PostToolUse hook returned decision:block without a non-empty reason"}},
		{name: "PostToolUse continue false feeds back the reason first", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"continue":false,"stopReason":"stop","reason":"because"}`},
			want: map[string]string{"continue": "false", "stopReason": "stop", "feedback": "because"}},
		{name: "PostToolUse continue false feeds back stopReason", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"continue":false,"stopReason":"stop"}`},
			want: map[string]string{"continue": "false", "feedback": "stop"}},
		{name: "PostToolUse continue false has a fixed feedback", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"continue":false}`},
			want: map[string]string{"continue": "false", "feedback": "PostToolUse hook stopped execution"}},
		{name: "PostToolUse result replacement fails", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":{"x":1}}}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "PostToolUse hook returned unsupported updatedMCPToolOutput"}},
		{name: "PostToolUse undeclared fields fail", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"toolResult":"replaced"}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "hook returned invalid post-tool-use JSON output"}},
		{name: "PostToolUse context is its own", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"note"}}`},
			want: map[string]string{"decision": "none", "additionalContext.0.text": "note", "feedback": none}},
		{name: "PostToolUse feedbacks merge in hook order", event: "PostToolUse",
			env:  map[string]string{"MIND_R0": `{"decision":"block","reason":"one"}`, "MIND_X1": "2", "MIND_E1": "two"},
			want: map[string]string{"decision": "block", "feedback": "one\n\ntwo"}},

		// UserPromptSubmit, SessionStart: context from the batch is kept.
		{name: "UserPromptSubmit block keeps the batch's context", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_R0": `{"decision":"block","reason":"no"}`, "MIND_R1": "context"},
			want: map[string]string{"decision": "block", "reason": "no", "additionalContext.0.text": "context"}},
		{name: "UserPromptSubmit continue false stops", event: "UserPromptSubmit",
			env:  map[string]string{"MIND_R0": `{"continue":false,"stopReason":"halt"}`},
			want: map[string]string{"continue": "false", "stopReason": "halt"}},
		{name: "SessionStart continue false keeps the context for the next turn", event: "SessionStart",
			env:  map[string]string{"MIND_R0": `{"continue":false}`, "MIND_R1": "for later"},
			want: map[string]string{"continue": "false", "additionalContext.0.text": "for later"}},
		{name: "SessionStart source compact runs like any source", event: "SessionStart",
			input: `{"source": "compact"}`,
			env:   map[string]string{"MIND_R0": "after compaction"},
			want:  map[string]string{"additionalContext.0.text": "after compaction"}},

		// Stop: a stop beats every block; blocks join into the continuation.
		{name: "Stop continue false beats a block", event: "Stop",
			env:  map[string]string{"MIND_R0": `{"decision":"block","reason":"more"}`, "MIND_R1": `{"continue":false}`},
			want: map[string]string{"decision": "none", "continue": "false", "continuation": none}},
		{name: "Stop block reasons join in hook order", event: "Stop",
			env:  map[string]string{"MIND_R0": `{"decision":"block","reason":"tests"}`, "MIND_R1": `{"decision":"block","reason":"docs"}`},
			want: map[string]string{"decision": "block", "continuation": "tests\n\ndocs"}},
		{name: "Stop block needs a reason", event: "Stop",
			env:  map[string]string{"MIND_R0": `{"decision":"block"}`},
			want: map[string]string{"decision": "none", "hooks.0.error": "Stop hook returned decision:block without a non-empty reason"}},

		// Compact and SessionEnd.
		{name: "PostCompact takes only the common fields", event: "PostCompact",
			env:  map[string]string{"MIND_R0": `{"hookSpecificOutput":{"hookEventName":"PostCompact"}}`},
			want: map[string]string{"continue": "true", "hooks.0.error": "hook returned invalid PostCompact hook JSON output"}},
		{name: "PostCompact continue false marks the turn stopped", event: "PostCompact",
			env:  map[string]string{"MIND_R0": `{"continue":false}`},
			want: map[string]string{"continue": "false", "stopReason": "PostCompact hook stopped execution"}},
		{name: "PreCompact continue false stops compaction", event: "PreCompact",
			env:  map[string]string{"MIND_R0": `{"continue":false,"stopReason":"not now"}`},
			want: map[string]string{"continue": "false", "stopReason": "not now"}},
		{name: "SessionEnd output is ignored", event: "SessionEnd",
			env:  map[string]string{"MIND_R0": `{"continue":false,"systemMessage":"x"}`},
			want: map[string]string{"continue": "true", "systemMessages": none, "hooks.0.status": "succeeded"}},
	}

	home := mindRuleHooks(t)
	bin := hookdPath(t)
	tmp := t.TempDir()
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			input := r.input
			if input == "" {
				input = mindInputs[r.event]
			}
			cmd := exec.Command(bin, "run", r.event, "--profile", "mind", "--home", home, "--cwd", tmp, "--bypass-trust", "--input", "-")
			cmd.Stdin = strings.NewReader(input)
			// GORACE: under -race a process sleeps 1 s at exit by default,
			// and this table starts one per row.
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "GORACE=atexit_sleep_ms=0")
			for k, v := range r.env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 2) {
				t.Fatalf("hookd run: %v\n%s", err, stderr.String())
			}
			res := gjson.ParseBytes(out)
			for path, want := range r.want {
				v := res.Get(path)
				got := v.String()
				if v.IsArray() || v.IsObject() {
					got = v.Raw
				}
				if !v.Exists() {
					got = none
				}
				if got != want {
					t.Errorf("%s = %q, want %q\nresult: %s", path, got, want, out)
				}
			}
			// Exit status 2 exactly when the outcome denies or blocks.
			blocks := res.Get("decision").Str == "deny" || res.Get("decision").Str == "block"
			if code := cmd.ProcessState.ExitCode(); (code == 2) != blocks {
				t.Errorf("exit %d with decision %s", code, res.Get("decision").Str)
			}
		})
	}
}

// TestMindRPC_CLILayerConfigProfileToolLocationsAndSessionIDs drives the mind
// profile over real pipes: the host's CLI hooks (config.hooks) form the cli
// layer, config.configProfile selects the profile layer, config.toolLocations
// labels hooks/list, and a session without an id gets a sid_ id whose
// creation date names the transcript path.
func TestMindRPC_CLILayerConfigProfileToolLocationsAndSessionIDs(t *testing.T) {
	home := t.TempDir()
	out := filepath.Join(t.TempDir(), "stdin.json")
	cfg := `[[profiles.ci.hooks.PreToolUse]]
matcher = "deploy"
hooks = [{ type = "command", command = "true" }]
`
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	init, err := c.Initialize(ctx, map[string]any{
		"profile": "mind",
		"session": map[string]any{"cwd": t.TempDir()},
		"config": map[string]any{
			"home":          home,
			"bypassTrust":   true,
			"configProfile": "ci",
			"toolLocations": map[string]string{"deploy": "server-approval", "web_search": "server"},
			"hooks": map[string]any{
				"Stop":       []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "cat > " + out + "; echo '{}'"}}}},
				"PreToolUse": []any{map[string]any{"matcher": "web_search", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}},
			},
		},
	})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	id := gjson.GetBytes(init, "session.id").Str
	if !strings.HasPrefix(id, "sid_") || gjson.GetBytes(init, "profile").Str != "mind" {
		t.Fatalf("initialize result: %s", init)
	}

	var list struct {
		Hooks []struct {
			Key      string `json:"key"`
			Coverage string `json:"coverage"`
			Source   struct {
				Layer string `json:"layer"`
			} `json:"source"`
		} `json:"hooks"`
	}
	if err := c.Call(ctx, "hooks/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range list.Hooks {
		got = append(got, fmt.Sprintf("%s %s %s", h.Source.Layer, strings.TrimPrefix(h.Key, home), h.Coverage))
	}
	want := []string{
		"profile /config.toml#profiles.ci:pre_tool_use:0:0 server-approval-only",
		"cli cli:pre_tool_use:0:0 client-only",
		"cli cli:stop:0:0 ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hooks/list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if _, err := c.Run(ctx, "Stop", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	stdin, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	created, ok := mind.IDTime(id)
	if !ok {
		t.Fatalf("session id %q carries no time", id)
	}
	wantPath := filepath.Join(home, "sessions", created.Format("2006/01/02"), "session-"+id+".jsonl")
	if got := gjson.GetBytes(stdin, "transcript_path").Str; got != filepath.FromSlash(wantPath) {
		t.Fatalf("transcript_path %q, want %q", got, wantPath)
	}
	if _, err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMindRPC_BadToolLocationsAreInvalidParams(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	_, err = c.Initialize(ctx, map[string]any{"profile": "mind", "session": map[string]any{"cwd": t.TempDir()},
		"config": map[string]any{"home": t.TempDir(), "toolLocations": map[string]string{"web_search": "cloud"}}})
	if rpcCode(err) != -32602 || !strings.Contains(err.Error(), `config.toolLocations: tool "web_search": location "cloud"`) {
		t.Fatalf("initialize: %v, want -32602 naming config.toolLocations", err)
	}
	// The session stays uninitialized and usable.
	if _, err := c.Initialize(ctx, map[string]any{"profile": "mind", "session": map[string]any{"cwd": t.TempDir()},
		"config": map[string]any{"home": t.TempDir()}}); err != nil {
		t.Fatalf("second initialize: %v", err)
	}
}
