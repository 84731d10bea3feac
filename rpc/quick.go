package rpc

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
)

// Most tool calls of a host match no hook, and each still sends a
// hooks/run. Such a run needs no process and never blocks, so it is
// answered on the reader goroutine: no goroutine, context or cancel entry
// per event (docs/performance.md). A run that will start a handler goes the
// usual way.

// quickCall answers req with m.quick when m.quick can; it reports whether it
// did. release and the in-flight count are settled as call settles them.
func (s *Server) quickCall(conn *jsonrpc2.Conn, req *jsonrpc2.Request, m method, params []byte, release func()) bool {
	if s.base.Err() != nil {
		return false
	}
	var (
		result any
		ok     bool
		err    error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic in handler", "method", req.Method, "panic", p, "stack", string(debug.Stack()))
				result, ok, err = nil, true, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("internal error in %s: %v", req.Method, p)}
			}
		}()
		result, ok, err = m.quick(s, params)
	}()
	if !ok {
		return false
	}
	release()
	s.reply(conn, req, result, err)
	s.inflight.Done()
	return true
}

// hooksRunQuick answers a hooks/run for which no handler will run. It
// leaves SessionEnd, whose reply is followed by the session's cleanup, to
// hooksRun, and bad params too, so that they get hooksRun's errors; and
// every run of a session that records, since the record is written to a
// file.
func hooksRunQuick(s *Server, params []byte) (any, bool, error) {
	event, turnID, input, err := readHooksRun(params)
	if err != nil {
		return nil, false, nil
	}
	e := s.Engine()
	if e.EndsSession(event) || s.recording() {
		// A recording is file I/O, which the reader never does.
		return nil, false, nil
	}
	// Nor is there a record to write: a session that records is never
	// answered here.
	res, ok, err := e.QuickRun(event, input, turnID)
	if !ok {
		return nil, false, nil
	}
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return nil, true, invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	return res, true, err
}
