package mind

import "github.com/hookd/hookd/hooks"

// Mind's coverage labels (spec 000): an enabled tool hook does not control a
// tool of the same name that the server runs. When the host declares where
// tools run (Options.ToolLocations), hooks/list labels each PreToolUse,
// PermissionRequest and PostToolUse hook with what it sees of the tools its
// matcher matches:
//
//	event \ tool runs on  client        server-approval        server
//	PreToolUse            client-full   server-approval-only   client-only
//	PermissionRequest     client-full   approval-events        client-only
//	PostToolUse           client-full   client-only            client-only
//
//   - client-full: every call, with full effect.
//   - server-approval-only: the hook runs at the approval stage only, and an
//     updatedInput does not change what the server runs.
//   - approval-events: the hook runs on the approval events of the server
//     tool, which is all it decides anyway.
//   - client-only: the hook never runs for the server's calls (the server
//     runs the tool without a client pre-event, or returns its result without
//     a PostToolUse); it covers client calls only.
//
// A hook matching several declared tools gets the narrowest label among
// them (client-only < server-approval-only < approval-events < client-full);
// one that matches none of the declared non-client tools is client-full.
// Hooks of other events have no label.

// Coverage labels of the mind profile.
const (
	CoverageClientFull         = "client-full"
	CoverageServerApprovalOnly = "server-approval-only"
	CoverageApprovalEvents     = "approval-events"
	CoverageClientOnly         = "client-only"
)

// mindCoverageRank orders labels from the narrowest.
var mindCoverageRank = map[string]int{
	CoverageClientOnly:         0,
	CoverageServerApprovalOnly: 1,
	CoverageApprovalEvents:     2,
	CoverageClientFull:         3,
}

// mindCoverageCell is the table above.
func mindCoverageCell(event, where string) string {
	switch where {
	case hooks.LocationServer:
		return CoverageClientOnly
	case hooks.LocationServerApproval:
		switch event {
		case "PreToolUse":
			return CoverageServerApprovalOnly
		case "PermissionRequest":
			return CoverageApprovalEvents
		}
		return CoverageClientOnly
	}
	return CoverageClientFull
}

// mindCoverage is the Mind profile's Coverage.
func mindCoverage(p *hooks.Profile, h *hooks.Hook, where map[string]string) string {
	ev := p.Event(h.Event)
	if ev == nil || !ev.ToolEvent {
		return ""
	}
	label := CoverageClientFull
	for tool, loc := range where {
		if loc == hooks.LocationClient || !hookMatchesTool(p, h, tool) {
			continue
		}
		if c := mindCoverageCell(h.Event, loc); mindCoverageRank[c] < mindCoverageRank[label] {
			label = c
		}
	}
	return label
}

// hookMatchesTool reports whether h's matcher selects a call of tool. A
// matcher that needs the whole input cannot be asked without one, so it
// counts as matching: a label must never claim more coverage than there is.
func hookMatchesTool(p *hooks.Profile, h *hooks.Hook, tool string) bool {
	if h.CompiledMatcher() == nil {
		return true
	}
	if _, ok := h.CompiledMatcher().(hooks.InputMatcher); ok {
		return true
	}
	names := []string{tool}
	if p.ToolNames != nil {
		names = p.ToolNames(tool)
	}
	return h.CompiledMatcher().Match(names)
}
