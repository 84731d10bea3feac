package rpc

import (
	"context"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/list"] = method{handle: hooksList}
	methods["hooks/reload"] = method{handle: hooksReload, inline: true}
}

type hooksListResult struct {
	Hooks    []hooks.HookInfo `json:"hooks"`
	Warnings []hooks.Warning  `json:"warnings"`
}

func hooksList(ctx context.Context, s *Server, params []byte) (any, error) {
	var p struct {
		Event string `json:"event"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	e := s.Engine()
	if p.Event != "" && e.Profile().Event(p.Event) == nil {
		return nil, invalidParams("invalid params: field \"event\": unknown event %q", p.Event)
	}
	list, warnings := e.List(p.Event)
	return hooksListResult{Hooks: list, Warnings: warnings}, nil
}

// hooksReload discovers hooks again; it is ordered with other state changes.
func hooksReload(ctx context.Context, s *Server, params []byte) (any, error) {
	e := s.Engine()
	sum, err := e.LoadChecked()
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("%v; the hooks loaded before stay in use", err)}
	}
	_, warnings := e.List("")
	return replyThen{after: func() { s.reportLoad(e, warnings) }, v: sum}, nil
}
