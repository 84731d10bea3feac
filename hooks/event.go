package hooks

import (
	"time"

	"github.com/tidwall/gjson"
)

// EventRules is how a profile treats one event: where its matcher looks, which
// input fields it carries and how a handler's output is read and combined.
// Each event's rules sit together in one event_*.go file.
type EventRules struct {
	// Name is the wire name, for example "PreToolUse".
	Name string
	// Label is the snake_case name used in hook keys and hashes ("pre_tool_use").
	Label string
	// MatchField is the input field the matcher is tested against ("tool_name",
	// "source", ...). Empty means the event ignores matchers entirely (they are
	// not even validated).
	MatchField string
	// ToolEvent marks tool events: the match target gains the profile's tool
	// aliases and tool_name is reported canonically.
	ToolEvent bool
	// InputFields lists the stdin JSON fields in the order the host writes them.
	// Fields the session can fill (session_id, cwd, ...) are filled from it.
	InputFields []string
	// ContextLimit is true when additionalContextLimit means something here.
	ContextLimit bool
	// Blocking is true when exit code 2 blocks (sync handlers only).
	Blocking bool
	// ForceSync runs async handlers synchronously (SessionEnd).
	ForceSync bool
	// NoMCP rejects mcp_tool handlers at discovery (SessionEnd).
	NoMCP bool
	// EndsSession marks the event after which the session's background work
	// and spill files are cleaned up (SessionEnd).
	EndsSession bool
	// DefaultTimeout and MaxTimeout, in seconds; MaxTimeout 0 means no cap.
	DefaultTimeout int
	MaxTimeout     int
	// Budget bounds all of one event's handlers together (Claude Code's
	// SessionEnd hooks share 1.5 s); a handler still running when it is spent
	// is stopped and reported timedOut. Zero: each handler has its own timeout.
	Budget time.Duration
	// Precondition, when set, decides from the request's input whether the
	// event's hooks run at all (Mind runs PostToolUse only after a tool
	// succeeded). A non-empty skip reports every matched hook skipped with
	// that reason; an error rejects the request as bad input. Nil: they run.
	Precondition func(input []byte) (skip string, err error)
	// BudgetFor, when set, computes the shared budget from the handlers
	// about to run, instead of Budget (Claude Code's SessionEnd budget grows
	// to the largest timeout its settings files give).
	BudgetFor func(run []*Hook) time.Duration
	// CompileMatcher, when set, replaces the profile's matcher dialect for
	// this event (Claude Code's FileChanged takes literal file names).
	CompileMatcher func(pattern string) (Matcher, error)
	// Parse reads one finished handler's raw result.
	Parse func(raw RawResult, async bool) Outcome
	// Combine folds the outcomes of sync handlers, in configuration order, into
	// res. It sets Decision and the event's fields; the engine fills the rest.
	Combine func(res *Result, outs []Outcome)
	// ReadFiles, when set, adds to a combined result what it reads from
	// files a hook or the host may have written (Claude Code's
	// CLAUDE_ENV_FILE). It runs on the run's goroutine after Combine and
	// before the profile's AfterCombine, never on the goroutine that reads
	// requests nor under the engine's locks: a run of such an event never
	// takes the quick path (QuickRun), even when no handler matches.
	ReadFiles func(s Session, res *Result)
}

// MatchTargets returns the names a matcher may match for this event's input:
// the field value first, then aliases for tool events. ok is false when the
// input has no such field.
func (ev *EventRules) MatchTargets(p *Profile, input []byte) (targets []string, ok bool) {
	if ev.MatchField == "" {
		return nil, false
	}
	v := gjson.GetBytes(input, ev.MatchField)
	if !v.Exists() || v.Type != gjson.String {
		return nil, false
	}
	if ev.ToolEvent && p.ToolNames != nil {
		return p.ToolNames(v.Str), true
	}
	return []string{v.Str}, true
}
