package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks/evaluate"
	"github.com/hookd/hookd/hooks/proc"
)

// Session is what hookd knows about the agent session; it fills the common
// fields of every hook input.
type Session struct {
	ID             string
	Cwd            string
	TranscriptPath string
	Model          string
	PermissionMode string
	// Home is the profile's user folder as resolved for this session; New
	// fills it, for profiles whose inputs name files in it (Mind's
	// transcript path).
	Home string
}

// Options configure an Engine.
type Options struct {
	Profile  *Profile
	Session  Session
	Discover DiscoverOptions
	// BypassTrust runs enabled hooks that are not trusted, for this process only.
	BypassTrust bool
	// MaxOutput caps the bytes kept per handler stream (0: proc's default).
	MaxOutput int
	// IOGrace is how long a handler's children may hold its output pipes after
	// it exits (0: proc's default).
	IOGrace time.Duration
	Logger  *slog.Logger
	// Host calls MCP tools and receives notifications; nil for the CLI.
	Host Host
	// Evaluator answers prompt and agent hooks (model/evaluate) instead of
	// the Host: hookd run --evaluate. Nil: the Host, when it can.
	Evaluator evaluate.Evaluator
	// ToolLocations is where the host says tools run (tool name →
	// LocationClient, LocationServer, LocationServerApproval), for the
	// profile's coverage labels in List. Nil: no labels.
	ToolLocations map[string]string
	// EnvAllowlist, when not nil, names the only variables of hookd's
	// environment that hooks get, replacing the profile's EnvFilter
	// (initialize config.envAllowlist, --env-allow).
	EnvAllowlist []string
	// MaxRunning caps the command handlers running at once; more wait
	// (running.go). 0: DefaultMaxRunning.
	MaxRunning int
	// LoginEnvCache runs a login-shell profile's hooks as $SHELL -c with the
	// environment its login shell exports, resolved once per load
	// (loginenv.go).
	LoginEnvCache bool
}

// Engine discovers hooks and runs them for events. It is safe for concurrent
// use: runs proceed in parallel and Reload swaps the hook set atomically.
type Engine struct {
	opts    Options
	profile *Profile
	log     *slog.Logger
	env     []string // environment snapshot taken when the engine was built

	mu       sync.RWMutex
	hooks    []*Hook
	byEvent  map[string][]*Hook // hooks by event, in order (engine_plan.go)
	warnings []Warning
	sources  sourceReport // project trust and sources left out (project_trust.go)
	runIDs   runIDs
	// loads numbers each load as it begins; installed is the number of the
	// load whose hooks are in use (under mu). Loads overlap (the watcher,
	// hooks/reload, the reload after a trust write) and may end out of
	// order: one that began before the installed one is dropped.
	loads     atomic.Uint64
	installed uint64

	finished atomic.Int64 // completion counter for "last completed" rules
	state    State        // the profile's per-session memory (AfterCombine)
	// combineMu makes each AfterCombine one step: a rule that reads the
	// state and writes it back (a Stop cap's count) must not interleave
	// with the same rule for a run that ended at the same moment.
	combineMu sync.Mutex

	// Async handlers belong to the engine, not to the request that started
	// them (async.go).
	async asyncRunner
	slots runSlots // running.go

	kinds map[string]HandlerKind // by Handler.Type (handler.go)

	scope scopeState // skills activated, subagents running, once-only hooks spent (scope.go)

	loginEnv loginEnv // the login-environment cache (loginenv.go)
}

// ErrUnknownEvent is returned by Run for an event the profile does not know.
var ErrUnknownEvent = errors.New("unknown event")

// ParamError is a problem with the caller's arguments; Field names the field.
type ParamError struct {
	Field string
	Msg   string
}

func (e *ParamError) Error() string { return fmt.Sprintf("%s: %s", e.Field, e.Msg) }

// New builds an engine. Call Load to discover hooks.
func New(opts Options) *Engine {
	if opts.Profile == nil {
		opts.Profile = defaultProfile()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Session.Cwd == "" {
		opts.Session.Cwd, _ = os.Getwd()
	}
	opts.Session.Home = ResolveHome(opts.Profile, opts.Discover.Home)
	env := scrubEnv(os.Environ())
	switch {
	case opts.EnvAllowlist != nil:
		env = AllowEnv(env, opts.EnvAllowlist)
	case opts.Profile.EnvFilter != nil:
		env = opts.Profile.EnvFilter(env)
	}
	e := &Engine{opts: opts, profile: opts.Profile, log: opts.Logger, env: env}
	e.state.session = opts.Session
	e.runIDs.init()
	e.async.init()
	e.slots.init(opts.MaxRunning)
	e.kinds = e.handlerKinds()
	return e
}

// Close kills background handlers and waits for them to end.
func (e *Engine) Close() {
	e.async.end()
	e.endLoginEnv()
}

// Profile returns the engine's profile.
func (e *Engine) Profile() *Profile { return e.profile }

// RunIDOf is the id of the hooks/run a handler kind runs for (Result.RunID),
// or "" outside a run.
func RunIDOf(ctx context.Context) string {
	id, _ := ctx.Value(runIDKey{}).(string)
	return id
}

// Evaluator answers prompt and agent hooks: Options.Evaluator when set,
// else the Host when it can (hookd serve), else nil.
func (e *Engine) Evaluator() evaluate.Evaluator {
	if e.opts.Evaluator != nil {
		return e.opts.Evaluator
	}
	if ev, ok := e.opts.Host.(evaluate.Evaluator); ok {
		return ev
	}
	return nil
}

// State is the profile's per-session memory (what discovery's Settings
// and AfterCombine keep), for the handler kinds a profile adds.
func (e *Engine) State() *State { return &e.state }

// Session returns the session the engine fills inputs from.
func (e *Engine) Session() Session { return e.opts.Session }

// Home is the profile's home folder for this engine (--home, else the
// profile's default), "" when there is none.
func (e *Engine) Home() string { return ResolveHome(e.profile, e.opts.Discover.Home) }

// Summary counts discovered hooks.
type Summary struct {
	Installed int `json:"installed"`
	Runnable  int `json:"runnable"`
	Warnings  int `json:"warnings"`
	// LeftOut: see Discovery. Absent when nothing was left out; hooks/list
	// also says whether the project is trusted and who decided.
	LeftOut []LeftOut `json:"leftOut,omitempty"`
}

// Load discovers hooks again and replaces the engine's hook set. When
// required managed hooks fail to load it keeps the current set and logs the
// error; callers that must refuse to start use LoadChecked.
func (e *Engine) Load() Summary {
	sum, err := e.LoadChecked()
	if err != nil {
		e.log.Error("hooks not reloaded", "err", err)
	}
	return sum
}

func (e *Engine) summary(hooks []*Hook, warnings []Warning) Summary {
	s := Summary{Installed: len(hooks), Warnings: len(warnings)}
	_, s.LeftOut = e.Sources()
	for _, h := range hooks {
		if e.skipReason(h) == "" {
			s.Runnable++
		}
	}
	return s
}

// Summary counts the current hook set.
func (e *Engine) Summary() Summary {
	hooks, warnings := e.snapshot()
	return e.summary(hooks, warnings)
}

func (e *Engine) snapshot() ([]*Hook, []Warning) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.hooks, e.warnings
}

// HookInfo is one hook as hooks/list shows it.
type HookInfo struct {
	Key      string  `json:"key"`
	Event    string  `json:"event"`
	Matcher  *string `json:"matcher"`
	Source   Source  `json:"source"`
	Handler  Handler `json:"handler"`
	Hash     string  `json:"hash,omitempty"`
	Trust    string  `json:"trust"`
	Enabled  bool    `json:"enabled"`
	Runnable bool    `json:"runnable"`
	// Bypassed is true when the hook runs only because trust is bypassed.
	Bypassed bool `json:"bypassed,omitempty"`
	// TrustedHash is the hash recorded at the last review, when there was one.
	TrustedHash string `json:"trustedHash,omitempty"`
	// SkipReason says why a hook that is not runnable would be skipped.
	SkipReason string `json:"skipReason,omitempty"`
	// Coverage is the profile's label for how much of its tools the hook
	// sees, when the host declared where tools run (Profile.Coverage).
	Coverage string `json:"coverage,omitempty"`
	// Scope is the agent or skill a scoped hook belongs to (scope.go).
	Scope *ScopeInfo `json:"scope,omitempty"`
	// matcher is the hook's matcher as the host applies it.
	matcher Matcher
}

// CompiledMatcher is the hook's matcher as its host applies it (nil when
// the hook has none): a profile may compile a group's matcher by the form
// of its file (Copilot CLI's camelCase and PascalCase hooks).
func (i HookInfo) CompiledMatcher() Matcher { return i.matcher }

// Warnings are the discovery warnings of the hooks loaded (never nil):
// what List gives with them, without listing, and so without hashing,
// every hook.
func (e *Engine) Warnings() []Warning {
	_, warnings := e.snapshot()
	if warnings == nil {
		warnings = []Warning{}
	}
	return warnings
}

// List returns the hooks of one event (all when event is ""), in display
// order, and the discovery warnings.
func (e *Engine) List(event string) ([]HookInfo, []Warning) {
	hooks, warnings := e.snapshot()
	out := []HookInfo{}
	for _, h := range hooks {
		if event != "" && h.Event != event {
			continue
		}
		info := HookInfo{Key: h.Key, Event: h.Event, Source: h.Source, Handler: h.Handler,
			Hash: h.Hash(), Trust: h.Trust, Enabled: h.Enabled, Runnable: e.skipReason(h) == "",
			TrustedHash: h.TrustedHash, SkipReason: e.skipReason(h), Scope: e.scopeInfo(h), matcher: h.CompiledMatcher()}
		if h.HasMatcher {
			m := h.Matcher
			info.Matcher = &m
		}
		info.Bypassed = info.Runnable && e.opts.BypassTrust && !trusted(h)
		if e.profile.Coverage != nil && len(e.opts.ToolLocations) > 0 {
			info.Coverage = e.profile.Coverage(e.profile, h, e.opts.ToolLocations)
		}
		out = append(out, info)
	}
	if warnings == nil {
		warnings = []Warning{}
	}
	return out, warnings
}

func trusted(h *Hook) bool { return h.Trust == TrustManaged || h.Trust == TrustTrusted }

// skipReason says why a hook would not run, or "" when it runs.
func (e *Engine) skipReason(h *Hook) string {
	switch {
	case h.Policy != "":
		return h.Policy
	case !h.Enabled:
		return "disabled"
	case trusted(h) || e.opts.BypassTrust || !e.profile.Trust:
		return ""
	case h.Trust == TrustModified:
		return "modified"
	default:
		return "untrusted"
	}
}

// Run runs the hooks that match one event and combines their results. input
// holds the event's own fields (a JSON object); turnID fills turn_id. It
// returns ctx's error when ctx ends before the handlers finish (their processes
// are killed).
func (e *Engine) Run(ctx context.Context, event string, input []byte, turnID string) (*Result, error) {
	p, err := e.plan(event, input, turnID, false)
	if err != nil {
		return nil, err
	}
	defer e.endScope(p.ev, p.scope)
	return e.runPlan(ctx, p)
}

// runPlan runs the handlers p selected and combines their results.
func (e *Engine) runPlan(ctx context.Context, p *plan) (*Result, error) {
	if len(p.run) == 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return e.finishIdle(p), nil
	}
	ev, run, res, runIDs := p.ev, p.run, p.res, p.hookRunIDs
	// Built once selection is done, so that the input is not needed past
	// here and a large request is not held twice while its hooks run.
	stdin := e.buildInput(ev, p.input, p.turnID)
	p.input = nil
	// Only when a handler will read it: preparing may write files (Soong's
	// artifact_ref).
	if e.profile.PrepareInput != nil {
		stdin = e.profile.PrepareInput(ev, stdin, e.opts.Session)
	}
	// A Budget bounds the event's handlers together; the request's own ctx
	// still decides whether the run was cancelled.
	hctx := ctx
	budget := ev.Budget
	if ev.BudgetFor != nil {
		budget = ev.BudgetFor(run)
	}
	if budget > 0 {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}

	outs := make([]Outcome, len(run))
	var wg sync.WaitGroup
	// in is what the next handler reads: stdin, or in a chained run what
	// the handlers before made of it (sequential.go).
	serial, in := e.serialRun(run), stdin
	for i, h := range run {
		if h.Handler.Async && !ev.ForceSync {
			outs[i] = Outcome{Hook: h, Status: StatusStarted}
			e.startAsync(res.RunID, ev, h, in)
			continue
		}
		if serial {
			outs[i] = e.runOne(hctx, res.RunID, ev, h, in)
			in = e.chainInput(ev, in, outs[i])
			if e.profile.StopAtDeny && outs[i].Block {
				for _, rest := range run[i+1:] {
					res.Skipped = append(res.Skipped, Skip{Key: rest.Key, Reason: SkipAfterDeny})
				}
				outs = outs[:i+1]
				break
			}
			continue
		}
		if len(run) == 1 {
			// Nothing to run alongside: no goroutine to hand it to.
			outs[i] = e.runOne(hctx, res.RunID, ev, h, stdin)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = e.runOne(hctx, res.RunID, ev, h, stdin)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var syncOuts []Outcome
	for _, o := range outs {
		if o.Status != StatusStarted {
			syncOuts = append(syncOuts, o)
		}
	}
	checkUpdatedInput(ev, gjson.GetBytes(stdin, "tool_name").Str, syncOuts)
	if ev.Combine != nil {
		ev.Combine(res, syncOuts)
	}
	if ev.ReadFiles != nil {
		ev.ReadFiles(e.opts.Session, res)
	}
	e.afterCombine(ev, func() []byte { return stdin }, res)
	e.spillResult(res, syncOuts)
	// Report in configuration order, with the checked sync outcomes.
	j := 0
	for _, o := range outs {
		if o.Status != StatusStarted {
			o = syncOuts[j]
			j++
		}
		hr := hookRun(o)
		e.boundStderr(&hr, o.Raw)
		hr.RunID = runIDs[o.Hook]
		res.Hooks = append(res.Hooks, hr)
	}
	for i := range res.ContinuationParts {
		res.ContinuationParts[i].RunID = runIDs[res.ContinuationParts[i].hook]
	}
	return res, nil
}

// selects reports whether h's matcher accepts the event's targets. Events
// without a match field ignore matchers.
func (e *Engine) selects(ev *EventRules, h *Hook, targets []string, input []byte) bool {
	if im, ok := h.matcher.(InputMatcher); ok {
		return im.MatchInput(input)
	}
	if ev.MatchField == "" || h.matcher == nil {
		return true
	}
	return h.matcher.Match(targets)
}

// dropped lists the hooks of all that Dedupe did not keep, as skips.
func dropped(all, kept []*Hook) []Skip {
	keep := make(map[*Hook]bool, len(kept))
	for _, h := range kept {
		keep[h] = true
	}
	var out []Skip
	for _, h := range all {
		if !keep[h] {
			out = append(out, Skip{Key: h.Key, Reason: "duplicate"})
		}
	}
	return out
}

func hookRun(o Outcome) HookRun {
	r := HookRun{Key: o.Hook.Key, Status: o.Status, ExitCode: o.Raw.ExitCode,
		DurationMs: o.Raw.Duration.Milliseconds(), Stderr: o.Raw.Stderr, Async: o.Status == StatusStarted,
		StdoutDropped: o.Raw.StdoutDropped, StderrDropped: o.Raw.StderrDropped,
		StdoutSpilled: o.Raw.StdoutSpilled, StderrSpilled: o.Raw.StderrSpilled,
		Metadata: o.Metadata, Logs: o.Logs, Scope: o.Hook.Scope.ref()}
	if r.Status == StatusStopped {
		r.Status = StatusSucceeded
	}
	if o.Error != "" {
		msg := o.Error
		r.Error = &msg
	}
	return r
}

// runOne runs one handler to completion and reads its output.
func (e *Engine) runOne(ctx context.Context, runID string, ev *EventRules, h *Hook, stdin []byte) Outcome {
	ctx = context.WithValue(ctx, runIDKey{}, runID)
	// The login environment first, within the hook's timeout and holding
	// no slot (loginenv.go); then queued (running.go), so that "started"
	// means started.
	var raw RawResult
	if lctx, waited, inTime := e.awaitLoginEnv(ctx, h); inTime {
		raw = e.runInSlot(lctx, runID, h, stdin)
	} else {
		raw = RawResult{TimedOut: true, Timeout: h.Handler.Limit(), Duration: waited}
	}
	var o Outcome
	if ev.Parse != nil {
		o = ev.Parse(raw, false)
	} else {
		o = Outcome{Status: StatusSucceeded}
	}
	o.Hook, o.Raw = h, raw
	o.Finished = int(e.finished.Add(1))
	return o
}

// runInSlot runs the handler once it has a running slot.
func (e *Engine) runInSlot(ctx context.Context, runID string, h *Hook, stdin []byte) RawResult {
	release, ok := e.acquireSlot(ctx, h)
	if !ok {
		return RawResult{Cancelled: true, Timeout: time.Duration(h.Handler.Timeout) * time.Second}
	}
	e.reportStatus(runID, h, StateStarted)
	raw := e.execute(context.WithValue(ctx, slotHeldKey{}, true), h, stdin)
	release()
	e.reportStatus(runID, h, StateFinished)
	return raw
}

// execute runs the handler by its kind (handler.go).
func (e *Engine) execute(ctx context.Context, h *Hook, stdin []byte) RawResult {
	if h.Scope != nil && h.Scope.Fail != "" {
		return RawResult{Err: errors.New(h.Scope.Fail), Timeout: time.Duration(h.Handler.Timeout) * time.Second}
	}
	if k, ok := e.kinds[h.Handler.Type]; ok {
		return k.Run(ctx, h, stdin)
	}
	timeout := time.Duration(h.Handler.Timeout) * time.Second
	return RawResult{Err: fmt.Errorf("%s handlers are not supported by this build", h.Handler.Type), Timeout: timeout}
}

// runCommand is the command kind: the handler's process, run by package proc.
func (e *Engine) runCommand(ctx context.Context, h *Hook, stdin []byte) RawResult {
	timeout := h.Handler.Limit()
	// What the hook waited for the login environment is part of its time.
	lw, _ := ctx.Value(loginWaitKey{}).(loginWait)
	waited := lw.waited
	script := h.Handler.Command
	if runtime.GOOS == "windows" && h.Handler.CommandWindows != "" {
		script = h.Handler.CommandWindows
	}
	script, err := e.pluginScript(h, script)
	if err != nil {
		return RawResult{Err: fmt.Errorf("hook %s not run: %w", h.Key, err), Timeout: timeout}
	}
	shell, base := e.hookShell(ctx)
	env := e.hookEnv(base, h)
	dir := e.opts.Session.Cwd
	if e.profile.ProjectCwd {
		dir = e.projectDir()
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return RawResult{Err: fmt.Errorf("hook working directory %s is not a directory", dir), Timeout: timeout}
		}
	}
	if held, _ := ctx.Value(slotHeldKey{}).(bool); !held {
		release, ok := e.acquireSlot(ctx, h)
		if !ok {
			return RawResult{Cancelled: true, Timeout: timeout}
		}
		defer release()
	}
	if e.profile.StdinNewline {
		stdin = append(stdin[:len(stdin):len(stdin)], '\n')
	}
	over := e.newOverflow()
	r := proc.Run(ctx, proc.Command{
		Shell:     shell,
		Script:    script,
		Dir:       dir,
		Env:       env,
		Stdin:     stdin,
		Timeout:   remaining(timeout, waited),
		KillGrace: e.profile.KillGrace,
		MaxOutput: e.opts.MaxOutput,
		IOGrace:   e.opts.IOGrace,
		Overflow:  over.write,
	})
	// The captured buffers belong to this result alone and nothing writes
	// them again: the strings share them rather than copy up to MaxOutput
	// (4 MiB by default) of each stream.
	raw := RawResult{Stdout: view(r.Stdout), Stderr: view(r.Stderr), Err: r.Err,
		TimedOut: r.TimedOut, Cancelled: r.Cancelled, Timeout: timeout,
		StdoutDropped: r.StdoutDropped, StderrDropped: r.StderrDropped, Duration: waited + r.Duration}
	if r.Exited {
		code := r.ExitCode
		raw.ExitCode = &code
	}
	over.finish(&raw)
	return raw
}

// scrubbed are removed from the hook environment, as Codex does: they are the
// agent's own credentials, not the hook's.
var scrubbed = []string{"CODEX_EXEC_SERVER_NOISE_AUTH_TOKEN", "NODE_REPL_AUTH_TOKEN",
	"OPENAI_FEDERATION_RULE_ID", "OPENAI_IDENTITY_TOKEN_FILE", "OPENAI_WORKLOAD_IDENTITY_CONTEXT"}

func scrubEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, s := range scrubbed {
			if strings.EqualFold(name, s) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// buildInput writes the stdin JSON: the event's fields in the host's order,
// taken from the request's input or else from the session, then any other
// input fields as given, each where the host put it among the event's
// fields (Claude Code's prompt_id, effort...). hook_event_name is always the
// event.
func (e *Engine) buildInput(ev *EventRules, input []byte, turnID string) []byte {
	in := gjson.Parse(view(input))
	s := e.opts.Session
	buf := make([]byte, 0, len(input)+256)
	buf = append(buf, '{')
	// Strings are appended without HTML escaping (MarshalStdin), as the
	// hosts write them. Raw values are appended from the input as strings:
	// no copy of a large field is made on the way.
	add := func(k, raw string) {
		if len(buf) > 1 {
			buf = append(buf, ',')
		}
		buf = AppendJSONString(buf, k)
		buf = append(buf, ':')
		buf = append(buf, raw...)
	}
	addStr := func(k, v string) {
		add(k, "")
		buf = AppendJSONString(buf, v)
	}
	// The input's members in order, to place the other fields; the first
	// of duplicate names wins.
	var members []gjson.Result
	in.ForEach(func(k, v gjson.Result) bool {
		members = append(members, k, v)
		return true
	})
	var seen map[string]bool // made by the first extra field
	next := 0
	extrasUpTo := func(end int) {
		for ; next < end; next += 2 {
			k := members[next].Str
			if !slices.Contains(ev.InputFields, k) && !seen[k] {
				if seen == nil {
					seen = map[string]bool{}
				}
				seen[k] = true
				add(k, compactRaw(members[next+1]))
			}
		}
	}
	at := func(f string) int {
		for i := 0; i < len(members); i += 2 {
			if members[i].Str == f {
				return i
			}
		}
		return -1
	}
	for _, f := range ev.InputFields {
		i := at(f)
		if i >= next {
			extrasUpTo(i)
			next = i + 2
		}
		if f == "hook_event_name" {
			addStr(f, ev.Name)
			continue
		}
		// The first member of that name, as a lookup of it would find.
		if i >= 0 {
			v := members[i+1]
			if f == "tool_name" && v.Type == gjson.String && e.profile.CanonicalTool != nil {
				addStr(f, e.profile.CanonicalTool(v.Str))
				continue
			}
			add(f, compactRaw(v))
			continue
		}
		switch f {
		case "session_id":
			addStr(f, s.ID)
		case "cwd":
			addStr(f, s.Cwd)
		case "transcript_path":
			if s.TranscriptPath == "" {
				add(f, "null")
			} else {
				addStr(f, s.TranscriptPath)
			}
		case "model":
			if s.Model != "" {
				addStr(f, s.Model)
			}
		case "permission_mode":
			pm := s.PermissionMode
			if pm == "" {
				pm = "default"
			}
			addStr(f, pm)
		case "turn_id":
			if turnID != "" {
				addStr(f, turnID)
			}
		case "last_assistant_message":
			add(f, "null")
		case "stop_hook_active":
			add(f, "false")
		}
	}
	extrasUpTo(len(members))
	return append(buf, '}')
}

// compactRaw is a value of the host's input as one line of compact JSON,
// keys in the host's order and string contents byte for byte (no escaping
// of <, > or &): hooks that read one line of stdin work whatever
// formatting the host sent, as under Codex.
func compactRaw(v gjson.Result) string {
	if v.IsObject() || v.IsArray() {
		return v.Get("@ugly").Raw
	}
	return v.Raw
}

// checkUpdatedInput fails PreToolUse rewrites whose shape the tool cannot take:
// shell and apply_patch inputs must be objects with a string command.
func checkUpdatedInput(ev *EventRules, tool string, outs []Outcome) {
	if ev.Name != "PreToolUse" || (tool != "Bash" && tool != "apply_patch") {
		return
	}
	for i := range outs {
		o := &outs[i]
		if o.UpdatedInput == nil {
			continue
		}
		if gjson.GetBytes(o.UpdatedInput, "command").Type != gjson.String || !gjson.ParseBytes(o.UpdatedInput).IsObject() {
			o.Status = StatusFailed
			o.Error = fmt.Sprintf("hook returned invalid pre-tool-use JSON output: updatedInput for %s must be an object with a string \"command\"", tool)
			o.UpdatedInput = nil
		}
	}
}

// afterCombine runs the profile's AfterCombine, one run at a time; input
// gives the event's stdin JSON (built only when there is a rule to read it).
func (e *Engine) afterCombine(ev *EventRules, input func() []byte, res *Result) {
	if e.profile.AfterCombine == nil {
		return
	}
	in := input()
	e.combineMu.Lock()
	defer e.combineMu.Unlock()
	e.profile.AfterCombine(&e.state, ev, in, res)
}
