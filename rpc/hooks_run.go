package rpc

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/run"] = method{handle: hooksRun}
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
	if err == nil {
		s.recordRun(*p.Event, p.TurnID, input, res)
	}
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
