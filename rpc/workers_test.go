package rpc

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// A request after another runs on the goroutine the first left waiting.
func TestWorkersReuseAWaitingWorker(t *testing.T) {
	var w workers
	defer w.close()
	ids := make(chan uint64, 2)
	for range 2 {
		done := make(chan struct{})
		w.run(func() { ids <- goid(); close(done) })
		<-done
		waitIdle(t, &w, 1)
	}
	if a, b := <-ids, <-ids; a != b {
		t.Errorf("second request ran on goroutine %d, want the first's (%d)", b, a)
	}
}

// A burst leaves at most maxIdleWorkers goroutines waiting, and close ends
// them all.
func TestWorkersBoundAndClose(t *testing.T) {
	before := runtime.NumGoroutine()
	var w workers
	release := make(chan struct{})
	var wg sync.WaitGroup
	const burst = 3 * maxIdleWorkers
	for range burst {
		wg.Add(1)
		w.run(func() { <-release; wg.Done() })
	}
	close(release)
	wg.Wait()
	waitIdle(t, &w, maxIdleWorkers)
	w.mu.Lock()
	n := len(w.idle)
	w.mu.Unlock()
	if n != maxIdleWorkers {
		t.Fatalf("%d workers waiting after a burst of %d, want %d", n, burst, maxIdleWorkers)
	}
	w.close()
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after close, want %d", runtime.NumGoroutine(), before)
		}
		runtime.Gosched()
	}
	// A request after close still runs, on a goroutine that then ends.
	done := make(chan struct{})
	w.run(func() { close(done) })
	<-done
}

// waitIdle waits until at least n workers wait for a request (a worker
// parks itself after its request has returned).
func waitIdle(t *testing.T, w *workers, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; runtime.Gosched() {
		w.mu.Lock()
		k := len(w.idle)
		w.mu.Unlock()
		if k >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d workers waiting, want %d", k, n)
		}
	}
}

// goid is the running goroutine's id, read from its stack header.
func goid() uint64 {
	var buf [32]byte
	s := buf[:runtime.Stack(buf[:], false)]
	// "goroutine 123 [running]:"
	var id uint64
	for _, c := range s[len("goroutine "):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
