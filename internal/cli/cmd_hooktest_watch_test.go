package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWatchAndRerun_RerunsAfterAChangeInAPluginSubfolder(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "hooks")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runs := make(chan struct{}, 10)
	done := make(chan error, 1)
	watching := make(chan struct{}, 10)
	go func() {
		done <- watchAndRerun(ctx, func() []string { return suiteFolders([]suite{{plugin: dir}}) },
			func() { runs <- struct{}{} }, func() { watching <- struct{}{} })
	}()
	<-watching
	for i := 0; i < 3; i++ {
		if err := os.WriteFile(filepath.Join(sub, "hooks.json"), []byte(`{"hooks": {}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-runs:
	case <-time.After(20 * time.Second):
		t.Fatal("no rerun after a change in a plugin subfolder")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
