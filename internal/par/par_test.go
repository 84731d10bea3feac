package par

import (
	"sync/atomic"
	"testing"
)

func TestEach_CallsEveryIndexOnceAndBoundsConcurrency(t *testing.T) {
	for _, n := range []int{0, 1, 2, Limit, 3*Limit + 1} {
		calls := make([]atomic.Int32, n)
		var running, peak atomic.Int32
		Each(n, func(i int) {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			calls[i].Add(1)
			running.Add(-1)
		})
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Errorf("n=%d: index %d called %d times", n, i, c)
			}
		}
		if p := int(peak.Load()); p > Limit {
			t.Errorf("n=%d: %d ran at once, limit %d", n, p, Limit)
		}
	}
}
