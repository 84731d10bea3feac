package rpc

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/run"] = method{handle: hooksRun, quick: hooksRunQuick}
}

type hooksRunParams struct {
	Event  *string         `json:"event"`
	TurnID string          `json:"turnId"`
	Input  json.RawMessage `json:"input"`
}

// hooksRun runs one event's hooks. It runs concurrently with other requests and
// is cancelled by $/cancelRequest.
func hooksRun(ctx context.Context, s *Server, params []byte) (any, error) {
	var p hooksRunParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Event == nil || *p.Event == "" {
		return nil, invalidParams("invalid params: field \"event\" is required")
	}
	input := []byte(p.Input)
	if len(input) == 0 || string(input) == "null" {
		input = nil
	}
	e := s.Engine()
	res, err := e.Run(ctx, *p.Event, input, p.TurnID)
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return nil, invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	if err == nil && e.EndsSession(*p.Event) {
		// SessionEnd: answer first, then end the session's background work
		// and remove its spill folder.
		return replyThen{v: res, after: func() { s.endSession(e) }}, nil
	}
	return res, err
}

// hooksRunQuick answers a hooks/run for which no handler will run (the
// common case: most tool calls match no hook) on the reader goroutine. It
// leaves SessionEnd, whose reply is followed by the session's cleanup, to
// hooksRun.
func hooksRunQuick(s *Server, params []byte) (any, bool, error) {
	var p hooksRunParams
	if err := decodeParams(params, &p); err != nil {
		return nil, true, err
	}
	e := s.Engine()
	if p.Event == nil || *p.Event == "" || e.EndsSession(*p.Event) {
		return nil, false, nil
	}
	input := []byte(p.Input)
	if len(input) == 0 || string(input) == "null" {
		input = nil
	}
	res, ok, err := e.QuickRun(*p.Event, input, p.TurnID)
	if !ok {
		return nil, false, nil
	}
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return nil, true, invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	return res, true, err
}
