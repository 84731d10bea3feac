package rpc

import (
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/hookd/hookd/hooks"
)

// watchDebounce is how long the sources must stay quiet before a reload: an
// editor's save is several events, and a git checkout many.
const watchDebounce = 200 * time.Millisecond

// hooksChanged is hooks/changed's params: the reload's summary, as
// initialize's hooks field, and what it changed.
type hooksChanged struct {
	hooks.Summary
	Added          []string `json:"added"`
	Removed        []string `json:"removed"`
	AwaitingReview []string `json:"awaitingReview"`
}

// watchSources reloads the hook set when its source folders change
// (initialize's config.watch), once they have been quiet for watchDebounce,
// and tells the host what changed with hooks/changed. It ends with the
// session. fsnotify watches folders, not trees: each folder hooks come from
// is watched, and the set grows when a reload finds new ones.
func (s *Server) watchSources(e *hooks.Engine) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	for _, dir := range e.WatchFolders() {
		if err := w.Add(dir); err != nil {
			s.log.Warn("cannot watch hook folder", "dir", dir, "error", err)
		}
	}
	go func() {
		defer w.Close()
		var quiet *time.Timer
		var fire <-chan time.Time
		for {
			select {
			case <-s.base.Done():
				if quiet != nil {
					quiet.Stop()
				}
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				s.log.Debug("hook source changed", "path", ev.Name, "op", ev.Op.String())
				if quiet == nil {
					quiet = time.NewTimer(watchDebounce)
				} else {
					quiet.Reset(watchDebounce)
				}
				fire = quiet.C
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				s.log.Warn("watching hook folders", "error", err)
			case <-fire:
				fire = nil
				s.reloadChanged(e)
				for _, dir := range e.WatchFolders() {
					if !slices.Contains(w.WatchList(), dir) {
						_ = w.Add(dir)
					}
				}
			}
		}
	}()
	return nil
}

// reloadChanged reloads and, when the hook set or its review state changed,
// sends hooks/changed and the new warnings.
func (s *Server) reloadChanged(e *hooks.Engine) {
	before, beforeWarnings := e.List("")
	sum, err := e.LoadChecked()
	if err != nil {
		s.logMessage(LogError, "hooks changed on disk but were not reloaded: "+err.Error()+"; the hooks loaded before stay in use")
		return
	}
	after, warnings := e.List("")
	was := map[string]string{}
	for _, h := range before {
		was[h.Key] = h.Hash + " " + h.Trust
	}
	ch := hooksChanged{Summary: sum, Added: []string{}, Removed: []string{}, AwaitingReview: []string{}}
	same := len(before) == len(after)
	now := map[string]bool{}
	for _, h := range after {
		now[h.Key] = true
		prev, ok := was[h.Key]
		switch {
		case !ok:
			ch.Added = append(ch.Added, h.Key)
			same = false
		case prev != h.Hash+" "+h.Trust:
			same = false
		}
		if h.Trust == hooks.TrustUntrusted || h.Trust == hooks.TrustModified {
			ch.AwaitingReview = append(ch.AwaitingReview, h.Key)
		}
	}
	for _, h := range before {
		if !now[h.Key] {
			ch.Removed = append(ch.Removed, h.Key)
		}
	}
	if same && slices.Equal(warningTexts(beforeWarnings), warningTexts(warnings)) {
		return // an unrelated file, or hook state written by hooks/trust
	}
	s.notify("hooks/changed", ch)
	s.reportLoad(e, warnings)
}

func warningTexts(ws []hooks.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = FormatWarning(w)
	}
	return out
}
