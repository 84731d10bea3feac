package cli

// Loading the engine: discovery with the flags' options, and engine errors
// worded for the command line.

import (
	"errors"
	"fmt"
	"io"

	"github.com/hookd/hookd/hooks"
)

// reviewEngine discovers hooks for the review commands. Warnings go to stderr
// as list prints them.
func reviewEngine(ef *engineFlags, stderr io.Writer) (*hooks.Engine, error) {
	opts, err := ef.options(stderr)
	if err != nil {
		return nil, usageError{err}
	}
	e, err := loadEngine(opts)
	if err != nil {
		return nil, err
	}
	_ = printWarnings(stderr, e.Warnings(), false)
	return e, nil
}

// loadEngine makes the engine opts describe and discovers its hooks. Close
// it when done.
func loadEngine(opts hooks.Options) (*hooks.Engine, error) {
	e := hooks.New(opts)
	if _, err := e.LoadChecked(); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

// cliEngineError says what to do next about an engine error.
func cliEngineError(err error) error {
	var pe *hooks.ParamError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s; run \"hookd list\" with the same flags to see the keys (project hooks need --trust-project)", pe.Msg)
	}
	return err
}
