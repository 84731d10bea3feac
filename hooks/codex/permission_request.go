package codex

import (
	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

// PermissionRequest runs when the host is about to ask the user for approval.
// A handler may allow or deny; with no verdict the normal approval prompt
// goes on. The fields Codex reserves for later (rewrites, interrupt) fail the
// handler rather than being half-honoured.

type permissionRequestWire struct {
	universalWire
	HookSpecificOutput *permissionRequestSpecificWire `json:"hookSpecificOutput"`
}

type permissionRequestSpecificWire struct {
	HookEventName *string                 `json:"hookEventName"`
	Decision      *permissionDecisionWire `json:"decision"`
}

type permissionDecisionWire struct {
	Behavior           *string         `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
	Message            *string         `json:"message"`
	Interrupt          json.RawMessage `json:"interrupt"`
}

func (w *permissionRequestWire) valid() bool {
	if _, ok := w.read(); !ok {
		return false
	}
	h := w.HookSpecificOutput
	if h == nil {
		return true
	}
	if !validEventName(h.HookEventName) {
		return false
	}
	if d := h.Decision; d != nil {
		if d.Behavior == nil || (*d.Behavior != "allow" && *d.Behavior != "deny") {
			return false
		}
		if _, ok := wireBool(d.Interrupt, false); !ok {
			return false
		}
	}
	return true
}

// permissionDenyDefault is the deny message when a hook gives none.
const permissionDenyDefault = "PermissionRequest hook denied approval"

var permissionRequestRules = outputRules{
	invalidJSON:  "hook returned invalid permission-request JSON output",
	exit2:        denyWith,
	exit2Missing: "PermissionRequest hook exited with code 2 but did not write a denial reason to stderr",
	json:         readPermissionRequest,
}

// parsePermissionRequest is the PermissionRequest Parse rule.
func parsePermissionRequest(raw hooks.RawResult, async bool) hooks.Outcome {
	return permissionRequestRules.readOutput(raw, async)
}

// denyWith records a deny verdict with its message.
func denyWith(o *hooks.Outcome, message string) {
	o.Permission = hooks.DecisionDeny
	hooks.BlockWith(o, message)
}

func readPermissionRequest(o *hooks.Outcome, data []byte, async bool) bool {
	w, ok := decodeOutput[permissionRequestWire](data)
	if !ok {
		return false
	}
	u, _ := w.read()
	u.applySystemMessage(o)
	var d *permissionDecisionWire
	if w.HookSpecificOutput != nil {
		d = w.HookSpecificOutput.Decision
	}
	if invalid := permissionRequestInvalid(u, d); invalid != "" {
		if !async { // an async handler completes without an error
			o.Fail(invalid)
		}
		return true
	}
	if d == nil {
		return true
	}
	if *d.Behavior == "allow" {
		o.Permission = hooks.DecisionAllow
		return true
	}
	msg := hooks.NonBlank(d.Message)
	if msg == "" {
		msg = permissionDenyDefault
	}
	denyWith(o, msg)
	return true
}

// permissionRequestInvalid returns why a well-formed output still fails the
// handler, in Codex's order and words, or "".
func permissionRequestInvalid(u universal, d *permissionDecisionWire) string {
	switch {
	case !u.cont:
		return "PermissionRequest hook returned unsupported continue:false"
	case u.stopReason != nil:
		return "PermissionRequest hook returned unsupported stopReason"
	case u.suppressOutput:
		return "PermissionRequest hook returned unsupported suppressOutput"
	case d == nil:
		return ""
	case present(d.UpdatedInput):
		return "PermissionRequest hook returned unsupported updatedInput"
	case present(d.UpdatedPermissions):
		return "PermissionRequest hook returned unsupported updatedPermissions"
	}
	if interrupt, _ := wireBool(d.Interrupt, false); interrupt {
		return "PermissionRequest hook returned unsupported interrupt:true"
	}
	return ""
}

// combinePermissionRequest is the PermissionRequest Combine rule: any deny
// wins, worded by the first deny in configuration order; otherwise any allow
// allows; otherwise there is no verdict and the host asks the user.
func combinePermissionRequest(res *hooks.Result, outs []hooks.Outcome) {
	denied, allowed := false, false
	msg := ""
	for i := range outs {
		o := &outs[i]
		hooks.AddMessages(res, o)
		switch o.Permission {
		case hooks.DecisionDeny:
			if !denied {
				denied, msg = true, o.Reason
			}
		case hooks.DecisionAllow:
			allowed = true
		}
	}
	switch {
	case denied:
		if msg == "" {
			msg = permissionDenyDefault
		}
		res.Decision = hooks.DecisionDeny
		res.Reason = msg
		res.Permission = &hooks.Permission{Behavior: hooks.DecisionDeny, Message: msg}
	case allowed:
		res.Decision = hooks.DecisionAllow
		res.Permission = &hooks.Permission{Behavior: hooks.DecisionAllow}
	}
}
