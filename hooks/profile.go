package hooks

import (
	"time"

	"github.com/hookd/hookd/plugins"
)

// A Profile holds every choice that differs between agent hosts: where hooks
// are found, the matcher dialect, the events and their output rules, timeouts,
// and whether handlers run in parallel. The engine asks the profile, never the
// host's name. Adding a host means adding one Profile value.
type Profile struct {
	// Name is the value hosts pass as initialize.profile ("codex").
	Name string
	// HomeEnv names the environment variable that overrides the user folder
	// (CODEX_HOME); HomeDir is the folder under the user's home (".codex").
	HomeEnv string
	HomeDir string
	// ProjectDir is the folder under a trusted project root (".codex").
	ProjectDir string
	// Events lists the events the profile knows, in their fixed order.
	Events []*EventRules
	// CompileMatcher turns a group's matcher text into a Matcher.
	CompileMatcher func(pattern string) (Matcher, error)
	// ToolNames returns the names a tool may be matched by: canonical first,
	// then aliases. Nil means a tool matches by its own name only.
	ToolNames func(name string) []string
	// CanonicalTool maps a tool name to the name reported in the hook input.
	CanonicalTool func(name string) string
	// Trust is true when non-managed hooks need review before they run.
	Trust bool
	// Serial runs an event's handlers one after another instead of at once.
	Serial bool
	// NoEnablement is true when the host has no per-hook enable switch
	// (Mirri: every [[hooks]] rule runs, and its config.toml has no place
	// for hook state); SetEnabled then refuses instead of writing state.
	NoEnablement bool
	// KillGrace is how long a timed-out process group has between SIGTERM and
	// SIGKILL. Zero sends SIGKILL at once.
	KillGrace time.Duration
	// PluginRule is how plugin manifests give hooks (Codex's or Claude Code's
	// rule); the zero value, plugins.NoPlugins, loads no plugin hooks.
	PluginRule plugins.Rule

	// The fields below are optional hooks for hosts whose rules go beyond the
	// codex shape. Nil means the codex behaviour.

	// Discover finds the profile's hooks. Nil: DiscoverAll (codex layers:
	// managed, user, trusted project, session, plugins).
	Discover func(p *Profile, opts DiscoverOptions) *Discovery
	// Dedupe drops handlers that must run once although several sources
	// configured them (Mirri: identical commands; Claude Code: identical
	// handlers across settings files). It gets the selected, runnable hooks
	// of one event in configuration order and returns those to run; the
	// engine reports the dropped ones as skipped with reason "duplicate".
	Dedupe func(hooks []*Hook) []*Hook
	// PrepareInput adjusts the stdin JSON after the engine built it (Mirri
	// truncates long fields; Soong replaces a large tool_response by a
	// reference to a spilled file).
	PrepareInput func(ev *EventRules, input []byte, s Session) []byte
	// AfterCombine applies rules that span events or runs (a cap on Stop
	// blocks in a row, at most one continuation per turn). state is the
	// session's own, kept by the engine for its lifetime.
	AfterCombine func(state *State, ev *EventRules, input []byte, res *Result)
	// EnvFilter turns hookd's environment into the hooks' base environment
	// (Soong's allowlist). Nil passes hookd's environment, minus the
	// agent credentials Codex scrubs.
	EnvFilter func(env []string) []string
}

// Event returns the rules for the named event, or nil if the profile does not
// know it.
func (p *Profile) Event(name string) *EventRules {
	for _, ev := range p.Events {
		if ev.Name == name {
			return ev
		}
	}
	return nil
}

// discover runs the profile's discovery.
func (p *Profile) discover(opts DiscoverOptions) *Discovery {
	if p.Discover != nil {
		return p.Discover(p, opts)
	}
	return DiscoverAll(p, opts)
}

// EventNames lists the profile's events in order.
func (p *Profile) EventNames() []string {
	names := make([]string, len(p.Events))
	for i, ev := range p.Events {
		names[i] = ev.Name
	}
	return names
}

var profiles = map[string]*Profile{}

// Register makes a profile available by name to LookupProfile.
func Register(p *Profile) { profiles[p.Name] = p }

// LookupProfile returns the registered profile with that name.
func LookupProfile(name string) (*Profile, bool) {
	p, ok := profiles[name]
	return p, ok
}

// ProfileNames lists the registered profiles.
func ProfileNames() []string {
	var names []string
	for n := range profiles {
		names = append(names, n)
	}
	return names
}
