package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

// The review commands: what Codex's /hooks screen does, from the command line.
// They discover hooks with the same flags as list, so the keys they take are
// the keys list prints.

func newTrustCmd(cio *cmdIO) *cobra.Command {
	ef := &engineFlags{}
	var all bool
	cmd := &cobra.Command{
		Use:   "trust KEY... | trust --all [flags]",
		Short: "Record hooks as reviewed (trusted) in the user config.toml",
		Long: `Records the current content (hash) of each hook as reviewed in the user config.toml
([hooks.state."KEY"] trusted_hash), so the hook runs from now on. Enabled/disabled is kept.
The keys are those "hookd list" prints with the same flags.`,
		RunE: func(cmd *cobra.Command, keys []string) error {
			if (len(keys) == 0) != all {
				if all {
					return usagef("give KEYs or --all, not both")
				}
				return usagef("missing KEY: hookd trust KEY... (the keys hookd list prints), or hookd trust --all")
			}
			return trustHooks(ef, all, keys, cio)
		},
	}
	ef.register(cmd.Flags())
	cmd.Flags().BoolVar(&all, "all", false, "trust every hook that awaits review (untrusted, or modified since trusted)")
	return cmd
}

func trustHooks(ef *engineFlags, all bool, keys []string, cio *cmdIO) error {
	stdout := cio.stdout
	e, err := reviewEngine(ef, cio.stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	if all {
		list, _ := e.List("")
		for _, h := range list {
			if h.Trust == hooks.TrustUntrusted || h.Trust == hooks.TrustModified {
				keys = append(keys, h.Key)
			}
		}
		if len(keys) == 0 {
			fmt.Fprintln(stdout, "no hooks await review")
			return nil
		}
	}
	trusted, err := e.Trust(keys)
	if err != nil {
		return cliEngineError(err)
	}
	for _, t := range trusted {
		fmt.Fprintf(stdout, "trusted %s %s\n", t.Key, t.Hash)
	}
	return nil
}

func newSetEnabledCmd(cio *cmdIO, enable bool) *cobra.Command {
	name := map[bool]string{true: "enable", false: "disable"}[enable]
	ef := &engineFlags{}
	cmd := &cobra.Command{
		Use:   name + " KEY... [flags]",
		Short: map[bool]string{true: "Allow a hook to run", false: "Stop a hook from running"}[enable],
		Long: fmt.Sprintf(`%s a hook by recording enabled = %v in the user config.toml ([hooks.state."KEY"]).
Trust is kept. Managed hooks cannot be disabled. The keys are those "hookd list" prints.`,
			map[bool]string{true: "Allows", false: "Stops"}[enable], enable),
		RunE: func(cmd *cobra.Command, keys []string) error {
			if len(keys) == 0 {
				return usagef("missing KEY: hookd %s KEY... (the keys hookd list prints)", name)
			}
			return setEnabled(ef, enable, keys, cio)
		},
	}
	ef.register(cmd.Flags())
	return cmd
}

func setEnabled(ef *engineFlags, enable bool, keys []string, cio *cmdIO) error {
	name := map[bool]string{true: "enable", false: "disable"}[enable]
	e, err := reviewEngine(ef, cio.stderr)
	if err != nil {
		return err
	}
	defer e.Close()
	// Check every key before writing any, so a typo changes nothing.
	list, _ := e.List("")
	known := map[string]bool{}
	var all []string
	for _, h := range list {
		known[h.Key] = true
		all = append(all, h.Key)
	}
	for _, k := range keys {
		if !known[k] {
			return cliEngineError(&hooks.ParamError{Field: "key", Msg: fmt.Sprintf("unknown hook key %q%s", k, didYouMean(k, all))})
		}
	}
	for _, k := range keys {
		if err := e.SetEnabled(k, enable); err != nil {
			return cliEngineError(err)
		}
		fmt.Fprintf(cio.stdout, "%sd %s\n", name, k)
	}
	return nil
}

// reviewEngine discovers hooks for the review commands. Warnings go to stderr
// as list prints them.
func reviewEngine(ef *engineFlags, stderr io.Writer) (*hooks.Engine, error) {
	opts, err := ef.options(stderr)
	if err != nil {
		return nil, usageError{err}
	}
	e := hooks.New(opts)
	if _, err := e.LoadChecked(); err != nil {
		e.Close()
		return nil, err
	}
	_, warnings := e.List("")
	_ = printWarnings(stderr, warnings, false)
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
