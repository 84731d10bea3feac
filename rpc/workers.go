package rpc

import "sync"

// workers runs requests on goroutines that are kept between requests, up to
// maxIdleWorkers of them waiting at once. A request's goroutine grows its
// stack as deep as a hook's start takes it (the engine, os/exec, the
// watchdog); a new goroutine for every request would grow a small stack
// again, copying it at each doubling. A kept one starts the next request
// with the stack it has. Past the bound a worker ends after its request, so
// a burst of requests leaves no more than the bound behind.
type workers struct {
	mu     sync.Mutex
	idle   []chan func()
	closed bool
}

// maxIdleWorkers bounds the goroutines kept waiting: a host has a few
// requests in flight at a time.
const maxIdleWorkers = 4

// run runs f on a kept worker, or on a new one when none is waiting. It
// never blocks: a waiting worker's channel has room for f.
func (w *workers) run(f func()) {
	w.mu.Lock()
	if n := len(w.idle); n > 0 {
		c := w.idle[n-1]
		w.idle = w.idle[:n-1]
		w.mu.Unlock()
		c <- f
		return
	}
	w.mu.Unlock()
	go w.work(f)
}

func (w *workers) work(f func()) {
	c := make(chan func(), 1)
	for f != nil {
		f()
		w.mu.Lock()
		if w.closed || len(w.idle) >= maxIdleWorkers {
			w.mu.Unlock()
			return
		}
		w.idle = append(w.idle, c)
		w.mu.Unlock()
		f = <-c
	}
}

// close ends the waiting workers; one still running ends after its request.
func (w *workers) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	for _, c := range w.idle {
		close(c)
	}
	w.idle = nil
}
