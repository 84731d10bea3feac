package codex

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// permissionDecision wraps a decision object in a PermissionRequest output.
func permissionDecision(decision string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":` + decision + `}}`
}

func TestPermissionRequest_ParseRules(t *testing.T) {
	tests := []struct {
		name       string
		raw        hooks.RawResult
		status     hooks.Status
		err        string
		permission string
		reason     string
	}{
		{"allow", exitRaw(0, permissionDecision(`{"behavior":"allow"}`), ""), hooks.StatusSucceeded, "", hooks.DecisionAllow, ""},
		{"deny with message", exitRaw(0, permissionDecision(`{"behavior":"deny","message":" Blocked by repository policy. "}`), ""),
			hooks.StatusBlocked, "", hooks.DecisionDeny, "Blocked by repository policy."},
		{"deny without message gets the default", exitRaw(0, permissionDecision(`{"behavior":"deny"}`), ""),
			hooks.StatusBlocked, "", hooks.DecisionDeny, "PermissionRequest hook denied approval"},
		{"deny with blank message gets the default", exitRaw(0, permissionDecision(`{"behavior":"deny","message":"  "}`), ""),
			hooks.StatusBlocked, "", hooks.DecisionDeny, "PermissionRequest hook denied approval"},
		{"no decision", exitRaw(0, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest"}}`, ""), hooks.StatusSucceeded, "", "", ""},
		{"null decision", exitRaw(0, permissionDecision(`null`), ""), hooks.StatusSucceeded, "", "", ""},
		{"interrupt false is fine", exitRaw(0, permissionDecision(`{"behavior":"allow","interrupt":false}`), ""), hooks.StatusSucceeded, "", hooks.DecisionAllow, ""},
		{"exit 2 denies with stderr", exitRaw(2, "", "too risky\n"), hooks.StatusBlocked, "", hooks.DecisionDeny, "too risky"},
		{"exit 2 without stderr fails", exitRaw(2, "", ""), hooks.StatusFailed,
			"PermissionRequest hook exited with code 2 but did not write a denial reason to stderr", "", ""},
		{"plain text is ignored", exitRaw(0, "approve it", ""), hooks.StatusSucceeded, "", "", ""},
		{"updatedInput fails", exitRaw(0, permissionDecision(`{"behavior":"allow","updatedInput":{}}`), ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported updatedInput", "", ""},
		{"updatedPermissions fails", exitRaw(0, permissionDecision(`{"behavior":"allow","updatedPermissions":{}}`), ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported updatedPermissions", "", ""},
		{"interrupt fails", exitRaw(0, permissionDecision(`{"behavior":"allow","interrupt":true}`), ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported interrupt:true", "", ""},
		{"continue false fails", exitRaw(0, `{"continue":false}`, ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported continue:false", "", ""},
		{"stopReason fails", exitRaw(0, `{"stopReason":"x"}`, ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported stopReason", "", ""},
		{"suppressOutput fails", exitRaw(0, `{"suppressOutput":true}`, ""), hooks.StatusFailed,
			"PermissionRequest hook returned unsupported suppressOutput", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseAs(t, "PermissionRequest", tt.raw, false)
			if got.Status != tt.status || got.Error != tt.err {
				t.Errorf("status, error = %q, %q; want %q, %q", got.Status, got.Error, tt.status, tt.err)
			}
			if got.Permission != tt.permission || got.Reason != tt.reason {
				t.Errorf("permission, reason = %q, %q; want %q, %q", got.Permission, got.Reason, tt.permission, tt.reason)
			}
			if len(got.Contexts) != 0 {
				t.Errorf("contexts = %q; PermissionRequest has none", got.Contexts)
			}
		})
	}
}

// TestPermissionRequest_InvalidShapesFail reproduces the output_parser
// vectors: none of these is a usable output, and none becomes plain text.
func TestPermissionRequest_InvalidShapesFail(t *testing.T) {
	for _, stdout := range []string{
		`[]`,
		`{"systemMessage":123}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","additionalContext":42}}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","additionalContext":"ctx"}}`,
		`{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}`,
		`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","extra":true}}}`,
		`{"unknown":true}`,
		`{`,
	} {
		got := parseAs(t, "PermissionRequest", exitRaw(0, stdout, ""), false)
		if got.Status != hooks.StatusFailed || got.Error != "hook returned invalid permission-request JSON output" || got.Permission != "" {
			t.Errorf("%s: status %q error %q permission %q; want invalid JSON failure", stdout, got.Status, got.Error, got.Permission)
		}
	}
}

func TestPermissionRequest_DenyBeatsEarlierAllow(t *testing.T) {
	res := combineAs(t, "PermissionRequest",
		parseAs(t, "PermissionRequest", exitRaw(0, permissionDecision(`{"behavior":"allow"}`), ""), false),
		parseAs(t, "PermissionRequest", exitRaw(0, permissionDecision(`{"behavior":"deny","message":"first deny"}`), ""), false),
		parseAs(t, "PermissionRequest", exitRaw(2, "", "second deny"), false),
	)
	want := &hooks.Permission{Behavior: "deny", Message: "first deny"}
	if res.Decision != hooks.DecisionDeny || res.Reason != "first deny" || !reflect.DeepEqual(res.Permission, want) {
		t.Errorf("decision %q reason %q permission %+v; want deny by the first deny", res.Decision, res.Reason, res.Permission)
	}
}

func TestPermissionRequest_DefaultDenyMessage(t *testing.T) {
	res := combineAs(t, "PermissionRequest",
		parseAs(t, "PermissionRequest", exitRaw(0, permissionDecision(`{"behavior":"deny"}`), ""), false))
	want := &hooks.Permission{Behavior: "deny", Message: "PermissionRequest hook denied approval"}
	if res.Decision != hooks.DecisionDeny || !reflect.DeepEqual(res.Permission, want) {
		t.Errorf("decision %q permission %+v; want %+v", res.Decision, res.Permission, want)
	}
}

func TestPermissionRequest_AllowPlusAllowAllows(t *testing.T) {
	allow := parseAs(t, "PermissionRequest", exitRaw(0, permissionDecision(`{"behavior":"allow"}`), ""), false)
	res := combineAs(t, "PermissionRequest", allow, allow)
	if res.Decision != hooks.DecisionAllow || !reflect.DeepEqual(res.Permission, &hooks.Permission{Behavior: "allow"}) {
		t.Errorf("decision %q permission %+v; want allow", res.Decision, res.Permission)
	}
}

func TestPermissionRequest_NoDecisionIsNone(t *testing.T) {
	res := combineAs(t, "PermissionRequest",
		parseAs(t, "PermissionRequest", exitRaw(0, `{"systemMessage":"looked at it"}`, ""), false),
		parseAs(t, "PermissionRequest", exitRaw(0, permissionDecision(`{"behavior":"allow","interrupt":true}`), ""), false),
		parseAs(t, "PermissionRequest", exitRaw(1, "", ""), false),
	)
	if res.Decision != hooks.DecisionNone || res.Permission != nil {
		t.Errorf("decision %q permission %+v; want none", res.Decision, res.Permission)
	}
	if want := []hooks.Message{{Hook: "h0", Text: "looked at it"}}; !reflect.DeepEqual(res.SystemMessages, want) {
		t.Errorf("messages = %+v; want %+v", res.SystemMessages, want)
	}
}
