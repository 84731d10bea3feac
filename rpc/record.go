package rpc

import (
	"errors"
	"fmt"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/regfile"
)

// A Record is one line of a recording (hookd serve --record, initialize's
// config.record): a hooks/run request and what it returned. hookd replay
// reads them back.
type Record struct {
	Time    time.Time       `json:"time"`
	Profile string          `json:"profile"`
	Event   string          `json:"event"`
	TurnID  string          `json:"turnId,omitempty"`
	Input   json.RawMessage `json:"input"`
	Result  *hooks.Result   `json:"result"`
}

// recorder appends records to one file. Each record is one write of one
// line, under a lock, so concurrent runs never interleave.
type recorder struct {
	mu      sync.Mutex
	path    string
	profile string
}

// openRecorder checks the recording file can be appended to, now rather
// than at the first run.
func (s *Server) openRecorder(p *initializeParams, profile string) (*recorder, error) {
	path := s.opts.Record
	if p.Config.Record != nil {
		path = *p.Config.Record
	}
	if path == "" {
		return nil, nil
	}
	if err := CheckRecordFile(path); err != nil {
		return nil, invalidParams("invalid params: field \"config.record\": %v", err)
	}
	return &recorder{path: path, profile: profile}, nil
}

// CheckRecordFile makes sure a recording can be appended to path: a regular
// file, or none yet (it is created). A FIFO, a device or a socket is
// refused, and the open never waits for a FIFO's reader (regfile).
func CheckRecordFile(path string) error {
	f, err := regfile.OpenAppend(path, 0o600)
	if errors.Is(err, regfile.ErrNotRegular) {
		return fmt.Errorf("%s is %w", path, err)
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// recording reports whether the session records its runs.
func (s *Server) recording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.record != nil
}

// recordRun appends one run when the session records; a failure to write
// is logged, never the run's failure.
func (s *Server) recordRun(event, turnID string, input []byte, res *hooks.Result) {
	s.mu.Lock()
	r := s.record
	s.mu.Unlock()
	if r == nil {
		return
	}
	if input == nil {
		input = []byte("{}")
	}
	line, err := json.Marshal(Record{Time: time.Now().UTC(), Profile: r.profile, Event: event, TurnID: turnID, Input: input, Result: res})
	if err == nil {
		err = r.append(append(line, '\n'))
	}
	if err != nil {
		s.log.Warn("cannot record hooks/run", "file", r.path, "error", err)
	}
}

func (r *recorder) append(line []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Opened again for each run, and checked again: the file may have been
	// replaced since (by a FIFO, say), and hookd must not wait on it.
	f, err := regfile.OpenAppend(r.path, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return fmt.Errorf("append to %s: %w", r.path, err)
	}
	return f.Close()
}
