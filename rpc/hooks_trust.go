package rpc

import (
	"context"
	"errors"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/trust"] = method{handle: hooksTrust, serial: true}
}

type hooksTrustParams struct {
	Keys *[]string `json:"keys"`
}

type hooksTrustResult struct {
	Trusted []hooks.TrustedHook `json:"trusted"`
}

// hooksTrust records the current hash of each named hook as trusted in the
// user config.toml and reloads the hook set. It changes state, so it runs in
// wire order with initialize, reload and setEnabled.
func hooksTrust(ctx context.Context, s *Server, params []byte) (any, error) {
	var p hooksTrustParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Keys == nil {
		return nil, invalidParams("invalid params: field \"keys\" is required (an array of hook keys)")
	}
	e := s.Engine()
	trusted, err := e.Trust(ctx, *p.Keys)
	if err != nil {
		return nil, engineError(err)
	}
	s.reloadAfterWrite(e)
	return hooksTrustResult{Trusted: trusted}, nil
}

// engineError maps an engine error to its JSON-RPC error: a bad argument is
// -32602 naming the field, anything else (a file that cannot be written) is
// -32603 with the engine's message (config.toml locked by another process
// for statefile.LockWait among them).
func engineError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err // answered as a cancelled request
	}
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return invalidParams("invalid params: field %q: %s", pe.Field, pe.Msg)
	}
	return &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
}
