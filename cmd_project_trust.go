package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hookd/hookd/hooks"
)

// optBool is a boolean flag that remembers whether it was given, so
// --trust-project=false (the host's "no") differs from no flag at all (the
// profile's own trust record decides).
type optBool struct{ set, val bool }

func (b *optBool) String() string   { return strconv.FormatBool(b.val) }
func (b *optBool) IsBoolFlag() bool { return true }
func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, not %q", s)
	}
	b.set, b.val = true, v
	return nil
}

// cmdTrustProject records the project folder as trusted (or not) in the
// host's own record, so the host and hookd agree.
func cmdTrustProject(ef *engineFlags, dirs []string, untrust bool, stdout, stderr io.Writer) error {
	if len(dirs) > 1 {
		return fmt.Errorf("hookd trust --project takes one folder, got %d", len(dirs))
	}
	opts, err := ef.options(stderr)
	if err != nil {
		return err
	}
	dir := opts.Discover.ProjectRoot
	if len(dirs) == 1 {
		abs, err := filepath.Abs(dirs[0])
		if err != nil {
			return err
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return fmt.Errorf("hookd trust --project: %s is not a folder", abs)
		}
		dir = hooks.FindProjectRoot(abs)
	}
	rec, err := hooks.SetProjectTrust(opts.Profile, opts.Discover.Home, dir, !untrust)
	if err != nil {
		return err
	}
	word := "trusted"
	if untrust {
		word = "untrusted"
	}
	fmt.Fprintf(stdout, "%s project %s (recorded in %s)\n", word, rec.Dir, rec.File)
	return nil
}

// printLeftOut says which hooks sources exist but do not run, and the
// command that changes each.
func printLeftOut(w io.Writer, prefix string, leftOut []hooks.LeftOut) {
	for _, lo := range leftOut {
		fmt.Fprintf(w, "%s%s\n%s  to change it: %s\n", prefix, lo.Message, prefix, lo.Fix)
	}
}
