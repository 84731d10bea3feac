package rpc

import (
	"context"
	"errors"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/run"] = method{handle: hooksRun, quick: hooksRunQuick}
}

// hooksRun runs one event's hooks. It runs concurrently with other requests and
// is cancelled by $/cancelRequest.
//
// params are read in place with gjson, and input is a slice of them: a
// decoder would copy an input of tens of MB once or twice more.
func hooksRun(ctx context.Context, s *Server, params []byte) (any, error) {
	event, turnID, input, err := readHooksRun(params)
	if err != nil {
		return nil, err
	}
	// Copies: views into params would keep all of them alive.
	name, turn := strings.Clone(event), strings.Clone(turnID)
	params = nil // only input is needed from here on
	e := s.Engine()
	if e.EndsSession(name) {
		// SessionEnd: answer first, then end the session's background work
		// and remove its spill folder, also when the run fails or is
		// cancelled: the host is ending the session either way.
		onEnd(ctx, func() { s.endSession(e) })
	}
	res, err := e.Run(ctx, name, input, turn)
	if err == nil {
		s.recordRun(name, turn, input, res)
	}
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return nil, invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	return res, err
}

// readHooksRun reads hooks/run params in place: event and turnID are views
// into params, input a slice of them (nil when absent or null).
func readHooksRun(params []byte) (event, turnID string, input []byte, err error) {
	p := gjson.Parse(bytesView(params))
	ev, turn, in := p.Get("event"), p.Get("turnId"), p.Get("input")
	switch {
	case ev.Type == gjson.Null || ev.Type == gjson.String && ev.Str == "":
		return "", "", nil, invalidParams("invalid params: field \"event\" is required")
	case ev.Type != gjson.String:
		return "", "", nil, invalidParams("invalid params: field \"event\": expected string, got %s", jsonType(ev))
	case turn.Exists() && turn.Type != gjson.String && turn.Type != gjson.Null:
		return "", "", nil, invalidParams("invalid params: field \"turnId\": expected string, got %s", jsonType(turn))
	}
	if in.Exists() && in.Type != gjson.Null {
		if end := in.Index + len(in.Raw); in.Index > 0 && end <= len(params) {
			input = params[in.Index:end]
		} else {
			input = []byte(in.Raw)
		}
	}
	return ev.Str, turn.Str, input, nil
}

// jsonType names the JSON type of v for an error message.
func jsonType(v gjson.Result) string {
	switch {
	case v.IsObject():
		return "object"
	case v.IsArray():
		return "array"
	case v.Type == gjson.True || v.Type == gjson.False:
		return "boolean"
	case v.Type == gjson.Number:
		return "number"
	}
	return v.Type.String()
}
