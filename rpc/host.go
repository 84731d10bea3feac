package rpc

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
)

// Server is the engine's hooks.Host: it calls MCP tools and sends
// notifications over the session's own connection.
var _ hooks.Host = (*Server)(nil)

var _ evaluate.Evaluator = (*Server)(nil)

// CallTool sends the host an mcp/callTool request and waits for its answer
// (callHost).
func (s *Server) CallTool(ctx context.Context, call hooks.ToolCall) (json.RawMessage, error) {
	return s.callHost(ctx, "mcp/callTool", call)
}

// Evaluate sends the host a model/evaluate request for a prompt or agent
// hook, when the host said at initialize that it answers them
// (capabilities.evaluate); otherwise the hook fails with
// evaluate.ErrNoEvaluator. It implements evaluate.Evaluator.
func (s *Server) Evaluate(ctx context.Context, req evaluate.Request) (json.RawMessage, error) {
	if !s.canEvaluate.Load() {
		return nil, evaluate.ErrNoEvaluator
	}
	return s.callHost(ctx, "model/evaluate", req)
}

// callHost sends the host a request and waits for its answer, for ctx (the
// hook's timeout) or until the host can no longer answer (stdin closed,
// session over), whichever comes first. It runs on the goroutine of the
// hooks/run that needs it, never on the reader, which must stay free to read
// the answer. When hookd gives up first it sends $/cancelRequest, so the
// host may stop the work.
func (s *Server) callHost(ctx context.Context, method string, params any) (json.RawMessage, error) {
	conn := s.conn.Load()
	if conn == nil {
		return nil, errors.New("no connection to the host")
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.inputClosed, cancel)
	defer stop()

	id := jsonrpc2.ID{Num: s.callSeq.Add(1)}
	w, err := conn.DispatchCall(wctx, method, params, jsonrpc2.PickID(id))
	if err != nil {
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	var res json.RawMessage
	err = w.Wait(wctx, &res)
	var je *jsonrpc2.Error
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		_ = conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id})
		return nil, ctx.Err()
	case s.inputClosed.Err() != nil:
		return nil, fmt.Errorf("the host closed hookd's input before answering %s", method)
	case errors.As(err, &je):
		return nil, fmt.Errorf("the host answered %s with error %d: %s", method, je.Code, je.Message)
	case errors.Is(err, jsonrpc2.ErrClosed):
		return nil, fmt.Errorf("the connection to the host closed before it answered %s", method)
	default:
		return nil, fmt.Errorf("%s: %w", method, err)
	}
}

// Notify sends the host a notification; it implements hooks.Host.
func (s *Server) Notify(method string, params any) { s.notify(method, params) }

// replyThen is a method result with messages to send once the reply is
// written (initialize's and hooks/reload's warnings follow their result).
// It runs only after a successful reply: what a request must release
// whatever becomes of it goes to onEnd instead.
type replyThen struct {
	v     any
	after func()
}

// MarshalJSON writes the result itself.
func (r replyThen) MarshalJSON() ([]byte, error) { return json.Marshal(r.v) }

// endSession ends the session's background work and removes its spill
// folder; every end of a session (SessionEnd, shutdown, exit, stdin EOF, the
// host's death) comes here. It may run more than once.
func (s *Server) endSession(e *hooks.Engine) {
	if e == nil {
		return
	}
	if err := e.EndSession(); err != nil {
		s.log.Warn("end session", "err", err)
	}
}
