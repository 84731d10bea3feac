package hooks

import "strings"

// Severities of a discovery Warning, as hookd check and strict mode report
// them.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// errorPrefixes start the messages of warnings that lose configured hooks: a
// file that could not be read or parsed, an event, group or handler that was
// skipped, a matcher that never matches. The others (an unknown field, a
// clamped timeout, a reserved source) leave every hook the author wrote
// loaded.
var errorPrefixes = []string{
	"failed to ",
	"skipping ",
	"invalid matcher ",
	"ignoring hook event ",
	"ignoring unknown hook event ",
	"ignoring hooks in ",
	"loading no hooks for plugin ",
}

// errorExceptions are prefixed like errors but describe the machine, not the
// hooks files: nothing an author can fix in the plugin.
var errorExceptions = []string{
	"skipping user hooks: cannot find the user folder",
	"skipping hooks of config profile",
}

// Severity says whether a warning lost hooks the configuration asked for
// (SeverityError: a broken file, a skipped handler, a matcher that can never
// match) or only ignored something beside them (SeverityWarning). Strict
// mode (hookd run --strict, hookd test) fails on errors.
func (w Warning) Severity() string {
	for _, x := range errorExceptions {
		if strings.HasPrefix(w.Message, x) {
			return SeverityWarning
		}
	}
	// A handler type hookd does not run yet is hookd's gap, not the author's
	// mistake: the host runs it.
	if strings.Contains(w.Message, "hooks are not supported yet") {
		return SeverityWarning
	}
	for _, p := range errorPrefixes {
		if strings.HasPrefix(w.Message, p) {
			return SeverityError
		}
	}
	switch {
	case strings.Contains(w.Message, " never matches"),
		strings.HasPrefix(w.Message, "ignoring field ") && strings.Contains(w.Message, "of hook events"),
		strings.HasPrefix(w.Message, "hooks in ") && strings.Contains(w.Message, " do not run: ") &&
			!strings.Contains(strings.ToLower(w.Message), "managed"):
		return SeverityError
	}
	return SeverityWarning
}
