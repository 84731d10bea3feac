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
	// KillGrace is how long a timed-out process group has between SIGTERM and
	// SIGKILL. Zero sends SIGKILL at once.
	KillGrace time.Duration
	// PluginRule is how plugin manifests give hooks (Codex's or Claude Code's
	// rule); the zero value, plugins.NoPlugins, loads no plugin hooks.
	PluginRule plugins.Rule
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
