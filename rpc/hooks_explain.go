package rpc

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/explain"] = method{handle: hooksExplain}
}

type hooksExplainParams struct {
	Event *string         `json:"event"`
	Input json.RawMessage `json:"input"`
}

type hooksExplainResult struct {
	Hooks []hooks.Explanation `json:"hooks"`
	// LeftOut names the sources not read (an untrusted project) or held
	// back by a policy, as hooks/list does.
	LeftOut []hooks.LeftOut `json:"leftOut"`
}

// hooksExplain says, for hooks/run's params, what each discovered hook would
// do and why, without running anything.
func hooksExplain(ctx context.Context, s *Server, params []byte) (any, error) {
	var p hooksExplainParams
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
	list, err := s.Engine().Explain(*p.Event, input)
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return nil, invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	if err != nil {
		return nil, err
	}
	_, leftOut := s.Engine().Sources()
	if leftOut == nil {
		leftOut = []hooks.LeftOut{}
	}
	return hooksExplainResult{Hooks: list, LeftOut: leftOut}, nil
}
