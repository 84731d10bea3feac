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
}

// hooksTakePending hands the host the finished async results it has not
// taken yet, oldest first, and forgets them.
func hooksTakePending(ctx context.Context, s *Server, params []byte) (any, error) {
	return takePendingResult{Results: s.Engine().TakePending()}, nil
}
