package hooks

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// gcSettings reads the collector's percent and memory limit without
// changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

func TestPauseGC_PausesUpToABoundAndTheLastResumeRestores(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(73))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 40))

	first := PauseGC()
	percent, limit := gcSettings()
	if percent != -1 || limit >= 1<<40 || limit < loadHeadroom {
		t.Fatalf("paused: percent %d, limit %d; want -1 and a limit of what is held plus %d", percent, limit, loadHeadroom)
	}
	second := PauseGC()
	first()
	first() // a second call does nothing
	if p, _ := gcSettings(); p != -1 {
		t.Fatalf("resumed while a second load runs: percent %d", p)
	}
	second()
	if p, l := gcSettings(); p != 73 || l != 1<<40 {
		t.Errorf("after the last load: percent %d limit %d, want 73 and %d", p, l, int64(1<<40))
	}
}

func TestLoadChecked_LeavesTheCollectorAsItWas(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(61))
	e := New(Options{Profile: codexProfile(), Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover: DiscoverOptions{Home: t.TempDir()}})
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	if p, _ := gcSettings(); p != 61 {
		t.Errorf("percent after a load %d, want 61", p)
	}
}

// A load whose discovery panics still resumes the collector.
func TestLoadChecked_APanicInDiscoveryResumesTheCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(71))
	p := &Profile{Name: "gc-panic", Discover: func(*Profile, DiscoverOptions) *Discovery { panic("discovery") }}
	e := New(Options{Profile: p, Session: Session{ID: "gc-panic", Cwd: t.TempDir()}})
	defer e.Close()
	func() {
		defer func() { _ = recover() }()
		_, _ = e.LoadChecked()
	}()
	q := debug.SetGCPercent(-1)
	debug.SetGCPercent(q)
	if q != 71 {
		t.Errorf("GC percent after a panicking load %d, want 71", q)
	}
}

// twoOrMoreProcs gives the test at least two processors (all it has when it
// has more) and returns the count; at the end ServeOnProcs gives the full
// count back and the count the test started with is restored.
func twoOrMoreProcs(t *testing.T) int {
	orig := runtime.GOMAXPROCS(0)
	full := max(orig, 2)
	runtime.GOMAXPROCS(full)
	t.Cleanup(func() {
		ServeOnProcs(0)
		runtime.GOMAXPROCS(orig)
	})
	return full
}

func TestServeOnProcs_OneBetweenLoadsEveryProcessorDuringOne(t *testing.T) {
	full := twoOrMoreProcs(t)

	ServeOnProcs(1)
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("serving: GOMAXPROCS %d, want 1", n)
	}
	first, second := PauseGC(), PauseGC()
	if n := runtime.GOMAXPROCS(0); n != full {
		t.Fatalf("during a load: GOMAXPROCS %d, want %d", n, full)
	}
	first()
	if n := runtime.GOMAXPROCS(0); n != full {
		t.Fatalf("while a second load runs: GOMAXPROCS %d, want %d", n, full)
	}
	second()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Fatalf("after the loads: GOMAXPROCS %d, want 1", n)
	}
	// A second call keeps the count it had before the first as the full one.
	ServeOnProcs(1)
	ServeOnProcs(0)
	if n := runtime.GOMAXPROCS(0); n != full {
		t.Errorf("given back: GOMAXPROCS %d, want %d", n, full)
	}
}

// A server's start is paused like a load: the settings it asks for between
// loads wait for the start to end, then apply.
func TestServeGCPercent_WaitsForTheStartToEnd(t *testing.T) {
	full := twoOrMoreProcs(t)
	defer debug.SetGCPercent(debug.SetGCPercent(90))

	start := PauseGC()
	ServeGCPercent(50)
	ServeOnProcs(1)
	if p, _ := gcSettings(); p != -1 {
		t.Fatalf("starting: GC percent %d, want -1 (paused)", p)
	}
	if n := runtime.GOMAXPROCS(0); n != full {
		t.Fatalf("starting: GOMAXPROCS %d, want %d", n, full)
	}
	load := PauseGC() // the first load, inside the start
	load()
	if p, _ := gcSettings(); p != -1 {
		t.Fatalf("the load ended inside the start: GC percent %d, want -1", p)
	}
	start()
	if p, _ := gcSettings(); p != 50 {
		t.Errorf("started: GC percent %d, want 50", p)
	}
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Errorf("started: GOMAXPROCS %d, want 1", n)
	}
	// With no load running it applies at once.
	ServeGCPercent(80)
	if p, _ := gcSettings(); p != 80 {
		t.Errorf("GC percent %d, want 80", p)
	}
}
