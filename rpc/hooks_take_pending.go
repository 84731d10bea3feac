package rpc

import (
	"context"

	"github.com/hookd/hookd/hooks"
)

func init() {
	methods["hooks/takePending"] = method{handle: hooksTakePending}
}

type takePendingResult struct {
	Results []hooks.AsyncResult `json:"results"`
	// Dropped counts the async results lost to hookd's bounds (results not
	// taken, handlers waiting for a slot) since the last hooks/takePending.
	Dropped int `json:"dropped"`
}

// hooksTakePending hands the host the finished async results it has not
// taken yet, oldest first, and forgets them.
func hooksTakePending(ctx context.Context, s *Server, params []byte) (any, error) {
	results, dropped := s.Engine().TakePending()
	return takePendingResult{Results: results, Dropped: dropped}, nil
}
