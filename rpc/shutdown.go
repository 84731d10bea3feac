package rpc

import "context"

func init() {
	methods["shutdown"] = method{handle: shutdown, inline: true}
}

// shutdown ends the session: later requests are refused and exit then ends the
// process with code 0. Once answered, the session's async handlers are
// killed and its spill folder is removed, however the request ends.
func shutdown(ctx context.Context, s *Server, params []byte) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	e := s.engine
	s.mu.Unlock()
	onEnd(ctx, func() { s.endSession(e) })
	return nil, nil
}
