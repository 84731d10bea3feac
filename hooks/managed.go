package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tidwall/gjson"
)

// Managed hooks come from the requirements.toml an administrator deploys (its
// path is given by the host). They load before every other source, are always
// trusted and enabled, and they are policy: a managed hook that cannot be
// loaded as written refuses the session rather than leave it unguarded
// (reference/codex-hooks.md 2.1). The same file may restrict every other
// source (allow_managed_hooks_only) and force the hooks feature on or off.
//
//	allow_managed_hooks_only = true
//	[features]
//	hooks = true
//	[hooks]
//	managed_dir = "/etc/codex/hooks"          # windows_managed_dir on Windows
//	[[hooks.PreToolUse]]
//	matcher = "Bash"
//	[[hooks.PreToolUse.hooks]]
//	type = "command"
//	command = "/etc/codex/hooks/guard.sh"

// requirements is what discovery takes from the managed requirements.toml.
type requirements struct {
	// path is the file read, "" when there was none.
	path string
	// managedOnly is allow_managed_hooks_only: no other source may run.
	managedOnly bool
	// hooksFeature is [features].hooks (or codex_hooks) when the file sets it:
	// the administrator forces hooks on or off.
	hooksFeature *bool
}

// Discovery is everything one discovery pass found.
type Discovery struct {
	// Hooks in display order, with trust, enablement and policy applied.
	Hooks    []*Hook
	Warnings []Warning
	// Fatal lists problems that must stop a session from starting: the
	// managed requirements cannot be read, or a required managed hook cannot
	// be loaded as written.
	Fatal []error
	// Settings are values a profile's own discovery read for rules applied
	// at run time (Mirri's experimental rewrite flag and hook engine). The
	// engine copies them into its State, where AfterCombine reads them. Nil
	// for codex.
	Settings map[string]string
	// Project says whether the project is trusted and who decided (nil
	// without a project layer); LeftOut lists sources that exist but whose
	// hooks do not run (untrusted project, a disabled plugin, managed-only,
	// hooks turned off). The engine fills Project after the profile's
	// Discover, and adds to the LeftOut it gives (its disabled plugins)
	// those of the project and of the policies.
	Project *ProjectStatus
	LeftOut []LeftOut
}

// Discover runs the profile's discovery for callers that only need hooks and
// warnings.
func Discover(p *Profile, opts DiscoverOptions) ([]*Hook, []Warning) {
	r := p.discover(opts)
	return r.Hooks, r.Warnings
}

// Fail records a problem that must stop the session from starting.
func (d *DiscoveryRun) Fail(format string, args ...any) {
	d.Fatal = append(d.Fatal, fmt.Errorf(format, args...))
}

// managed loads the managed requirements at path. A file that does not exist
// means there are no requirements (hosts may always name the default path);
// one that exists but cannot be read or parsed is fatal, since ignoring an
// administrator's policy would be silent.
func (d *DiscoveryRun) managed(p *Profile, path string) {
	if path == "" {
		return
	}
	path = AbsClean(path)
	data, err := ReadConfigFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		d.Fail("failed to load required managed hooks: read managed requirements %s: %v", path, err)
		return
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			err = fmt.Errorf("%s (line %d, column %d)", de.Error(), line, col)
		}
		d.Fail("failed to load required managed hooks: parse managed requirements %s: %v", path, err)
		return
	}
	d.req.path = path
	if v, ok := doc["allow_managed_hooks_only"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			d.Fail("failed to load required managed hooks: allow_managed_hooks_only in %s must be true or false", path)
		}
		d.req.managedOnly = b
	}
	if on, set, err := featureFlag(doc); err != nil {
		d.Fail("failed to load required managed hooks: %v in %s", err, path)
	} else if set {
		d.req.hooksFeature = &on
	}

	raw, ok := doc["hooks"]
	if !ok {
		return
	}
	table, ok := raw.(map[string]any)
	if !ok {
		d.Fail("failed to load required managed hooks: hooks in %s must be a table", path)
		return
	}
	dirKey := "managed_dir"
	if runtime.GOOS == "windows" {
		dirKey = "windows_managed_dir"
	}
	keySource, ok := d.managedDir(table, dirKey, path)
	if !ok {
		return
	}
	events := make(map[string]any, len(table))
	for k, v := range table {
		switch k {
		case "managed_dir", "windows_managed_dir":
		case "state":
			d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf(
				"ignoring hooks.state in %s: managed hooks are always trusted and enabled", path)})
		default:
			events[k] = v
		}
	}
	text, err := TOMLToJSON(events)
	if err != nil {
		d.Fail("failed to load required managed hooks: %s: %v", path, err)
		return
	}
	w := NewWalker(p, Source{Layer: LayerManaged, Path: path}, keySource, nil)
	w.WalkHooks(gjson.ParseBytes(text), "hooks")
	for _, wr := range w.Warns {
		if dropsEntry(wr) {
			d.Fail("failed to load required managed hooks: %s", wr.Message)
		} else {
			d.Warns = append(d.Warns, wr)
		}
	}
	d.Hooks = append(d.Hooks, w.Hooks...)
}

// managedDir returns the key source of the managed hooks: the platform's
// managed hook folder when one is configured (it must exist; otherwise the
// managed hooks are skipped with a warning, as Codex does), else the
// requirements file itself.
func (d *DiscoveryRun) managedDir(table map[string]any, dirKey, path string) (string, bool) {
	v, ok := table[dirKey]
	if !ok {
		return path, true
	}
	dir, isString := v.(string)
	if !isString {
		d.Fail("failed to load required managed hooks: hooks.%s in %s must be a string", dirKey, path)
		return "", false
	}
	skip := func(why string) (string, bool) {
		d.Warns = append(d.Warns, Warning{Source: path, Message: fmt.Sprintf(
			"skipping managed hooks from %s: managed hook directory %s %s", path, dir, why)})
		return "", false
	}
	if !filepath.IsAbs(dir) {
		return skip("is not absolute")
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return skip("does not exist")
	case err != nil:
		return skip(fmt.Sprintf("cannot be read: %v", err))
	case !fi.IsDir():
		return skip("is not a directory")
	}
	return filepath.Clean(dir), true
}

// dropsEntry reports whether a walker warning means a group, a handler or a
// whole event was left out (as opposed to a field being ignored). For managed
// hooks such a warning is a load error.
func dropsEntry(w Warning) bool {
	for _, prefix := range []string{"skipping ", "invalid matcher ", "failed to parse ", "ignoring hook event "} {
		if strings.HasPrefix(w.Message, prefix) {
			return true
		}
	}
	return false
}

// featureFlag reads [features].hooks, or its older name codex_hooks, from a
// decoded config or requirements file. The current name wins when both are set.
func featureFlag(doc map[string]any) (on, set bool, err error) {
	raw, ok := doc["features"]
	if !ok {
		return false, false, nil
	}
	features, ok := raw.(map[string]any)
	if !ok {
		return false, false, errors.New("features must be a table")
	}
	for _, name := range []string{"hooks", "codex_hooks"} {
		if v, ok := features[name]; ok {
			b, isBool := v.(bool)
			if !isBool {
				return false, false, fmt.Errorf("features.%s must be true or false", name)
			}
			return b, true, nil
		}
	}
	return false, false, nil
}
