// Package par runs independent pieces of work at once, boundedly, for the
// loads that read and parse many plugins.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Limit is how many pieces run at once by default: enough to keep every
// core busy while some wait in system calls.
var Limit = max(4, 2*runtime.GOMAXPROCS(0))

// Each calls fn(i) for every i in [0, n), at most Limit at a time, and
// returns when all have returned. fn must only write what belongs to its i.
// A few workers take the indexes in turn, rather than a goroutine each: a
// goroutine's stack grows on its first deep call, and with hundreds of
// pieces that growth was a visible share of a load.
func Each(n int, fn func(i int)) {
	workers := min(n, Limit)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
