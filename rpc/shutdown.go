package rpc

import "context"

func init() {
	methods["shutdown"] = method{handle: shutdown, inline: true}
}

// shutdown ends the session: later requests are refused and exit then ends the
// process with code 0.
func shutdown(ctx context.Context, s *Server, params []byte) (any, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	return nil, nil
}
