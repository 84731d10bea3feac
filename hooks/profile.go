package hooks

import (
	"io"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/plugins"
	"github.com/hookd/hookd/spill"
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
	// HomeBaseEnv, for a profile whose own discovery reads it, names the
	// environment variable that replaces the user's home above HomeDir
	// (gemini: $GEMINI_CLI_HOME/.gemini); it documents the rule.
	HomeBaseEnv string
	// ProjectDir is the folder under a trusted project root (".codex").
	ProjectDir string
	// ProjectFiles names the files in ProjectDir that can hold hooks, as
	// reported when an untrusted project's hooks are left out; a name may
	// be a pattern ("*.json"). Nil: hooks.json and config.toml.
	ProjectFiles []string
	// PrintModeReadsProject: in print mode (DiscoverOptions.PrintMode) the
	// host reads ProjectFiles (and the project's skills) without a trust
	// record, unless it said the project is not trusted (Claude Code's
	// -p); see PrintModeTrust.
	PrintModeReadsProject bool
	// BareHooksFiles names the hooks files whose whole object is the map of
	// events, with no "hooks" key (Droid's hooks.json), for hookd check.
	// Nil: every hooks file has a "hooks" object.
	BareHooksFiles []string
	// ProjectTrust is the host's own record of trusted project folders,
	// read when the host does not say whether the project is trusted and
	// written by `hookd trust --project`. Nil: the profile has none.
	ProjectTrust ProjectTrustStore
	// ProjectTrustedByDefault reads a project nobody answered for (no
	// explicit answer, no record), as a host whose folder trust is off by
	// default does (Qwen Code). An explicit "not trusted" still wins.
	ProjectTrustedByDefault bool
	// Events lists the events the profile knows, in their fixed order.
	Events []*EventRules
	// CompileMatcher turns a group's matcher text into a Matcher.
	CompileMatcher func(pattern string) (Matcher, error)
	// ToolNames returns the names a tool may be matched by: canonical first,
	// then aliases. Nil means a tool matches by its own name only.
	ToolNames func(name string) []string
	// CanonicalTool maps a tool name to the name reported in the hook input.
	CanonicalTool func(name string) string
	// Tools lists the tool names a matcher may name on this host (canonical
	// names and aliases; MCP tools are mcp__<server>__<tool> besides). hookd
	// check warns about exact matcher items that name none of them. Nil: the
	// host's tools are not known and tool names are not checked.
	Tools []string
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
	// StdinNewline ends the JSON a command hook reads on stdin with a
	// newline, as Claude Code writes it (the other handler kinds get the
	// JSON alone).
	StdinNewline bool
	// AfterCombine applies rules that span events or runs (a cap on Stop
	// blocks in a row, at most one continuation per turn). state is the
	// session's own, kept by the engine for its lifetime.
	AfterCombine func(state *State, ev *EventRules, input []byte, res *Result)
	// HookRunID names one handler's run as the host does, given the event,
	// the handler's place n among the event's hooks in display order (all
	// sources, counted before matching), the hook and the event's input.
	// Codex: "<event-label>:<n>:<source path>" (":<tool_use_id>" after it
	// on the tool events), the id it wraps Stop continuations with. Nil:
	// results carry no run ids.
	HookRunID func(ev *EventRules, n int, h *Hook, input []byte) string
	// HookEnv returns the environment of one command handler from env
	// (the base environment, then the hook's own plugin variables): a host
	// may add variables or drop some (Claude Code: CLAUDE_PROJECT_DIR,
	// CLAUDE_CODE_SESSION_ID, no PLUGIN_ROOT). Nil: env as it is, as Codex.
	HookEnv func(e *Engine, h *Hook, env []string) []string
	// EnvFilter turns hookd's environment into the hooks' base environment
	// (Soong's allowlist). Nil passes hookd's environment, minus the
	// agent credentials Codex scrubs. A host-given Options.EnvAllowlist
	// replaces it.
	EnvFilter func(env []string) []string
	// EntriesAreHandlers: an event's array may hold handlers themselves as
	// well as matcher groups (Copilot CLI): an entry with no "hooks" array
	// is one handler, not a group that runs nothing.
	EntriesAreHandlers bool
	// NewSessionID makes the session id when the host gives none (Mind's
	// ids carry their creation time, which names the transcript folder).
	// Nil: a random UUID, as Codex.
	NewSessionID func() string
	// Coverage labels a hook in hooks/list with how much of the tools it
	// matches it can see, given where the host says each tool runs
	// (Options.ToolLocations: tool name → LocationClient, LocationServer,
	// LocationServerApproval). It is asked only when the host declared
	// locations; "" leaves the hook unlabelled. Nil: no labels.
	Coverage func(p *Profile, h *Hook, where map[string]string) string
	// Chain turns on Gemini CLI's sequential groups (sequential.go): when a
	// selected hook's group says "sequential": true the event's hooks run
	// one after another, and each gets the input Chain makes of the one
	// before it and that hook's outcome. Nil: groups never chain.
	Chain func(ev *EventRules, stdin []byte, o Outcome) []byte
	// StopAtDeny ends a Serial run at the first handler that denies (its
	// Outcome.Block): the handlers after it do not run and are reported
	// skipped with reason "afterDeny" (Soong). False runs them all.
	StopAtDeny bool
	// ProjectCwd runs command handlers in the project root (the engine's
	// project folder, checked to be a directory) instead of the session
	// cwd (Soong: "hook command 默认 cwd 为 <project>").
	ProjectCwd bool
	// HandlerKinds adds handler kinds to the engine's command and mcp_tool
	// (Claude Code's http, prompt and agent), or replaces one, by
	// Handler.Type. Each is built once per engine. The hooks walker reads
	// only command and mcp_tool handlers; a profile with another kind builds
	// its hooks in ReadHandler or Discover.
	HandlerKinds map[string]func(e *Engine) HandlerKind
	// HandlerTypes lists the handler types the profile runs, as initialize
	// reports them. Nil: command and mcp_tool.
	HandlerTypes []string
	// Shell is the argv prefix command handlers run through, the command
	// being the last argument (Claude Code runs "sh -c"). Nil: proc's
	// default, $SHELL -lc (%COMSPEC% /C on Windows); proc.EnvShell stands
	// for $SHELL read when the command starts (Codex: "$SHELL -c").
	Shell []string
	// QuietFields are config keys the profile's hooks files may carry that
	// the hooks walker accepts without an "unknown field" warning, at the
	// root, beside the events (Droid's hooksDisabled), in groups and in
	// handlers (Claude Code's description, once...).
	QuietFields map[string]bool
	// ReadHandler reads profile-specific handler keys once the walker has
	// built the hook (Claude Code's asyncRewake and if). raw is the handler
	// object as written. A non-empty warning is reported at the handler's
	// position; skip drops the handler.
	ReadHandler func(ev *EventRules, raw gjson.Result, h *Hook) (warning string, skip bool)
	// Spill replaces the codex spill rule (token limits per handler, Codex's
	// preview) for oversized text: every additionalContext, whatever its
	// handler's additionalContextLimit, the PostToolUse feedback, each
	// continuation fragment and, unlike codex, every systemMessage.
	Spill TextLimiter
}

// TextLimiter is a profile's own rule for text too long to hand over whole
// (Profile.Spill).
type TextLimiter interface {
	// Limit returns text as it is when it fits, else a preview naming a new
	// spill file of the session that holds the whole text. A file that
	// cannot be written still gives a preview, with the error.
	Limit(session, text string) (spill.Text, error)
	// Preview lays out the preview of a text of size bytes already in the
	// file at path (a handler's stdout past the capture cap), read through r.
	Preview(r io.ReaderAt, size int64, path string) (string, error)
}

// MakeSessionID returns a new session id in the profile's form.
func (p *Profile) MakeSessionID() string {
	if p.NewSessionID != nil {
		return p.NewSessionID()
	}
	return NewSessionID()
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
// The project's trust is settled first, from the host's answer or its own
// record, and sources left out are listed after.
func (p *Profile) discover(opts DiscoverOptions) *Discovery {
	project, warns := resolveProjectTrust(p, &opts)
	if project != nil {
		opts.ProjectDecidedBy = project.DecidedBy
	}
	var r *Discovery
	if p.Discover != nil {
		r = p.Discover(p, opts)
	} else {
		r = DiscoverAll(p, opts)
	}
	r.Warnings = append(warns, r.Warnings...)
	r.Project = project
	// The profile's own (disabled plugins) come between the project's and
	// the policies'.
	r.LeftOut = append(append(leftOutProject(p, opts, project), r.LeftOut...), leftOutByPolicy(r.Hooks, r.Warnings)...)
	return r
}

// Handlers returns the handler types the profile runs.
func (p *Profile) Handlers() []string {
	if p.HandlerTypes != nil {
		return p.HandlerTypes
	}
	return []string{TypeCommand, TypeMCPTool}
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

// DefaultProfile names the profile New uses when Options.Profile is nil:
// Codex's, whose hooks crate the engine follows. The engine does not link
// it; package codex registers it.
const DefaultProfile = "codex"

// defaultProfile returns the registered DefaultProfile. Building an engine
// without a profile in a program that links no codex profile is a
// programming error.
func defaultProfile() *Profile {
	p, ok := LookupProfile(DefaultProfile)
	if !ok {
		panic("hooks.New: Options.Profile is nil and no " + DefaultProfile + " profile is registered (import github.com/hookd/hookd/hooks/codex)")
	}
	return p
}
