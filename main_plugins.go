package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// pluginFlag is --plugin DIR, repeatable: plugin folders loaded as they are,
// so an author can try a plugin without installing it. Each is a plugin of
// marketplace "local" named by its manifest, in the order given.
type pluginFlag []hooks.PluginConfig

func (f *pluginFlag) String() string {
	if f == nil {
		return ""
	}
	roots := make([]string, len(*f))
	for i, c := range *f {
		roots[i] = c.Root
	}
	return strings.Join(roots, ",")
}

// Set takes one folder. A mistyped path is an error now rather than a plugin
// that silently has no hooks.
func (f *pluginFlag) Set(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("no plugin folder %s", abs)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder: give the plugin's root folder (the one holding .codex-plugin/ or .claude-plugin/)", abs)
	}
	*f = append(*f, hooks.PluginConfig{Root: abs})
	return nil
}
