package hooks

import "testing"

func TestWarningSeverity_ErrorsAreWarningsThatLoseHooks(t *testing.T) {
	cases := []struct {
		msg, want string
	}{
		{"failed to parse hooks config /h/hooks.json: unexpected end of JSON input (line 1, column 12)", SeverityError},
		{"failed to read plugin hooks config /p/hooks.json: permission denied", SeverityError},
		{"skipping hook handler in /h/hooks.json: unknown type \"http\"", SeverityError},
		{"invalid matcher \"[oops\" in /h/hooks.json: error parsing regexp", SeverityError},
		{"ignoring unknown hook event \"PreToolUSE\" in /h/hooks.json", SeverityError},
		{"ignoring field \"hooks\" in /h/hooks.json: expected an object of hook events", SeverityError},
		{"matcher \"x\" of the Stop rule never matches: Stop is matched against the empty string", SeverityError},
		{"hooks in /m/config.toml do not run: unknown field \"comand\" (line 3)", SeverityError},
		{"loading no hooks for plugin p@local: bad manifest", SeverityError},
		// Nothing the author wrote is lost.
		{"ignoring unknown field \"owner\" in /h/hooks.json (line 1, column 2)", SeverityWarning},
		{"clamping PreToolUse hook timeout to 600s in /h/hooks.json", SeverityWarning},
		{"hooks in /h/hooks.json do not run: allow_managed_hooks_only = true in /m/requirements.toml", SeverityWarning},
		{"ignoring plugins: the mirri profile has no plugin hooks", SeverityWarning},
		// hookd's gap, not the author's: the host runs these.
		{"skipping prompt hook in /p/hooks.json: prompt hooks are not supported yet", SeverityWarning},
		// The machine, not the hooks files.
		{"skipping user hooks: cannot find the user folder (set $CODEX_HOME or $HOME)", SeverityWarning},
	}
	for _, c := range cases {
		if got := (Warning{Message: c.msg}).Severity(); got != c.want {
			t.Errorf("%q: severity %s, want %s", c.msg, got, c.want)
		}
	}
}
