package rpc

import (
	"context"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/list"] = method{handle: hooksList}
	methods["hooks/reload"] = method{handle: hooksReload, serial: true}
}

type hooksListResult struct {
	Hooks    []hooks.HookInfo `json:"hooks"`
	Warnings []hooks.Warning  `json:"warnings"`
	// Project says whether the project's hooks load and who decided;
	// LeftOut lists hooks sources that exist but do not run, with why and
	// the command that changes it.
	Project *hooks.ProjectStatus `json:"project,omitempty"`
	LeftOut []hooks.LeftOut      `json:"leftOut"`
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
	project, leftOut := e.Sources()
	if leftOut == nil {
		leftOut = []hooks.LeftOut{}
	}
	return hooksListResult{Hooks: list, Warnings: warnings, Project: project, LeftOut: leftOut}, nil
}

// hooksReload discovers hooks again. It is ordered with other state changes
// and, since a load reads every hooks file, runs off the reader (serial).
func hooksReload(ctx context.Context, s *Server, params []byte) (any, error) {
	e := s.Engine()
	// The collection and the cache write the load puts off run once the
	// reply is written, whatever becomes of the request.
	onEnd(ctx, hooks.PutOffLoadWork())
	sum, err := e.LoadChecked()
	if err != nil {
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("%v; the hooks loaded before stay in use", err)}
	}
	warnings := e.Warnings()
	return replyThen{after: func() { s.reportLoad(e, warnings) }, v: sum}, nil
}
