package hooks

import (
	"encoding/json"
	"time"
)

// Layer names where a hook was configured.
const (
	LayerManaged = "managed"
	LayerUser    = "user"
	LayerProject = "project"
	LayerPlugin  = "plugin"
	LayerSession = "session"
	LayerProfile = "profile"
	LayerCLI     = "cli"
)

// Trust states of a hook.
const (
	TrustManaged   = "managed"
	TrustTrusted   = "trusted"
	TrustModified  = "modified"
	TrustUntrusted = "untrusted"
)

// Handler types.
const (
	TypeCommand = "command"
	TypeMCPTool = "mcp_tool"
)

// Source says where a hook was configured.
type Source struct {
	Layer  string `json:"layer"`
	Path   string `json:"path"`
	Plugin string `json:"plugin,omitempty"`
	// pluginRoot is the resolved folder of a plugin outside the host's
	// install cache: part of its hooks' hash, so that trust given to one
	// folder's hooks does not pass to another folder with the same plugin id.
	pluginRoot string
}

// Handler is one normalized handler: defaults applied, timeout clamped.
type Handler struct {
	Type           string `json:"type"`
	Command        string `json:"command,omitempty"`
	CommandWindows string `json:"commandWindows,omitempty"`
	// WrittenCommand is the command as the file wrote it, when the
	// profile runs it as something else (Claude Code's "args" and "shell"),
	// for the messages that name the hook.
	WrittenCommand string `json:"-"`
	// Timeout is the effective timeout in seconds.
	Timeout int `json:"timeout"`
	// TimeoutMs, when set, is the exact timeout of a host that counts in
	// milliseconds (Gemini CLI, Qwen Code's large values); Timeout is then
	// the same limit rounded up to whole seconds.
	TimeoutMs int  `json:"timeoutMs,omitempty"`
	Async     bool `json:"async"`
	// AsyncConfigured is what the file said; Async may be forced off.
	AsyncConfigured bool    `json:"-"`
	StatusMessage   *string `json:"statusMessage"`
	// AdditionalContextLimit is nil when unset (the default 2500 applies).
	AdditionalContextLimit *int `json:"additionalContextLimit,omitempty"`
	// FailClosed turns this handler's failure (crash, timeout, bad output)
	// into a block on events that can block (Mirri's failClosed).
	FailClosed bool `json:"failClosed,omitempty"`
	// Rewake marks an async handler whose exit code 2 hands its stderr
	// (else stdout) to the model's next request (Claude Code's asyncRewake;
	// AsyncResult.Rewake).
	Rewake bool            `json:"rewake,omitempty"`
	Server string          `json:"server,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`
	// Config is the handler object as written, for the kinds a profile adds
	// (Profile.HandlerKinds: Claude Code's http, prompt, agent), which read
	// their own fields from it.
	Config json.RawMessage `json:"config,omitempty"`
}

// Hook is one discovered handler with everything needed to match, run and list it.
type Hook struct {
	Key   string
	Event string
	// Matcher is the effective matcher text; HasMatcher is false when absent
	// (or dropped because the event ignores matchers).
	Matcher    string
	HasMatcher bool
	matcher    Matcher
	Source     Source
	Handler    Handler
	// Order is the global display order: configuration order across sources.
	Order int
	// Env holds extra environment variables for the command (plugin variables).
	Env map[string]string
	// hash gives Hash: the hook as it was read, hashed when first asked.
	hash    *lazyHash
	Trust   string
	Enabled bool
	// TrustedHash is the hash recorded when the hook was last trusted ("" when
	// never); it differs from Hash when Trust is "modified".
	TrustedHash string
	// Policy says why a policy keeps this hook from running whatever its
	// trust ("managedOnly", "hooksDisabled"), or is "".
	Policy string
	// Scope limits the hook to one subagent or skill (scope.go); nil for
	// the whole session.
	Scope *Scope
	// Sequential is set when the hook's matcher group says "sequential":
	// true; it matters only to a profile with a Chain rule (sequential.go).
	Sequential bool
}

// Warning is a discovery or run-time problem reported to the host.
type Warning struct {
	Source  string `json:"source"`
	Message string `json:"message"`
	Event   string `json:"event,omitempty"`
	Group   *int   `json:"group,omitempty"`
	Handler *int   `json:"handler,omitempty"`
}

// Status of one handler run.
type Status string

// Handler run statuses as reported in Result.Hooks.
const (
	StatusSucceeded Status = "succeeded"
	StatusBlocked   Status = "blocked"
	StatusFailed    Status = "failed"
	StatusTimedOut  Status = "timedOut"
	StatusCancelled Status = "cancelled"
	StatusStarted   Status = "started"
	// StatusStopped is internal: the handler asked to stop (continue:false).
	// It is reported as succeeded.
	StatusStopped Status = "stopped"
)

// RawResult is what running a handler produced, before the event rules read it.
type RawResult struct {
	// ExitCode is nil when the process had no exit status (signal, spawn error).
	ExitCode *int
	Stdout   string
	Stderr   string
	// Err is a spawn or wait error; TimedOut and Cancelled say why it ended.
	Err       error
	TimedOut  bool
	Cancelled bool
	// Timeout is the handler's timeout, for the error text.
	Timeout time.Duration
	// StdoutDropped and StderrDropped count bytes past the capture cap.
	StdoutDropped int64
	StderrDropped int64
	Duration      time.Duration
	// StdoutSpilled and StderrSpilled name the spill files that hold the
	// whole stream when it passed the capture cap.
	StdoutSpilled string
	StderrSpilled string
}

// Outcome is one handler's result as read by its event's rules.
type Outcome struct {
	Hook   *Hook
	Status Status
	// Error says in one line why the handler failed.
	Error string
	Raw   RawResult
	// Block: the handler blocked/denied; Reason is the block reason, deny
	// message or continuation prompt fragment.
	Block  bool
	Reason string
	// Stop: continue:false; StopReason is its stopReason.
	Stop       bool
	StopReason string
	// Feedback replaces a tool result for the model (PostToolUse).
	Feedback string
	// Contexts are additionalContext texts; SystemMessage a user-visible warning.
	Contexts      []string
	SystemMessage string
	// UpdatedInput is a rewritten tool input (PreToolUse allow).
	UpdatedInput json.RawMessage
	// Permission is "allow" or "deny" (PermissionRequest), or a profile's
	// PreToolUse permission decision ("allow", "deny", "ask", "defer").
	Permission string
	// Output holds event-specific fields a profile passes to the host as
	// they are (Claude Code's sessionTitle, watchPaths, updatedToolOutput...),
	// by field name. Nil in the codex profile.
	Output map[string]json.RawMessage
	// Finished orders completion: a higher number finished later.
	Finished int
	// Metadata and Logs are the handler's own "metadata" object and "logs"
	// array, passed on to the host for its event log (Soong's output).
	Metadata json.RawMessage
	Logs     json.RawMessage
}

// Decisions in Result.Decision.
const (
	DecisionNone  = "none"
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionBlock = "block"
	DecisionAsk   = "ask"
	// DecisionDefer leaves the decision to the host's own non-interactive
	// rule (Claude Code's PreToolUse "defer").
	DecisionDefer = "defer"
)

// Result is the combined outcome of one event, in the shape hooks/run returns.
type Result struct {
	Event        string          `json:"event"`
	Decision     string          `json:"decision"`
	Reason       string          `json:"reason,omitempty"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Permission   *Permission     `json:"permission,omitempty"`
	Continue     bool            `json:"continue"`
	StopReason   string          `json:"stopReason,omitempty"`
	Feedback     string          `json:"feedback,omitempty"`
	Continuation string          `json:"continuation,omitempty"`
	// ContinuationParts are the fragments Continuation joins, one per
	// blocking handler in configuration order, with the hook run id the
	// host names them by (profiles with a HookRunID: Codex wraps each in
	// <hook_prompt hook_run_id="...">).
	ContinuationParts []ContinuationPart `json:"continuationParts,omitempty"`
	AdditionalContext []ContextEntry     `json:"additionalContext,omitempty"`
	SystemMessages    []Message          `json:"systemMessages,omitempty"`
	Hooks             []HookRun          `json:"hooks"`
	Skipped           []Skip             `json:"skipped"`
	// RunID names this run in hooks/status notifications and async results.
	RunID string `json:"runId,omitempty"`
	// Output holds event-specific fields the profile passes through to the
	// host (see Outcome.Output); absent in the codex profile.
	Output map[string]json.RawMessage `json:"output,omitempty"`
	// LeftOut lists hooks sources that exist but did not run (an untrusted
	// project, a policy); `hookd run` fills it, hosts read the same list
	// from initialize and hooks/list.
	LeftOut []LeftOut `json:"leftOut,omitempty"`
}

// ContinuationPart is one blocking handler's continuation fragment.
type ContinuationPart struct {
	Hook  string `json:"hook"`
	RunID string `json:"runId,omitempty"`
	Text  string `json:"text"`
	hook  *Hook
}

// Permission is a PermissionRequest verdict.
type Permission struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// ContextEntry is one additionalContext text for the model.
type ContextEntry struct {
	Hook    string `json:"hook"`
	Text    string `json:"text"`
	Spilled string `json:"spilled,omitempty"`
	Bytes   int    `json:"bytes,omitempty"`
}

// Message is a text attributed to a hook.
type Message struct {
	Hook string `json:"hook"`
	Text string `json:"text"`
}

// HookRun reports one handler's run.
type HookRun struct {
	Key        string  `json:"key"`
	Status     Status  `json:"status"`
	ExitCode   *int    `json:"exitCode"`
	DurationMs int64   `json:"durationMs"`
	Error      *string `json:"error"`
	Stderr     string  `json:"stderr,omitempty"`
	Async      bool    `json:"async"`
	// RunID is the host's own id of this handler's run (profiles with a
	// HookRunID; Codex: "<event_label>:<n>:<source path>").
	RunID         string `json:"runId,omitempty"`
	StdoutDropped int64  `json:"stdoutDropped,omitempty"`
	StderrDropped int64  `json:"stderrDropped,omitempty"`
	StdoutSpilled string `json:"stdoutSpilled,omitempty"`
	StderrSpilled string `json:"stderrSpilled,omitempty"`
	// Metadata and Logs are what the handler returned in those fields, for
	// profiles whose output has them (Soong).
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Logs     json.RawMessage `json:"logs,omitempty"`
	// Scope names the agent or skill a scoped hook belongs to.
	Scope *ScopeRef `json:"scope,omitempty"`
}

// Skip names a hook that matched but did not run, and why.
type Skip struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// SkipAfterDeny is the Skip reason of the handlers a Profile.StopAtDeny run
// did not start because an earlier handler denied.
const SkipAfterDeny = "afterDeny"
