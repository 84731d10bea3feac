package rpc

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

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
// host may stop the work, and forgets the call: an answer that comes later
// is dropped, and nothing of the call (its params least of all) is held
// meanwhile. The call goes out and its answer comes back through the stream
// (Stream.Expect), not the library, which would keep every unanswered call
// until the connection ends.
func (s *Server) callHost(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if s.conn.Load() == nil {
		return nil, errors.New("no connection to the host")
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.inputClosed, cancel)
	defer stop()

	id := s.callSeq.Add(1)
	answer, forget := s.stream.Expect(id)
	defer forget()
	msg, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      uint64 `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", id, method, params})
	if err == nil {
		err = s.stream.WriteRaw(msg)
	}
	msg = nil
	if err != nil {
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	select {
	case body := <-answer:
		return hostAnswer(method, body)
	case <-wctx.Done():
	}
	switch {
	case ctx.Err() != nil:
		s.notify("$/cancelRequest", map[string]any{"id": id})
		return nil, ctx.Err()
	default:
		return nil, fmt.Errorf("the host closed hookd's input before answering %s", method)
	}
}

// hostAnswer reads a response to one of hookd's calls: its result, or its
// error as a Go error.
func hostAnswer(method string, body []byte) (json.RawMessage, error) {
	if e := gjson.GetBytes(body, "error"); e.Exists() && e.Type != gjson.Null {
		return nil, fmt.Errorf("the host answered %s with error %d: %s", method, e.Get("code").Int(), e.Get("message").Str)
	}
	r := gjson.GetBytes(body, "result")
	if !r.Exists() {
		return json.RawMessage("null"), nil
	}
	return json.RawMessage(r.Raw), nil
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
