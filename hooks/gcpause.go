package hooks

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A discovery load (initialize, hooks/reload) reads and parses every hooks
// file: with 200 plugins that is a few megabytes of short-lived garbage made
// in a few milliseconds, in a process whose heap has only just started. With
// the collector at its usual pace (hookd serve runs it at GOGC=50, so that a
// large request's garbage is collected early), it ran several cycles during
// that one load, and the cycles cost a third of spawn -> initialize with 200
// plugins (docs/performance.md). So a load pauses the collector, up to a
// bound: the memory limit is set to what the process holds plus
// loadHeadroom, so a load of huge or countless files is still collected once
// it has made that much, and the settings are restored when the last load
// running ends.

// A server that mostly waits (hookd serve: a request, a hook's process, a
// reply) runs its Go code on one processor between loads, ServeOnProcs:
// with two or more, every hand-off between goroutines (the reader to the
// request's goroutine, a pipe's poller to the hook's) woke a second thread
// on another core to look for that work, and the wake-ups cost more CPU
// per hook than the hand-offs saved (docs/performance.md). A load, which
// reads and parses on several workers, gets every processor back for its
// duration.

// loadHeadroom is how much a load may allocate before the collector runs
// anyway.
const loadHeadroom = 64 << 20

var gcPaused struct {
	mu    sync.Mutex
	loads int
	// percent and limit are what the last load to end puts back.
	percent int
	limit   int64
	// serving is the processor count between loads (0: left alone), full
	// the count a load runs with.
	serving, full int
}

// ServeOnProcs runs the process's Go code on n processors (GOMAXPROCS)
// whenever no load is running, and on as many as it had before the call
// while one is. n <= 0 gives the full count back for good.
func ServeOnProcs(n int) {
	gcPaused.mu.Lock()
	defer gcPaused.mu.Unlock()
	if gcPaused.serving == 0 {
		gcPaused.full = runtime.GOMAXPROCS(0)
	}
	gcPaused.serving = max(n, 0)
	if gcPaused.loads > 0 {
		return
	}
	if gcPaused.serving > 0 {
		runtime.GOMAXPROCS(gcPaused.serving)
	} else {
		runtime.GOMAXPROCS(gcPaused.full)
	}
}

// ServeGCPercent sets the collector's percent (GOGC) the process runs with
// between loads: at once when no load is running, else when the last one
// ends (it is what that load puts back).
func ServeGCPercent(percent int) {
	gcPaused.mu.Lock()
	defer gcPaused.mu.Unlock()
	if gcPaused.loads > 0 {
		gcPaused.percent = percent
		return
	}
	debug.SetGCPercent(percent)
}

// PauseGC pauses the collector for a load; call the function it returns
// when the load is done (exactly once). Loads may overlap: the first saves
// the settings and the last one restores them. Engine.LoadChecked pauses it
// by itself; a server that answers the load calls it around the answer too,
// so that the collection the load has put off runs after the reply is
// written, not while the host waits for it.
func PauseGC() (resume func()) {
	gcPaused.mu.Lock()
	defer gcPaused.mu.Unlock()
	if gcPaused.loads == 0 {
		total := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		metrics.Read(total)
		held := int64(0)
		if total[0].Value.Kind() == metrics.KindUint64 {
			held = int64(min(total[0].Value.Uint64(), 1<<62))
		}
		gcPaused.limit = debug.SetMemoryLimit(-1)
		debug.SetMemoryLimit(min(gcPaused.limit, held+loadHeadroom))
		gcPaused.percent = debug.SetGCPercent(-1)
		if gcPaused.serving > 0 {
			runtime.GOMAXPROCS(gcPaused.full)
		}
	}
	gcPaused.loads++
	var once sync.Once
	return func() { once.Do(resumeGC) }
}

func resumeGC() {
	gcPaused.mu.Lock()
	defer gcPaused.mu.Unlock()
	gcPaused.loads--
	if gcPaused.loads == 0 {
		debug.SetGCPercent(gcPaused.percent)
		debug.SetMemoryLimit(gcPaused.limit)
		if gcPaused.serving > 0 {
			runtime.GOMAXPROCS(gcPaused.serving)
		}
	}
}
