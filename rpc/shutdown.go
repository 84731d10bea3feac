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
	onEnd(ctx, func() {
		// Killing the async handlers waits for them, and the spill folder
		// is a file tree: not on the reader, which runs this method. The
		// request still counts as in flight here, so exit and end of input
		// wait for this as for a request.
		s.inflight.Add(1)
		go func() {
			defer s.inflight.Done()
			s.endSession(e)
		}()
	})
	return nil, nil
}
