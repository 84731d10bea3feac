package hooks

import (
	"github.com/hookd/hookd/internal/regfile"
	"github.com/hookd/hookd/spill"
)

// boundStderr keeps a handler's stderr in the reply within spill.DefaultLimit
// tokens, as context is kept: a longer stderr becomes a preview naming the
// spill file that holds it whole. Without it, 16 hooks printing 4 MiB each
// made a 64 MiB reply, past hookd's own inbound limit and most hosts'.
func (e *Engine) boundStderr(r *HookRun, raw RawResult) {
	size := int64(len(raw.Stderr)) + raw.StderrDropped
	if !spill.Over(size, spill.DefaultLimit) {
		return
	}
	if path := raw.StderrSpilled; path != "" {
		// Past the capture cap the file already holds it all. The spill
		// folder is the user's, which hooks can write: opened as any file
		// a hook could have replaced.
		f, err := regfile.Open(path)
		if err != nil {
			e.log.Warn("read spilled stderr", "err", err)
			r.Stderr = ""
			return
		}
		defer f.Close()
		p, err := spill.Preview(f, size, spill.DefaultLimit, path)
		if err != nil {
			e.log.Warn("preview spilled stderr", "err", err)
			r.Stderr = ""
			return
		}
		r.Stderr = p
		return
	}
	t, err := spill.Limit(e.opts.Session.ID, raw.Stderr, spill.DefaultLimit)
	if err != nil {
		e.log.Warn("cannot spill hook stderr; the reply gets a preview without a file", "err", err)
	}
	r.Stderr, r.StderrSpilled = t.Text, t.Path
}
