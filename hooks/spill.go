package hooks

import (
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/hookd/hookd/hooks/proc"
	"github.com/hookd/hookd/spill"
)

// Large output never reaches the model whole and is never lost. After an
// event's results are combined, each additionalContext text above its
// handler's additionalContextLimit, the PostToolUse feedback and each
// Stop/SubagentStop continuation fragment above the default limit (or its
// handler's limit, in profiles whose Stop accepts one) are
// replaced by a preview that names a spill file holding the whole text
// (package spill). Separately, a handler's stdout or stderr past the capture
// cap is streamed to a spill file as it arrives instead of being dropped.

// spillResult applies the spill limits to a combined result. outs are the
// outcomes it was combined from; their hooks give each context its limit.
func (e *Engine) spillResult(res *Result, outs []Outcome) {
	byKey := make(map[string]*Outcome, len(outs))
	for i := range outs {
		if outs[i].Hook != nil {
			byKey[outs[i].Hook.Key] = &outs[i]
		}
	}
	for i := range res.AdditionalContext {
		c := &res.AdditionalContext[i]
		limit := spill.DefaultLimit
		o := byKey[c.Hook]
		if o != nil && o.Hook.Handler.AdditionalContextLimit != nil {
			limit = *o.Hook.Handler.AdditionalContextLimit
		}
		if o != nil && o.Raw.StdoutSpilled != "" && c.Text == strings.TrimSpace(o.Raw.Stdout) {
			e.spillOverflowedContext(c, o.Raw, limit)
			continue
		}
		t := e.limitText(c.Text, limit)
		c.Text, c.Spilled, c.Bytes = t.Text, t.Path, int(t.Bytes)
	}
	if res.Feedback != "" {
		res.Feedback = e.limitText(res.Feedback, spill.DefaultLimit).Text
	}
	if res.Continuation != "" {
		// The continuation is the blocking handlers' reasons joined in
		// order; each fragment is limited on its own, as in Codex.
		var frags []string
		var limits []int
		var from []*Hook
		for i := range outs {
			if outs[i].Block {
				frags = append(frags, outs[i].Reason)
				from = append(from, outs[i].Hook)
				// A handler's own limit applies where its event accepts
				// one (Mind's Stop); elsewhere it is never set.
				limit := spill.DefaultLimit
				if h := outs[i].Hook; h != nil && h.Handler.AdditionalContextLimit != nil {
					limit = *h.Handler.AdditionalContextLimit
				}
				limits = append(limits, limit)
			}
		}
		if strings.Join(frags, "\n\n") == res.Continuation {
			for i := range frags {
				frags[i] = e.limitText(frags[i], limits[i]).Text
				// Hosts that wrap each fragment (Codex's
				// <hook_prompt hook_run_id=...>) get them one by one.
				if e.profile.HookRunID != nil {
					part := ContinuationPart{Text: frags[i], hook: from[i]}
					if from[i] != nil {
						part.Hook = from[i].Key
					}
					res.ContinuationParts = append(res.ContinuationParts, part)
				}
			}
			res.Continuation = strings.Join(frags, "\n\n")
		}
	}
	if e.profile.Spill != nil {
		for i := range res.SystemMessages {
			res.SystemMessages[i].Text = e.limitText(res.SystemMessages[i].Text, 0).Text
		}
	}
}

// limitText applies one limit; a spill file that cannot be written still
// gives a preview, and the problem is logged.
func (e *Engine) limitText(text string, limit int) spill.Text {
	var t spill.Text
	var err error
	if e.profile.Spill != nil {
		t, err = e.profile.Spill.Limit(e.opts.Session.ID, text)
	} else {
		t, err = spill.Limit(e.opts.Session.ID, text, limit)
	}
	if err != nil {
		e.log.Warn("cannot spill hook output; the model gets a preview without a file", "err", err)
	}
	return t
}

// spillOverflowedContext handles plain-text context from a handler whose
// stdout passed the capture cap: the text in memory is only its head, and the
// whole output is already in the stdout spill file, so the preview is made
// from that file. With limit 0 (never spill) the head stays inline and the
// entry still names the file.
func (e *Engine) spillOverflowedContext(c *ContextEntry, raw RawResult, limit int) {
	path := raw.StdoutSpilled
	size := int64(len(raw.Stdout)) + raw.StdoutDropped
	c.Spilled, c.Bytes = path, int(size)
	if limit <= 0 && e.profile.Spill == nil {
		return
	}
	f, err := spill.Open(e.opts.Session.ID, path)
	if err != nil {
		e.log.Warn("read spilled stdout", "err", err)
		return
	}
	defer f.Close()
	if e.profile.Spill != nil {
		p, err := e.profile.Spill.Preview(f, size, path)
		if err != nil {
			e.log.Warn("preview spilled stdout", "err", err)
			return
		}
		c.Text = p
		return
	}
	if !spill.Over(size, limit) {
		// A limit above the capture cap: the whole output fits after all.
		whole, err := io.ReadAll(io.LimitReader(f, size))
		if err == nil {
			c.Text, c.Spilled, c.Bytes = strings.TrimSpace(string(whole)), "", 0
		}
		return
	}
	p, err := spill.Preview(f, size, limit, path)
	if err != nil {
		e.log.Warn("preview spilled stdout", "err", err)
		return
	}
	c.Text = p
}

// overflow streams a handler's output past the capture cap into spill files,
// one per stream, so that nothing a hook prints is lost while hookd's memory
// stays bounded. proc serialises the calls to write; finish runs after.
type overflow struct {
	session string
	log     *slog.Logger
	// kept is how many bytes of each stream proc keeps in memory; the file
	// gets the rest at that offset, and the kept head is written in front
	// once the run is over.
	kept   int64
	files  map[string]*os.File
	failed map[string]bool
}

func (e *Engine) newOverflow() *overflow {
	kept := e.opts.MaxOutput
	if kept <= 0 {
		kept = proc.DefaultMaxOutput
	}
	// The maps are made by the first write: most hooks never reach the cap.
	return &overflow{session: e.opts.Session.ID, log: e.log, kept: int64(kept)}
}

// write is proc.Command.Overflow.
func (o *overflow) write(stream string, p []byte) {
	if o.failed[stream] {
		return
	}
	f := o.files[stream]
	if f == nil {
		var err error
		if o.files == nil {
			o.files, o.failed = map[string]*os.File{}, map[string]bool{}
		}
		if f, err = spill.Create(o.session); err == nil {
			_, err = f.Seek(o.kept, io.SeekStart)
		}
		if err != nil {
			o.fail(stream, f, err)
			return
		}
		o.files[stream] = f
	}
	if _, err := f.Write(p); err != nil {
		o.fail(stream, f, err)
	}
}

func (o *overflow) fail(stream string, f *os.File, err error) {
	o.log.Warn("cannot spill hook output past the capture cap; the rest is dropped", "stream", stream, "err", err)
	o.failed[stream] = true
	delete(o.files, stream)
	if f != nil {
		spill.Discard(o.session, f)
	}
}

// finish writes each spilled stream's kept head in front of its file and
// records the files in raw.
func (o *overflow) finish(raw *RawResult) {
	if len(o.files) == 0 {
		return
	}
	for _, s := range [...]struct {
		stream string
		dst    *string
	}{{"stdout", &raw.StdoutSpilled}, {"stderr", &raw.StderrSpilled}} {
		stream, dst := s.stream, s.dst
		f := o.files[stream]
		if f == nil {
			continue
		}
		head := raw.Stdout
		if stream == "stderr" {
			head = raw.Stderr
		}
		_, err := f.Seek(0, io.SeekStart)
		if err == nil {
			_, err = f.WriteString(head)
		}
		if err != nil {
			o.fail(stream, f, err) // closes and removes it
			continue
		}
		if err := f.Close(); err != nil {
			o.fail(stream, nil, err)
			spill.Discard(o.session, f)
			continue
		}
		*dst = f.Name()
	}
}
