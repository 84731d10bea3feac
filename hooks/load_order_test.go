package hooks

import (
	"sync"
	"testing"
)

// Loads may overlap (the watcher, hooks/reload, the reload after a trust
// write): one begun earlier that finishes later must not install the older
// state over the newer one.
func TestLoadChecked_AnOlderLoadFinishingLastDoesNotWin(t *testing.T) {
	older, newer := `{"Stop":[{"hooks":[{"type":"command","command":"echo older"}]}]}`, `{"Stop":[{"hooks":[{"type":"command","command":"echo newer"}]}]}`
	var (
		mu      sync.Mutex
		calls   int
		started = make(chan struct{})
		release = make(chan struct{})
	)
	p := seamProfile(func(p *Profile) {
		p.Discover = func(p *Profile, opts DiscoverOptions) *Discovery {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			switch n {
			case 2: // the first reload: it read the older state, and is slow
				opts.SessionHooks = []byte(older)
				close(started)
				<-release
			case 3: // the second reload, begun later, reads the newer state
				opts.SessionHooks = []byte(newer)
			}
			return DiscoverAll(p, opts)
		}
	})
	e := seamEngine(t, p, older) // call 1
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = e.LoadChecked()
	}()
	<-started
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-done
	list, _ := e.List("Stop")
	if len(list) != 1 || list[0].Handler.Command != "echo newer" {
		t.Fatalf("hooks after both loads: %+v, want the newer load's", list)
	}
}
