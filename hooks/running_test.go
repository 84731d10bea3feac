package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRun_HooksBeyondTheRunningCapQueueAndSaySo(t *testing.T) {
	t.Setenv("SHELL", "/bin/sh")
	gate := filepath.Join(t.TempDir(), "go")
	// Every hook waits for the gate file: the first two hold both slots
	// until the test has seen the other three queue.
	cmd := fmt.Sprintf(`{"type": "command", "command": "while [ ! -e %s ]; do sleep 0.01; done"}`, gate)
	groups := strings.TrimSuffix(strings.Repeat(`{"hooks": [`+cmd+`]},`, 5), ",")
	host := newFakeHost(nil)
	e := New(Options{
		Profile:     codexProfile(),
		Session:     Session{ID: "sess_cap", Cwd: t.TempDir()},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(`{"Stop": [` + groups + `]}`)},
		BypassTrust: true,
		Host:        host,
		MaxRunning:  2,
	})
	t.Cleanup(e.Close)
	e.Load()

	type result struct {
		res *Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := e.Run(context.Background(), "Stop", []byte(`{}`), "")
		done <- result{res, err}
	}()
	queued := 0
	timeout := time.After(30 * time.Second)
	for queued < 3 {
		select {
		case n := <-host.notes:
			if s, ok := n.params.(StatusNotice); ok && n.method == MethodStatus && s.State == StateQueued {
				queued++
			}
		case <-timeout:
			t.Fatalf("%d hooks reported queued, want 3", queued)
		}
	}
	if running, limit, waiting := e.Running(); running != 2 || limit != 2 || waiting != 3 {
		t.Errorf("Running() = %d, %d, %d; want 2 running of 2, 3 waiting", running, limit, waiting)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	for _, h := range r.res.Hooks {
		if h.Status != StatusSucceeded {
			t.Errorf("hook %s: %s", h.Key, h.Status)
		}
	}
	if len(r.res.Hooks) != 5 {
		t.Errorf("%d hooks ran, want 5", len(r.res.Hooks))
	}
}
