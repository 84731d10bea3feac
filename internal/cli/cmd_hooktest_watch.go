package cli

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// testWatchDebounce lets an editor's save (several events) or a git checkout
// settle before the scripts run again.
const testWatchDebounce = 300 * time.Millisecond

// suiteFolders are the folders hookd test --watch watches: every folder of
// each plugin tested (fsnotify watches folders, not trees), but .git and
// node_modules.
func suiteFolders(suites []suite) []string {
	var dirs []string
	for _, s := range suites {
		_ = filepath.WalkDir(s.plugin, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil
			}
			if name := d.Name(); path != s.plugin && (name == ".git" || name == "node_modules") {
				return filepath.SkipDir
			}
			if !slices.Contains(dirs, path) {
				dirs = append(dirs, path)
			}
			return nil
		})
	}
	return dirs
}

// watchAndRerun calls rerun each time files under folders() change and then
// stay quiet for testWatchDebounce, until ctx ends. The folder list is read
// again after each run, so new folders are watched too. watching, when not
// nil, is called each time the folders are being watched.
func watchAndRerun(ctx context.Context, folders func() []string, rerun func(), watching func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	watch := func() {
		for _, d := range folders() {
			if !slices.Contains(w.WatchList(), d) {
				_ = w.Add(d)
			}
		}
		if watching != nil {
			watching()
		}
	}
	watch()
	quiet := time.NewTimer(time.Hour)
	quiet.Stop()
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-w.Events:
			if !ok {
				return nil
			}
			quiet.Reset(testWatchDebounce)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			return err
		case <-quiet.C:
			rerun()
			// What the run itself wrote (a $WORK kept with --work is not
			// under the plugin) must not trigger the next one.
			drain(w)
			watch()
		}
	}
}

// drain drops the events already queued.
func drain(w *fsnotify.Watcher) {
	for {
		select {
		case <-w.Events:
		default:
			return
		}
	}
}
