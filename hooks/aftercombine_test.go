package hooks

import (
	"context"
	"runtime"
	"sync"
	"testing"
)

// A profile rule that reads the session state and writes it back (a Stop
// cap's count) sees every run: runs that end at the same moment take turns
// in AfterCombine, so no count is lost. The rule here yields between its
// read and its write, where an unserialised second run would read the same
// count.
func TestAfterCombine_RunsEndingTogetherTakeTurns(t *testing.T) {
	p := *codexProfile()
	p.AfterCombine = func(st *State, _ *EventRules, _ []byte, _ *Result) {
		n := st.Int("count")
		runtime.Gosched()
		st.SetInt("count", n+1)
	}
	e := New(Options{Profile: &p, Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover: DiscoverOptions{Home: t.TempDir()}})
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		t.Fatal(err)
	}
	const runs = 200
	var wg sync.WaitGroup
	for range runs {
		wg.Go(func() {
			if _, err := e.Run(context.Background(), "Stop", []byte(`{}`), ""); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := e.State().Int("count"); n != runs {
		t.Errorf("count %d after %d runs: %d lost", n, runs, runs-n)
	}
}
