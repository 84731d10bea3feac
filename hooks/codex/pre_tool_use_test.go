package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// preToolUseSpecific wraps fields in a PreToolUse hookSpecificOutput.
func preToolUseSpecific(fields string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PreToolUse",` + fields + `}}`
}

func TestPreToolUse_ParseRules(t *testing.T) {
	tests := []struct {
		name     string
		raw      hooks.RawResult
		async    bool
		status   hooks.Status
		err      string
		reason   string
		updated  string
		contexts []string
	}{
		{name: "deny with reason blocks",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"do not run that"`), ""),
			status: hooks.StatusBlocked, reason: "do not run that"},
		{name: "deny reason is trimmed",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"  spaced \n"`), ""),
			status: hooks.StatusBlocked, reason: "spaced"},
		{name: "deny keeps its context",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"no","additionalContext":"why it matters"`), ""),
			status: hooks.StatusBlocked, reason: "no", contexts: []string{"why it matters"}},
		{name: "allow with updatedInput rewrites without entries",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":{"command":"echo rewritten"}`), ""),
			status: hooks.StatusSucceeded, updated: `{"command":"echo rewritten"}`},
		{name: "allow with updatedInput of any object shape",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":{"path":"/tmp/x","n":3}`), ""),
			status: hooks.StatusSucceeded, updated: `{"path":"/tmp/x","n":3}`},
		{name: "allow with a non-object updatedInput fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":"echo hi"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned updatedInput that is not a JSON object"},
		{name: "allow without updatedInput fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","additionalContext":"ctx"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported permissionDecision:allow"},
		{name: "allow with null updatedInput fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":null`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported permissionDecision:allow"},
		{name: "async allow without updatedInput keeps context",
			raw: exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","additionalContext":"ctx"`), ""), async: true,
			status: hooks.StatusSucceeded, contexts: []string{"ctx"}}, // Codex: no error for async output
		{name: "updatedInput without allow fails",
			raw:    exitRaw(0, preToolUseSpecific(`"updatedInput":{"command":"ls"}`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned updatedInput without permissionDecision:allow"},
		{name: "updatedInput with deny fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"no","updatedInput":{"command":"ls"}`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned updatedInput without permissionDecision:allow"},
		{name: "ask fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"ask","permissionDecisionReason":"please confirm"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported permissionDecision:ask"},
		{name: "deny without reason fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"},
		{name: "deny with blank reason fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"  "`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"},
		{name: "reason without decision fails",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecisionReason":"because"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned permissionDecisionReason without permissionDecision"},
		{name: "invalid sync output drops context",
			raw:    exitRaw(0, preToolUseSpecific(`"permissionDecision":"ask","additionalContext":"ctx"`), ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported permissionDecision:ask"},
		{name: "legacy block",
			raw:    exitRaw(0, `{"decision":"block","reason":"do not run that"}`, ""),
			status: hooks.StatusBlocked, reason: "do not run that"},
		{name: "legacy block with context",
			raw:    exitRaw(0, `{"decision":"block","reason":"do not run that","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"ctx"}}`, ""),
			status: hooks.StatusBlocked, reason: "do not run that", contexts: []string{"ctx"}},
		{name: "legacy approve fails",
			raw:    exitRaw(0, `{"decision":"approve"}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported decision:approve"},
		{name: "legacy block without reason fails",
			raw:    exitRaw(0, `{"decision":"block"}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned decision:block without a non-empty reason"},
		{name: "legacy reason alone fails",
			raw:    exitRaw(0, `{"reason":"because"}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned reason without decision"},
		{name: "hook-specific decision overrides legacy fields",
			raw:    exitRaw(0, `{"decision":"approve","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`, ""),
			status: hooks.StatusBlocked, reason: "no"},
		{name: "continue false fails",
			raw:    exitRaw(0, `{"continue":false}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported continue:false"},
		{name: "stopReason fails",
			raw:    exitRaw(0, `{"stopReason":"halt"}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported stopReason"},
		{name: "suppressOutput true fails",
			raw:    exitRaw(0, `{"suppressOutput":true}`, ""),
			status: hooks.StatusFailed, err: "PreToolUse hook returned unsupported suppressOutput"},
		{name: "suppressOutput false is fine",
			raw:    exitRaw(0, `{"suppressOutput":false,"continue":true}`, ""),
			status: hooks.StatusSucceeded},
		{name: "context alone",
			raw:    exitRaw(0, preToolUseSpecific(`"additionalContext":"The pending command touches generated files."`), ""),
			status: hooks.StatusSucceeded, contexts: []string{"The pending command touches generated files."}},
		{name: "plain stdout is ignored",
			raw:    exitRaw(0, "hook ran successfully\n", ""),
			status: hooks.StatusSucceeded},
		{name: "truncated JSON fails",
			raw:    exitRaw(0, "{\"decision\":\n", ""),
			status: hooks.StatusFailed, err: "hook returned invalid pre-tool-use JSON output"},
		{name: "exit 2 blocks with trimmed stderr",
			raw:    exitRaw(2, "", "blocked by policy\n"),
			status: hooks.StatusBlocked, reason: "blocked by policy"},
		{name: "async exit 2 is an ordinary failure",
			raw: exitRaw(2, "", "blocked by policy\n"), async: true,
			status: hooks.StatusFailed, err: "hook exited with code 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, "PreToolUse", tt.raw, tt.async)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Block != (tt.status == hooks.StatusBlocked) || got.Reason != tt.reason {
				t.Errorf("block, reason = %v, %q; want %v, %q", got.Block, got.Reason, tt.status == hooks.StatusBlocked, tt.reason)
			}
			if string(got.UpdatedInput) != tt.updated {
				t.Errorf("updatedInput = %s; want %s", got.UpdatedInput, tt.updated)
			}
			if !reflect.DeepEqual(got.Contexts, tt.contexts) {
				t.Errorf("contexts = %q; want %q", got.Contexts, tt.contexts)
			}
			if got.Stop || got.Feedback != "" || got.Permission != "" {
				t.Errorf("unexpected effects: %+v", got)
			}
		})
	}
}

func TestPreToolUse_FirstDenyInConfigOrderWins(t *testing.T) {
	allowCtx := parseAs(t, "PreToolUse", exitRaw(0, preToolUseSpecific(`"additionalContext":"first context"`), ""), false)
	deny1 := parseAs(t, "PreToolUse", exitRaw(0, preToolUseSpecific(`"permissionDecision":"deny","permissionDecisionReason":"first deny","additionalContext":"deny context"`), ""), false)
	deny2 := parseAs(t, "PreToolUse", exitRaw(2, "", "second deny"), false)
	// The second deny finished first: completion order does not matter.
	deny1.Finished, deny2.Finished = 3, 1
	res := combineAs(t, "PreToolUse", allowCtx, deny1, deny2)
	if res.Decision != hooks.DecisionDeny || res.Reason != "first deny" {
		t.Errorf("decision, reason = %q, %q; want deny, first deny", res.Decision, res.Reason)
	}
	if want := []string{"h0: first context", "h1: deny context"}; !reflect.DeepEqual(contexts(res), want) {
		t.Errorf("contexts = %q; want %q", contexts(res), want)
	}
	if !res.Continue || res.UpdatedInput != nil {
		t.Errorf("continue %v updatedInput %s; want true, none", res.Continue, res.UpdatedInput)
	}
}

func TestPreToolUse_LastCompletedRewriteWins(t *testing.T) {
	first := parseAs(t, "PreToolUse", exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":{"command":"echo first","keep":true}`), ""), false)
	second := parseAs(t, "PreToolUse", exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":{"command":"echo second"}`), ""), false)
	first.Finished, second.Finished = 2, 1
	res := combineAs(t, "PreToolUse", first, second)
	if res.Decision != hooks.DecisionAllow || string(res.UpdatedInput) != `{"command":"echo first","keep":true}` {
		t.Errorf("decision, updatedInput = %q, %s; want allow with the last completed object", res.Decision, res.UpdatedInput)
	}

	first.Finished, second.Finished = 1, 2
	res = combineAs(t, "PreToolUse", first, second)
	// The whole object of the last rewriter: no field is merged from the other.
	if string(res.UpdatedInput) != `{"command":"echo second"}` {
		t.Errorf("updatedInput = %s; want the second rewrite whole", res.UpdatedInput)
	}
}

func TestPreToolUse_BlockDropsRewrite(t *testing.T) {
	rewrite := parseAs(t, "PreToolUse", exitRaw(0, preToolUseSpecific(`"permissionDecision":"allow","updatedInput":{"command":"ls"}`), ""), false)
	block := parseAs(t, "PreToolUse", exitRaw(0, `{"decision":"block","reason":"nope"}`, ""), false)
	rewrite.Finished, block.Finished = 2, 1
	res := combineAs(t, "PreToolUse", rewrite, block)
	if res.Decision != hooks.DecisionDeny || res.Reason != "nope" || res.UpdatedInput != nil {
		t.Errorf("decision %q reason %q updatedInput %s; want deny nope without rewrite", res.Decision, res.Reason, res.UpdatedInput)
	}
}

func TestPreToolUse_FailuresDecideNothing(t *testing.T) {
	res := combineAs(t, "PreToolUse",
		parseAs(t, "PreToolUse", exitRaw(1, "", "crash"), false),
		parseAs(t, "PreToolUse", exitRaw(0, `{"decision":"approve"}`, ""), false),
		parseAs(t, "PreToolUse", exitRaw(0, "plain text", ""), false),
	)
	if res.Decision != hooks.DecisionNone || res.Reason != "" || res.UpdatedInput != nil || len(res.AdditionalContext) != 0 {
		t.Errorf("result = %+v; want no decision", res)
	}
}
