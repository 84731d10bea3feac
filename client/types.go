package client

import "encoding/json"

// The wire types of hookd's protocol (docs/protocol.md), as a
// Go host sends and receives them. They are the same shapes as
// node/protocol.d.ts. Fields hookd may leave out are omitempty or
// pointers; json.RawMessage holds values whose shape is the host's own
// (tool inputs, MCP arguments).

// JSON-RPC error codes hookd answers with.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
)

// Decisions of RunResult.Decision.
const (
	DecisionNone  = "none"
	DecisionAllow = "allow"
	DecisionDeny  = "deny"
	DecisionBlock = "block"
	DecisionAsk   = "ask"
	DecisionDefer = "defer"
)

// Statuses of HookRun.Status.
const (
	StatusSucceeded = "succeeded"
	StatusBlocked   = "blocked"
	StatusFailed    = "failed"
	StatusTimedOut  = "timedOut"
	StatusCancelled = "cancelled"
	StatusStarted   = "started"
)

// InitializeParams starts a session. Every field is optional.
type InitializeParams struct {
	// ProcessID is the host's pid: when it dies, hookd ends the session.
	ProcessID  int            `json:"processId,omitempty"`
	ClientInfo *ClientInfo    `json:"clientInfo,omitempty"`
	Profile    string         `json:"profile,omitempty"`
	Session    *SessionParams `json:"session,omitempty"`
	Config     *ConfigParams  `json:"config,omitempty"`
}

// ClientInfo names the host.
type ClientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// SessionParams fill the common fields of every hook input.
type SessionParams struct {
	ID             string `json:"id,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	TranscriptPath string `json:"transcriptPath,omitempty"`
	Model          string `json:"model,omitempty"`
	PermissionMode string `json:"permissionMode,omitempty"`
}

// ConfigParams say where hooks come from.
type ConfigParams struct {
	Home       string         `json:"home,omitempty"`
	Project    *ProjectParams `json:"project,omitempty"`
	Plugins    []PluginParams `json:"plugins,omitempty"`
	PluginDirs []string       `json:"pluginDirs,omitempty"`
	Managed    *ManagedParams `json:"managed,omitempty"`
	// Hooks are session hooks in the hooks.json "hooks" shape.
	Hooks json.RawMessage `json:"hooks,omitempty"`
	// BypassTrust runs hooks that were never reviewed, for this session;
	// nil leaves hookd serve's --bypass-trust default.
	BypassTrust *bool           `json:"bypassTrust,omitempty"`
	Features    map[string]bool `json:"features,omitempty"`
	// Record appends every hooks/run input and result to this file, one
	// JSON line each, for hookd replay.
	Record string `json:"record,omitempty"`
	// Watch reloads hooks when their files change and sends hooks/changed
	// (HooksChanged).
	Watch bool `json:"watch,omitempty"`
	// LoginEnvCache resolves a login shell's environment once per session
	// and runs login-shell hooks as $SHELL -c with it; nil leaves hookd
	// serve's --login-env-cache default (docs/performance.md).
	LoginEnvCache *bool `json:"loginEnvCache,omitempty"`
}

// ProjectParams name the project; its hooks load only when it is trusted.
// Trusted nil leaves it to the host's own record (Codex: [projects] in the
// user config.toml; Claude Code: ~/.claude.json); true or false is the
// host's answer and wins.
type ProjectParams struct {
	Root    string `json:"root,omitempty"`
	Trusted *bool  `json:"trusted,omitempty"`
}

// PluginParams name one plugin folder.
type PluginParams struct {
	Root        string `json:"root"`
	Name        string `json:"name,omitempty"`
	Marketplace string `json:"marketplace,omitempty"`
	Enabled     *bool  `json:"enabled,omitempty"`
	DataDir     string `json:"dataDir,omitempty"`
}

// ManagedParams point at managed requirements.
type ManagedParams struct {
	Requirements string `json:"requirements,omitempty"`
}

// InitializeResult describes the session hookd started.
type InitializeResult struct {
	ServerInfo      ServerInfo   `json:"serverInfo"`
	ProtocolVersion int          `json:"protocolVersion"`
	Profile         string       `json:"profile"`
	Session         SessionInfo  `json:"session"`
	Capabilities    Capabilities `json:"capabilities"`
	Hooks           Summary      `json:"hooks"`
}

// ServerInfo names hookd.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// SessionInfo is the session's id and spill folder.
type SessionInfo struct {
	ID       string `json:"id"`
	SpillDir string `json:"spillDir"`
}

// Capabilities list the profile's events and the handler types hookd runs.
type Capabilities struct {
	Events       []string `json:"events"`
	HandlerTypes []string `json:"handlerTypes"`
}

// Summary counts discovered hooks (initialize, hooks/reload, hooks/changed).
type Summary struct {
	Installed int `json:"installed"`
	Runnable  int `json:"runnable"`
	Warnings  int `json:"warnings"`
	// LeftOut lists hooks sources that exist but do not run; absent when
	// none.
	LeftOut []LeftOut `json:"leftOut,omitempty"`
}

// LeftOut is a hooks source that exists but whose hooks do not run: an
// untrusted project's files (Reason "untrustedProject"), or hooks a policy
// holds back ("managedOnly", "hooksDisabled", "disableAllHooks"). Message
// says why; Fix is the command or edit that changes it.
type LeftOut struct {
	Path    string `json:"path"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// ProjectStatus says whether the project's hooks load, and who decided:
// "host" (initialize config.project.trusted), "record" (the host's own
// record, the entry for RecordDir in Record) or "default" (untrusted).
type ProjectStatus struct {
	Root      string `json:"root"`
	Trusted   bool   `json:"trusted"`
	DecidedBy string `json:"decidedBy"`
	Record    string `json:"record,omitempty"`
	RecordDir string `json:"recordDir,omitempty"`
}

// RunParams ask hookd to run one event's hooks.
type RunParams struct {
	Event  string `json:"event"`
	TurnID string `json:"turnId,omitempty"`
	// Input holds the event's own fields (a JSON object: a map, a struct or
	// a json.RawMessage); hookd adds the common ones from the session.
	Input any `json:"input,omitempty"`
}

// RunResult is the combined outcome of one event.
type RunResult struct {
	Event    string `json:"event"`
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	// UpdatedInput (PreToolUse) is the tool input to use instead.
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	// Permission (PermissionRequest) is the verdict for the approval prompt.
	Permission *Permission `json:"permission,omitempty"`
	// Continue false means the host must stop (per event rules).
	Continue   bool   `json:"continue"`
	StopReason string `json:"stopReason,omitempty"`
	// Feedback (PostToolUse) replaces the tool result for the model.
	Feedback string `json:"feedback,omitempty"`
	// Continuation (Stop, SubagentStop) is the prompt to continue with.
	Continuation string `json:"continuation,omitempty"`
	// ContinuationParts are Continuation's fragments, one per blocking
	// handler, with the id the host wraps each in (codex:
	// <hook_prompt hook_run_id="...">).
	ContinuationParts []ContinuationPart `json:"continuationParts,omitempty"`
	AdditionalContext []ContextEntry     `json:"additionalContext,omitempty"`
	SystemMessages    []HookMessage      `json:"systemMessages,omitempty"`
	Hooks             []HookRun          `json:"hooks"`
	Skipped           []Skip             `json:"skipped"`
	// RunID names this run in hooks/status notifications and async results.
	RunID string `json:"runId,omitempty"`
	// Output holds event-specific fields a profile passes through to the
	// host (claude); absent in the codex profile.
	Output map[string]json.RawMessage `json:"output,omitempty"`
}

// Blocks reports whether the outcome denies or blocks (hookd run's exit 2).
func (r *RunResult) Blocks() bool {
	return r.Decision == DecisionDeny || r.Decision == DecisionBlock
}

// ContinuationPart is one blocking handler's continuation fragment.
type ContinuationPart struct {
	Hook  string `json:"hook"`
	RunID string `json:"runId,omitempty"`
	Text  string `json:"text"`
}

// Permission is a PermissionRequest verdict.
type Permission struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message,omitempty"`
}

// ContextEntry is a text for the model; Spilled names the file holding the
// whole text when Text is a preview.
type ContextEntry struct {
	Hook    string `json:"hook"`
	Text    string `json:"text"`
	Spilled string `json:"spilled,omitempty"`
	Bytes   int    `json:"bytes,omitempty"`
}

// HookMessage is a text for the user, from one hook.
type HookMessage struct {
	Hook string `json:"hook"`
	Text string `json:"text"`
}

// HookRun reports how one handler's run ended.
type HookRun struct {
	Key           string  `json:"key"`
	Status        string  `json:"status"`
	ExitCode      *int    `json:"exitCode"`
	DurationMs    int64   `json:"durationMs"`
	Error         *string `json:"error"`
	Stderr        string  `json:"stderr,omitempty"`
	Async         bool    `json:"async"`
	StdoutDropped int64   `json:"stdoutDropped,omitempty"`
	StderrDropped int64   `json:"stderrDropped,omitempty"`
	// StdoutSpilled and StderrSpilled name the spill file holding the whole
	// stream when it outgrew the capture cap.
	StdoutSpilled string `json:"stdoutSpilled,omitempty"`
	StderrSpilled string `json:"stderrSpilled,omitempty"`
	// Metadata and Logs are the handler's own "metadata" and "logs" output
	// fields, where the profile has them (soong).
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Logs     json.RawMessage `json:"logs,omitempty"`
	// Scope names the agent or skill of a scoped hook (scoped.go).
	Scope *RunScope `json:"scope,omitempty"`
	// RunID is the host's own id of this run (codex:
	// "<event_label>:<n>:<source path>").
	RunID string `json:"runId,omitempty"`
}

// Skip names a hook that matched but did not run.
type Skip struct {
	Key    string `json:"key"`
	Reason string `json:"reason"`
}

// ListResult is hooks/list's answer.
type ListResult struct {
	Hooks    []HookInfo `json:"hooks"`
	Warnings []Warning  `json:"warnings"`
	// Project is absent without a project layer.
	Project *ProjectStatus `json:"project,omitempty"`
	LeftOut []LeftOut      `json:"leftOut"`
}

// HookInfo describes one discovered hook.
type HookInfo struct {
	Key      string      `json:"key"`
	Event    string      `json:"event"`
	Matcher  *string     `json:"matcher"`
	Source   HookSource  `json:"source"`
	Handler  HandlerInfo `json:"handler"`
	Hash     string      `json:"hash,omitempty"`
	Trust    string      `json:"trust"`
	Enabled  bool        `json:"enabled"`
	Runnable bool        `json:"runnable"`
	Bypassed bool        `json:"bypassed,omitempty"`
	// TrustedHash is the hash recorded at the last review, when there was
	// one; it differs from Hash exactly when Trust is "modified".
	TrustedHash string `json:"trustedHash,omitempty"`
	// SkipReason says why a hook that is not runnable would be skipped.
	SkipReason string `json:"skipReason,omitempty"`
	// Scope is the agent or skill a scoped hook belongs to (scoped.go).
	Scope *HookScope `json:"scope,omitempty"`
}

// HookSource says where a hook was configured.
type HookSource struct {
	Layer  string `json:"layer"`
	Path   string `json:"path"`
	Plugin string `json:"plugin,omitempty"`
}

// HandlerInfo is a handler with defaults applied.
type HandlerInfo struct {
	Type                   string          `json:"type"`
	Command                string          `json:"command,omitempty"`
	CommandWindows         string          `json:"commandWindows,omitempty"`
	Timeout                int             `json:"timeout"`
	Async                  bool            `json:"async"`
	StatusMessage          *string         `json:"statusMessage"`
	AdditionalContextLimit *int            `json:"additionalContextLimit,omitempty"`
	Server                 string          `json:"server,omitempty"`
	Tool                   string          `json:"tool,omitempty"`
	Input                  json.RawMessage `json:"input,omitempty"`
}

// Warning is a discovery problem.
type Warning struct {
	Source  string `json:"source"`
	Message string `json:"message"`
	Event   string `json:"event,omitempty"`
	Group   *int   `json:"group,omitempty"`
	Handler *int   `json:"handler,omitempty"`
}

// TrustResult lists the hooks recorded as reviewed, with their hashes.
type TrustResult struct {
	Trusted []TrustedHook `json:"trusted"`
}

// TrustedHook is one reviewed hook.
type TrustedHook struct {
	Key  string `json:"key"`
	Hash string `json:"hash"`
}

// SetEnabledResult echoes hooks/setEnabled.
type SetEnabledResult struct {
	Key     string `json:"key"`
	Enabled bool   `json:"enabled"`
}

// AsyncResult is an async handler's result (hooks/asyncCompleted, hooks/takePending).
type AsyncResult struct {
	// RunID names the hooks/run that started the handler.
	RunID             string         `json:"runId"`
	Hook              string         `json:"hook"`
	Event             string         `json:"event"`
	AdditionalContext []ContextEntry `json:"additionalContext,omitempty"`
	SystemMessages    []HookMessage  `json:"systemMessages,omitempty"`
	Status            string         `json:"status"`
	Error             *string        `json:"error"`
	ExitCode          *int           `json:"exitCode"`
	DurationMs        int64          `json:"durationMs"`
	// Rewake (claude asyncRewake) is the text for the model's next request
	// when the handler exited 2: its stderr, else its stdout.
	Rewake string `json:"rewake,omitempty"`
}

// TakePendingResult holds the async results not delivered yet, oldest first.
type TakePendingResult struct {
	Results []AsyncResult `json:"results"`
	// Dropped counts the async results hookd dropped, oldest first, because
	// a bound was reached (docs/robustness.md) since the last TakePending.
	Dropped int `json:"dropped"`
}

// CallToolParams are hookd's mcp/callTool request: call Tool on the host's
// MCP Server with Arguments, within TimeoutMs.
type CallToolParams struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	TimeoutMs int64           `json:"timeoutMs"`
}

// CallToolResult is an MCP CallToolResult, the answer to mcp/callTool.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
}

// Content is one MCP content block (text, image, ...).
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	Data     string `json:"data,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
}

// LogMessageParams are window/logMessage's: Type 1 error, 2 warning, 3 info, 4 log.
type LogMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// StatusParams are hooks/status's: a handler with a statusMessage started or
// finished (State "started", "finished"), or any command handler waits for one
// of the running slots (State "queued"; StatusMessage may then be empty).
type StatusParams struct {
	RunID         json.RawMessage `json:"runId"`
	Hook          string          `json:"hook"`
	StatusMessage string          `json:"statusMessage"`
	State         string          `json:"state"`
}

// ExplainResult says, for one event and input, what each discovered hook
// would do (hooks/explain).
type ExplainResult struct {
	Hooks []Explanation `json:"hooks"`
	// LeftOut names sources that were not read or are held back, as in
	// ListResult.
	LeftOut []LeftOut `json:"leftOut"`
}

// Explanation is one hook in an ExplainResult: whether it would run and, if
// not, why (Reason: otherEvent, matcher, if, untrusted, modified, disabled,
// managedOnly, hooksDisabled, duplicate, or a profile's own).
type Explanation struct {
	Key            string     `json:"key"`
	Event          string     `json:"event"`
	Source         HookSource `json:"source"`
	Line           int        `json:"line,omitempty"`
	Column         int        `json:"column,omitempty"`
	Matcher        *string    `json:"matcher"`
	MatchedAgainst []string   `json:"matchedAgainst,omitempty"`
	Runs           bool       `json:"runs"`
	Reason         string     `json:"reason,omitempty"`
	Detail         string     `json:"detail,omitempty"`
	Type           string     `json:"type"`
	Command        string     `json:"command,omitempty"`
	// Scope names the agent or skill of a scoped hook (scoped.go).
	Scope *RunScope `json:"scope,omitempty"`
}

// HooksChanged is the hooks/changed notification hookd sends after it
// reloaded changed hook files by itself (ConfigParams.Watch).
type HooksChanged struct {
	Summary
	Added          []string `json:"added"`
	Removed        []string `json:"removed"`
	AwaitingReview []string `json:"awaitingReview"`
}
