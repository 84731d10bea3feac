package rpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/proc"
)

// JSON-RPC error codes hookd answers with, beyond the library's.
const (
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
	// CodeServerBusy refuses a request that would take the bytes held by
	// requests in flight past Options.MaxInFlightBytes.
	CodeServerBusy = -32001
)

// Log message types of window/logMessage.
const (
	LogError   = 1
	LogWarning = 2
	LogInfo    = 3
	LogLog     = 4
)

// Options configure Serve. The engine defaults (profile, home, bypass) come from
// the command line and may be overridden by initialize.
type Options struct {
	Framing         Framing
	MaxMessageBytes int64
	// MaxInFlightBytes caps the params bytes held by requests in flight
	// together; DefaultMaxInFlightBytes when 0 (or negative). A request
	// alone is never refused by it, only one that joins others.
	MaxInFlightBytes int64
	// MaxRunningHooks caps the command hooks running at once; more wait
	// their turn. 0: hooks.DefaultMaxRunning.
	MaxRunningHooks int
	Profile         string
	Home            string
	BypassTrust     bool
	Version         string
	Logger          *slog.Logger
	// Stop ends the session like the exit notification when it is done
	// (hookd serve cancels it on SIGTERM and SIGINT). Nil: never.
	Stop context.Context
	// Record names a file every hooks/run input and result is appended to,
	// one JSON line each (hookd serve --record); initialize's config.record
	// replaces it. "": none.
	Record string
	// WriteTimeout bounds the write of one message to the host: a host that
	// takes nothing from stdout for that long has stopped reading, and the
	// session ends as if it had died. 0: no bound (docs/robustness.md).
	WriteTimeout time.Duration
	// LoginEnvCache is the default of initialize's config.loginEnvCache
	// (hookd serve --login-env-cache).
	LoginEnvCache bool
	// Started is called once, after the session's first reply is written
	// (initialize's, normally) or when Serve returns without one: hookd
	// serve runs its start as one burst of work, as a load runs
	// (hooks.PauseGC), and this ends it. May be nil.
	Started func()

	// load replaces the engine's first load (initialize) in tests: one
	// that takes as long as the test wants.
	load func(*hooks.Engine) (hooks.Summary, error)
}

// DefaultMaxInFlightBytes is Options.MaxInFlightBytes when it is not
// positive: four messages of the default maximum size.
const DefaultMaxInFlightBytes = 4 * DefaultMaxMessageBytes

// The bounds of an ending session (exit, a signal, stdin EOF with
// onStdinClose "cancel", the host's death). Handlers are killed at once: each
// hook gets SIGTERM, then SIGKILL the profile's kill grace later. Their
// -32800 replies must still reach the host, so the writer gives up only once
// every kill has had its grace, its reaping and a write grace of its own:
// exitBound of the profile's kill grace. A request still unanswered then (or
// a reply the host did not read) is logged, never lost silently, and the
// session ends anyway. docs/failure-modes.md lists the figures per profile.
const (
	// exitReapGrace is how long a handler may take, after its SIGKILL, to be
	// reaped and to return its reply.
	exitReapGrace = time.Second
	// exitWriteGrace is how long the last replies may wait for a host that
	// is slow to read them; a host that stopped reading stdout cannot keep
	// hookd alive past it.
	exitWriteGrace = 2 * time.Second
)

// startGrace is how long an exit or an end of input read while an
// initialize loads waits for it (and, for exit, for the requests ordered
// behind it: a pipelined shutdown still makes the exit code 0) before it
// cancels it. A load reads only regular files, each bounded: it takes
// milliseconds, a large plugin tree on a slow disk a second or so.
const startGrace = 3 * time.Second

// exitBound is how long an ending session waits for its handlers' replies
// under a profile whose kill grace is killGrace.
func exitBound(killGrace time.Duration) time.Duration {
	return max(killGrace, 0) + exitReapGrace + exitWriteGrace
}

// MaxExitBound is the longest an ending session can take under any profile
// registered (exitBound, then the end-of-session work's reaping): hookd
// serve's bound after a signal must be longer.
func MaxExitBound() time.Duration {
	longest := time.Duration(0)
	for _, name := range hooks.ProfileNames() {
		if p, ok := hooks.LookupProfile(name); ok {
			longest = max(longest, p.KillGrace)
		}
	}
	return exitBound(longest) + exitReapGrace
}

// A method is one entry of the dispatch table.
type method struct {
	// handle runs the request; params is never nil (absent params are "{}").
	handle func(ctx context.Context, s *Server, params []byte) (any, error)
	// inline methods change server state without reading a file or waiting:
	// they run on the reader goroutine, in wire order. The others run
	// concurrently.
	inline bool
	// serial methods change state too but read files or may wait (a load of
	// the hooks, another process's lock on config.toml): they run in wire
	// order with the inline ones, on a goroutine of their own, so that the
	// reader goes on reading $/cancelRequest, exit and answers to hookd's
	// calls meanwhile. Requests read after one are routed and start only
	// when it has finished (see Handle).
	serial bool
	// quick, when set, may answer a concurrent method on the reader
	// goroutine when it can do so without blocking (hooks/run with no
	// handler to run; quick.go). ok false: handle runs as usual.
	quick func(s *Server, params []byte) (result any, ok bool, err error)
}

// methods is the dispatch table. Each method lives in its own file.
var methods = map[string]method{}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateReady
	stateShutdown
)

// Server is one hookd session over a JSON-RPC connection.
type Server struct {
	opts    Options
	log     *slog.Logger
	stream  *Stream
	started sync.Once
	// workers run the requests that do not run on the reader.
	workers workers

	// base is the parent of every request context; cancelling it kills every
	// running handler (exit, parent death).
	base       context.Context
	cancelBase context.CancelFunc

	mu      sync.Mutex
	state   lifecycle
	engine  *hooks.Engine
	record  *recorder
	cancels map[jsonrpc2.ID]context.CancelFunc
	// ordered is closed when the last serial method (and any state-changing
	// request queued behind it) has finished; only the reader replaces it.
	ordered chan struct{}
	// starting is closed when the last initialize read has finished (its
	// reply and load warnings written); only the reader replaces it.
	starting chan struct{}
	// routed is closed once the last request read while an ordered one ran
	// has been routed: requests are routed in wire order, so none is
	// checked against a state a request read after it has made (a
	// shutdown pipelined behind a hooks/run that waits for an initialize).
	// Only the reader replaces it.
	routed chan struct{}

	// inflight counts requests not yet answered. exiting is set (under mu)
	// before exit waits for it, so no request joins after the wait began.
	inflight sync.WaitGroup
	exiting  bool
	// leaving: an exit was read and waits for an initialize (exit's
	// notification); requests read after it are refused as when exiting.
	leaving bool
	// held is the bytes of params held by requests in flight; a request that
	// would take it past maxHeld is refused with CodeServerBusy.
	held     int64
	maxHeld  int64
	exitOnce sync.Once
	exitCode int
	done     chan struct{}

	// conn is the connection, for calls to the host (host.go); inputClosed
	// ends when stdin does, since no answer can arrive after that.
	conn    atomic.Pointer[jsonrpc2.Conn]
	callSeq atomic.Uint64
	// canEvaluate is the host's capabilities.evaluate (model/evaluate).
	canEvaluate atomic.Bool
	inputClosed context.Context
	closeInput  context.CancelFunc
	// cancelAtEOF: initialize said onStdinClose "cancel".
	cancelAtEOF atomic.Bool
}

// Serve runs hookd's JSON-RPC server over r and w until exit, stdin EOF, the
// death of the host process or opts.Stop, and returns the process exit code: 0 after
// shutdown, 1 otherwise.
func Serve(r io.Reader, w io.Writer, closer io.Closer, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	} else {
		// The hook watchdog's trouble goes to the session's log.
		proc.SetLogger(opts.Logger)
	}
	s := &Server{opts: opts, log: opts.Logger, cancels: map[jsonrpc2.ID]context.CancelFunc{}, done: make(chan struct{}),
		ordered: closedChan(), starting: closedChan(), routed: closedChan()}
	s.base, s.cancelBase = context.WithCancel(context.Background())
	s.inputClosed, s.closeInput = context.WithCancel(context.Background())
	s.stream = NewStream(r, w, closer, StreamOptions{
		Framing:         opts.Framing,
		MaxMessageBytes: opts.MaxMessageBytes,
		Log:             s.logMessage,
		// Replies to requests still running at EOF are written before the
		// connection closes: a host may pipe a request file and close stdin.
		// Calls to the host fail at once: their answers can no longer come.
		// A host that said onStdinClose "cancel" has them killed instead.
		BeforeEOF: func() {
			s.closeInput()
			// An initialize still loading says what the end of input does
			// (onStdinClose) and is not itself a request to cancel: it is
			// waited for, at most startGrace.
			waitClosed(s.starting, startGrace)
			if s.cancelAtEOF.Load() {
				// Each request, not s.base: the connection lives on it, and
				// the cancelled replies must still go out.
				s.mu.Lock()
				for _, cancel := range s.cancels {
					cancel()
				}
				s.mu.Unlock()
			}
			s.inflight.Wait()
		},
		WriteTimeout: opts.WriteTimeout,
		OnWriteStuck: func() {
			s.log.Error("the host has not read stdout for the write timeout: ending the session", "timeout", opts.WriteTimeout)
			s.exit(1)
		},
		// No reply can reach a host that closed stdout: the session ends
		// at once rather than run hooks whose replies all fail.
		OnWriteFailed: func(err error) {
			s.log.Error("cannot write to stdout (the host closed it?): ending the session", "err", err)
			s.stream.Abandon()
			s.exit(1)
		},
		DetachParams: true,
	})
	s.maxHeld = opts.MaxInFlightBytes
	if s.maxHeld <= 0 {
		s.maxHeld = DefaultMaxInFlightBytes
	}
	// The connection's context is not base: cancelling base (exit, a signal,
	// the host's death) kills the handlers, whose -32800 replies must still
	// be written. The connection closes only once they are (below).
	conn := jsonrpc2.NewConn(context.Background(), s.stream, s, jsonrpc2.SetLogger(slogPrintf{s.log}))
	var stop <-chan struct{}
	if opts.Stop != nil {
		stop = opts.Stop.Done()
	}
	select {
	case <-conn.DisconnectNotify():
		s.exit(s.shutdownCode())
	case <-stop:
		s.log.Warn("stopped by a signal: ending the session")
		s.exit(s.shutdownCode())
	case <-s.done:
	}
	// exit may have been called by the reader; wait for its cleanup.
	<-s.done
	s.stream.Abandon()
	conn.Close()
	s.start()
	s.workers.close()
	return s.exitCode
}

func (s *Server) shutdownCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutdown {
		return 0
	}
	return 1
}

// exit kills every running handler, waits for their replies (at most
// exitBound of the profile's kill grace) and ends Serve with code. Only the
// first call counts. It never blocks its caller, which may be the reader.
func (s *Server) exit(code int) {
	s.exitOnce.Do(func() {
		s.exitCode = code
		s.mu.Lock()
		s.exiting = true
		e := s.engine
		s.mu.Unlock()
		s.cancelBase()
		grace := time.Duration(0)
		if e != nil {
			grace = e.Profile().KillGrace
			// Async handlers are killed alongside the requests', not after.
			go s.endSession(e)
		}
		bound := exitBound(grace)
		// Replies to the handlers just killed get their chance; a host that
		// does not read them does not hold the exit up.
		abandon := time.AfterFunc(bound, s.stream.Abandon)
		finished := make(chan struct{})
		go func() {
			s.inflight.Wait()
			if e != nil {
				s.endSession(e)
				e.Close()
			}
			close(finished)
		}()
		go func() {
			defer abandon.Stop()
			deadline := time.NewTimer(bound + exitReapGrace)
			defer deadline.Stop()
			select {
			case <-finished:
			case <-deadline.C:
				s.mu.Lock()
				ids := make([]string, 0, len(s.cancels))
				for id := range s.cancels {
					ids = append(ids, idString(id))
				}
				s.mu.Unlock()
				s.log.Error("reply lost: hookd is ending and these requests have not finished within the bound", "ids", strings.Join(ids, ","), "bound", bound)
			}
			close(s.done)
		}()
	})
}

// Handle implements jsonrpc2.Handler. It runs on the connection's reader
// goroutine, so it never blocks on slow work: only inline methods (and quick
// answers) run here, and only when no ordered request is running.
func (s *Server) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	s.conn.CompareAndSwap(nil, conn)
	// The stream keeps the host's own bytes: the library never sees params
	// (StreamOptions.DetachParams), so it holds no second copy of them, and
	// hooks never see its re-encoding (sorted keys, \u0026 for &).
	params := s.stream.Params()
	if params == nil && req.Params != nil {
		params = *req.Params
	}
	if req.Notif {
		s.handleNotification(req, params)
		return
	}
	if params == nil || string(params) == "null" {
		params = []byte("{}")
	}
	size := int64(len(params))
	s.mu.Lock()
	var refuse error
	exiting := s.exiting
	switch {
	case exiting || s.leaving:
		refuse = &jsonrpc2.Error{Code: CodeRequestCancelled, Message: "request cancelled: hookd is exiting"}
	case s.cancels[req.ID] != nil:
		// Two requests with one id could not be told apart in the replies,
		// nor by $/cancelRequest: the second is refused, the first runs on.
		refuse = &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: fmt.Sprintf("invalid request: a request with id %s is still in flight; ids must be unique among requests in flight", idString(req.ID))}
	case s.held > 0 && s.held+size > s.maxHeld:
		refuse = &jsonrpc2.Error{Code: CodeServerBusy, Message: fmt.Sprintf("server busy: this request's %d bytes of params with the %d bytes held by requests in flight exceed the %d byte cap (--max-inflight-bytes); send it again once replies arrive", size, s.held, s.maxHeld)}
	default:
		s.held += size
	}
	if !exiting {
		s.inflight.Add(1)
	}
	s.mu.Unlock()
	if refuse != nil {
		s.refuse(conn, req, refuse, exiting)
		return
	}
	release := func() {
		s.mu.Lock()
		s.held -= size
		s.mu.Unlock()
	}
	// While an ordered method (initialize, a state write) runs, every later
	// request waits for it, and the ordered ones queue up behind it in wire
	// order: the order is that of the wire, as if the reader had run them,
	// without the reader waiting. Whether the session accepts a request
	// waiting so depends on how the ones before it end (an initialize that
	// fails leaves the session uninitialized, a shutdown ends it): it is
	// routed once they have, on its own goroutine.
	prev := s.ordered
	if !isClosed(prev) || !isClosed(s.routed) {
		s.spawn(conn, req, methods[req.Method], params, size, prev, true)
		return
	}
	m, err := s.route(req)
	if err != nil {
		release()
		s.reply(conn, req, nil, err)
		s.inflight.Done()
		return
	}
	if m.inline {
		s.call(s.base, conn, req, m, params, release)
		return
	}
	if m.quick != nil && s.quickCall(conn, req, m, params, release) {
		return
	}
	s.spawn(conn, req, m, params, size, prev, false)
}

// spawn runs req on a worker goroutine (workers) once the ordered request before
// it (prev) has finished; an ordered method becomes the one the requests
// read after it wait for. routeLater: req was read while prev ran, and is
// routed once it has (Handle). It runs on the reader.
func (s *Server) spawn(conn *jsonrpc2.Conn, req *jsonrpc2.Request, m method, params []byte, size int64, prev chan struct{}, routeLater bool) {
	var done chan struct{}
	if m.inline || m.serial {
		done = make(chan struct{})
		s.ordered = done
		if req.Method == "initialize" {
			s.starting = done
		}
	}
	// A request routed later is routed after the ones read before it.
	prevRouted := s.routed
	var routed chan struct{}
	if routeLater {
		routed = make(chan struct{})
		s.routed = routed
	}
	rctx, cancel := context.WithCancel(s.base)
	s.mu.Lock()
	s.cancels[req.ID] = cancel
	s.mu.Unlock()
	s.workers.run(func() {
		defer func() {
			cancel()
			if done != nil {
				close(done)
			}
		}()
		// Nothing here keeps params once the method is done with them
		// (hooks/run keeps only its input until the hooks have it).
		p := params
		params = nil
		<-prev
		// The id is free again before the reply goes out: a host may reuse
		// it as soon as it has the answer.
		free := func() {
			s.mu.Lock()
			delete(s.cancels, req.ID)
			s.held -= size
			s.mu.Unlock()
		}
		if routeLater {
			<-prevRouted
			var err error
			m, err = s.route(req)
			close(routed)
			if err != nil {
				free()
				s.reply(conn, req, nil, err)
				s.inflight.Done()
				return
			}
		}
		s.call(rctx, conn, req, m, p, free)
	})
}

// refuse answers a request that is not run. While an initialize runs, the
// refusal waits for its reply, like the answers to every request read
// meanwhile, so that the reply to initialize is the first message a host
// reads; a session that is exiting answers at once. Unless exiting, the
// request counts as in flight until the refusal is written.
func (s *Server) refuse(conn *jsonrpc2.Conn, req *jsonrpc2.Request, err error, exiting bool) {
	prev := s.starting
	if exiting || isClosed(prev) {
		s.reply(conn, req, nil, err)
		if !exiting {
			s.inflight.Done()
		}
		return
	}
	go func() {
		<-prev
		s.reply(conn, req, nil, err)
		s.inflight.Done()
	}()
}

// idString is an id as the host wrote it, for messages.
func idString(id jsonrpc2.ID) string {
	if id.IsString && strings.HasPrefix(id.Str, idPrefix) {
		return id.Str[len(idPrefix):]
	}
	b, err := json.Marshal(id)
	if err != nil {
		return id.String()
	}
	return string(b)
}

func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// waitClosed waits for c to close, at most d; it reports whether c closed.
func waitClosed(c chan struct{}, d time.Duration) bool {
	if isClosed(c) {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// route checks the lifecycle and finds the method.
func (s *Server) route(req *jsonrpc2.Request) (method, error) {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case state == stateNew && req.Method != "initialize":
		return method{}, &jsonrpc2.Error{Code: CodeServerNotInitialized, Message: "server not initialized: send initialize first"}
	case state == stateShutdown:
		return method{}, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: "server is shut down: only the exit notification is accepted"}
	}
	m, ok := methods[req.Method]
	if !ok {
		return method{}, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: fmt.Sprintf("method not found: %s", req.Method)}
	}
	return m, nil
}

// call runs one method and replies exactly once, whatever happens in it;
// done runs just before the reply is written. What the method gave onEnd
// runs after the reply, on every end of the request: success, error,
// cancellation or panic.
func (s *Server) call(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, m method, params []byte, done func()) {
	defer s.inflight.Done()
	ends := &requestEnds{}
	defer ends.run(s, req.Method)
	ctx = context.WithValue(ctx, requestEndsKey{}, ends)
	var (
		result any
		err    error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic in handler", "method", req.Method, "panic", p, "stack", string(debug.Stack()))
				err = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", req.Method, p)}
			}
		}()
		result, err = m.handle(ctx, s, params)
	}()
	if ctx.Err() != nil && err == nil && !ends.committed.Load() || errors.Is(err, context.Canceled) {
		err = &jsonrpc2.Error{Code: CodeRequestCancelled, Message: "request cancelled"}
	}
	done()
	s.reply(conn, req, result, err)
	if then, ok := result.(replyThen); ok && err == nil {
		then.after()
	}
}

// requestEnds is what a request took and must give back however it ends
// (onEnd).
type requestEnds struct {
	mu  sync.Mutex
	fns []func()
	// committed: the request made its change of state (commit), so its
	// reply is its result even when a cancel came after.
	committed atomic.Bool
}

type requestEndsKey struct{}

// onEnd has fn run once the request of ctx has ended and its reply has been
// written (or lost), whether it succeeded, failed, was cancelled or
// panicked: a resource a method takes is released here, by the request's
// own defer, never by work that only a successful reply runs. Outside a
// request (ctx without one) fn runs at once.
func onEnd(ctx context.Context, fn func()) {
	ends, _ := ctx.Value(requestEndsKey{}).(*requestEnds)
	if ends == nil {
		fn()
		return
	}
	ends.mu.Lock()
	ends.fns = append(ends.fns, fn)
	ends.mu.Unlock()
}

// commit says that the request of ctx has changed the session's state for
// good: a cancel that comes after can no longer undo it, so the reply is the
// method's result, not -32800, which would tell the host nothing changed.
func commit(ctx context.Context) {
	if ends, _ := ctx.Value(requestEndsKey{}).(*requestEnds); ends != nil {
		ends.committed.Store(true)
	}
}

// run runs the ends last in, first out, each even when one before panicked.
func (r *requestEnds) run(s *Server, method string) {
	r.mu.Lock()
	fns := r.fns
	r.fns = nil
	r.mu.Unlock()
	for i := len(fns) - 1; i >= 0; i-- {
		func() {
			defer func() {
				if p := recover(); p != nil {
					s.log.Error("panic at the end of a request", "method", method, "panic", p, "stack", string(debug.Stack()))
				}
			}()
			fns[i]()
		}()
	}
}

func (s *Server) reply(conn *jsonrpc2.Conn, req *jsonrpc2.Request, result any, err error) {
	// The reply must go out even when the request's context is cancelled.
	ctx := context.Background()
	var rerr error
	if err != nil {
		var je *jsonrpc2.Error
		if !errors.As(err, &je) {
			je = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
		}
		rerr = conn.ReplyWithError(ctx, req.ID, je)
	} else {
		rerr = conn.Reply(ctx, req.ID, result)
	}
	// Every reply lost is logged, with its request: the host never sees
	// it, and this line is all that says what became of the request.
	if rerr != nil {
		s.log.Error("reply lost: cannot write it", "method", req.Method, "id", idString(req.ID), "err", rerr)
	}
	s.start()
}

// start ends the session's start (Options.Started), once.
func (s *Server) start() {
	if s.opts.Started != nil {
		s.started.Do(s.opts.Started)
	}
}

func (s *Server) handleNotification(req *jsonrpc2.Request, params []byte) {
	switch req.Method {
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		var id jsonrpc2.ID
		err := errors.New("no params")
		if params != nil {
			if err = json.Unmarshal(params, &p); err == nil {
				// The stream may have rewritten the id; DecodeID gives the
				// key the request was registered under.
				id, err = DecodeID(p.ID)
			}
		}
		if err != nil {
			s.logMessage(LogWarning, "$/cancelRequest: params must be {\"id\": <request id>}")
			return
		}
		s.mu.Lock()
		cancel := s.cancels[id]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	case "exit":
		if isClosed(s.starting) {
			s.exit(s.shutdownCode())
			return
		}
		// Read while an initialize loads: the exit takes its place in wire
		// order, behind the initialize and the requests ordered behind it,
		// but waits at most startGrace, off the reader. A request read
		// after it is refused as during any exit.
		behind := s.ordered
		s.mu.Lock()
		s.leaving = true
		s.mu.Unlock()
		go func() {
			waitClosed(behind, startGrace)
			s.exit(s.shutdownCode())
		}()
	default:
		// initialized and unknown notifications need no answer.
	}
}

// notify sends a notification to the host.
func (s *Server) notify(method string, params any) {
	msg, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
	if err == nil {
		err = s.stream.WriteRaw(msg)
	}
	if err != nil {
		s.log.Debug("notify", "method", method, "err", err)
	}
}

// logMessage sends window/logMessage and mirrors it to the log.
func (s *Server) logMessage(typ int, message string) {
	// The host gets the message; hookd's own log (often the host's
	// inherited stderr) has it only at debug level, so it is not seen twice.
	s.log.Debug("logMessage", "type", typ, "message", message)
	s.notify("window/logMessage", map[string]any{"type": typ, "message": message})
}

// Engine returns the session's engine, or nil before initialize.
func (s *Server) Engine() *hooks.Engine {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.engine
}

// decodeParams decodes params into v, naming the offending field on error.
func decodeParams(params []byte, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return invalidParams("invalid params: field %q: expected %s, got %s", te.Field, te.Type, te.Value)
		}
		return invalidParams("invalid params: %v", err)
	}
	return nil
}

func invalidParams(format string, args ...any) *jsonrpc2.Error {
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}

// slogPrintf adapts slog to the library's Printf logger.
type slogPrintf struct{ l *slog.Logger }

func (p slogPrintf) Printf(format string, v ...any) { p.l.Debug(fmt.Sprintf(format, v...)) }
