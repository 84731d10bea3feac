//go:build unix

package hooks

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

func TestAsync_ResultsNobodyTakesAreBoundedOldestDroppedAndCounted(t *testing.T) {
	// A host that reads hooks/asyncCompleted and never calls
	// hooks/takePending must not make hookd keep every result.
	host := newFakeHost(nil)
	e := newHostEngine(t, `{"Stop": [{"hooks": [
		{"type": "command", "async": true, "command": "echo '{\"systemMessage\":\"m\"}'"}]}]}`, host, 0)
	e.async.maxPending = 2
	var order []string
	for i := range 4 {
		res, err := e.Run(context.Background(), "Stop", []byte(`{}`), fmt.Sprint("turn-", i))
		if err != nil {
			t.Fatal(err)
		}
		if ar := nextAsync(t, host); ar.RunID != res.RunID {
			t.Fatalf("async result of run %s, want %s", ar.RunID, res.RunID)
		}
		order = append(order, res.RunID)
	}
	got, dropped := e.TakePending()
	if dropped != 2 || len(got) != 2 || got[0].RunID != order[2] || got[1].RunID != order[3] {
		t.Fatalf("TakePending = %d results (%+v), dropped %d; want the newest 2 and 2 dropped", len(got), got, dropped)
	}
	if _, dropped := e.TakePending(); dropped != 0 {
		t.Errorf("dropped counted again: %d", dropped)
	}
}

func TestAsync_HandlersWaitingForASlotAreBoundedLongestWaitingDropped(t *testing.T) {
	// One slot, held by a UserPromptSubmit handler until released. Two Stop
	// runs then queue a handler each; with room for one waiter, the first
	// is dropped without running when the second arrives.
	dir := t.TempDir()
	fifo := filepath.Join(dir, "release")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	host := newFakeHost(nil)
	e := newHostEngine(t, fmt.Sprintf(`{
		"UserPromptSubmit": [{"hooks": [{"type": "command", "async": true, "command": "read x < %s"}]}],
		"Stop": [{"hooks": [{"type": "command", "async": true, "command": "true"}]}]}`, fifo), host, 0)
	e.async.slots = make(chan struct{}, 1)
	e.async.maxWaiting = 1
	run := func(event, input string) string {
		res, err := e.Run(context.Background(), event, []byte(input), "")
		if err != nil {
			t.Fatal(err)
		}
		return res.RunID
	}
	holder := run("UserPromptSubmit", `{"prompt":"go"}`)
	waitFor(t, "the first handler to hold the slot", func() bool { return e.async.running.Load() == 1 })
	dropped := run("Stop", `{}`)
	kept := run("Stop", `{}`)
	e.async.mu.Lock()
	queued := len(e.async.queue)
	e.async.mu.Unlock()
	if queued != 1 {
		t.Errorf("%d handlers queued for a slot, want 1", queued)
	}
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "go")
	f.Close()
	var ran []string
	for range 2 {
		ran = append(ran, nextAsync(t, host).RunID)
	}
	slices.Sort(ran)
	want := []string{holder, kept}
	slices.Sort(want)
	if !slices.Equal(ran, want) {
		t.Errorf("async results of runs %v, want %v (not the dropped %s)", ran, want, dropped)
	}
	if got, n := e.TakePending(); n != 1 || len(got) != 2 {
		t.Errorf("TakePending = %d results, dropped %d; want 2 and 1", len(got), n)
	}
}
