package gemini

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
	"github.com/hookd/hookd/plugins"
)

// Profile is Gemini CLI's profile (reference/other-hosts.md section 1):
// settings.json layers and extensions, no review beyond folder trust,
// parallel command handlers with millisecond timeouts.
var Profile = &hooks.Profile{
	Name:        "gemini",
	HomeDir:     ".gemini",
	HomeBaseEnv: homeEnv,
	ProjectDir:  ".gemini",
	Events:      geminiEventRules(),
	// A project's settings need folder trust: the host's answer
	// (project.trusted), else its own record (trustedFolders.json);
	// nothing else is reviewed.
	Trust:        false,
	ProjectTrust: projectTrust{},
	// Per-hook switches live in hooksConfig.disabled, the host's own.
	NoEnablement: true,
	// SIGTERM, then SIGKILL five seconds later.
	KillGrace:    5 * time.Second,
	Discover:     discover,
	Dedupe:       dedupe,
	PrepareInput: prepareInput,
	Chain:        chain,
	QuietFields:  map[string]bool{"sequential": true, "name": true, "description": true, "env": true},
	ReadHandler:  readHandler,
	HandlerKinds: map[string]func(e *hooks.Engine) hooks.HandlerKind{hooks.TypeCommand: commandKind},
	HandlerTypes: []string{hooks.TypeCommand},
	// POSIX hosts run bash -c, not a login shell.
	Shell: []string{"bash", "-c"},
}

func init() { hooks.Register(Profile) }

const (
	settingsName  = "settings.json"
	extensionFile = "gemini-extension.json"
	// installFile records where a linked extension lives.
	installFile = ".gemini-extension-install.json"
	// systemSettingsEnv overrides the system settings path.
	systemSettingsEnv = "GEMINI_CLI_SYSTEM_SETTINGS_PATH"
	systemSettings    = "/etc/gemini-cli/settings.json"
	// systemDefaultsEnv overrides the system defaults path, else
	// systemDefaultsName beside the system settings file.
	systemDefaultsEnv  = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"
	systemDefaultsName = "system-defaults.json"
	// layerSystemDefaults marks the system defaults among the settings
	// files (its hooks are of the managed layer): the lowest layer, whose
	// hooksConfig.enabled any other file's overrides.
	layerSystemDefaults = "system-defaults"
	// homeEnv replaces the user's home folder (its .gemini folder is used).
	homeEnv = "GEMINI_CLI_HOME"
	// envName is the hook Env key that carries the handler's "name".
	envName = "\x00name"
)

// readHandler reads the keys Gemini CLI's handlers have besides the
// walker's: timeout is in milliseconds (default 60000), env is added to the
// hook's environment, name identifies the hook in hooksConfig.disabled and
// for deduplication.
func readHandler(ev *hooks.EventRules, raw gjson.Result, h *hooks.Hook) (string, bool) {
	var warns []string
	ms := geminiDefaultTimeoutMs
	if t := raw.Get("timeout"); t.Type == gjson.Number && t.Int() > 0 {
		ms = int(t.Int())
	}
	h.Handler.SetTimeoutMs(ms)
	if env := raw.Get("env"); env.Exists() && env.Type != gjson.Null {
		if !env.IsObject() {
			warns = append(warns, `ignoring "env": expected an object of strings`)
		} else {
			env.ForEach(func(k, v gjson.Result) bool {
				h.SetEnv(k.Str, v.String())
				return true
			})
		}
	}
	if n := raw.Get("name"); n.Type == gjson.String && n.Str != "" {
		h.SetEnv(envName, n.Str)
	}
	return strings.Join(warns, "; "), false
}

// hookName is the handler's name, or "".
func hookName(h *hooks.Hook) string { return h.Env[envName] }

// settingsFile is what discovery takes from one settings file besides its
// hooks: hooksConfig.enabled and hooksConfig.disabled.
type settingsFile struct {
	path     string
	layer    string
	enabled  *bool
	disabled []string
}

type discovery struct{ hooks.DiscoveryRun }

// discover loads, in Gemini CLI's order: the session hooks, the system
// defaults, the user's ~/.gemini/settings.json, the trusted workspace's
// .gemini/settings.json, the system settings and the extensions'
// hooks/hooks.json. Each event's hooks add up over the layers.
// hooksConfig.enabled false (the most specific layer that sets it; system
// settings over all, system defaults under all) keeps every hook from running;
// hooksConfig.disabled names hooks (by name or command) that do not run,
// unioned over the layers.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	var files []settingsFile
	// In a folder that is not trusted (the host says so, or its record
	// does), Gemini CLI loads no settings hooks at all (system, user and
	// workspace: its merged settings); session and extension hooks still
	// load.
	untrusted := hooks.ProjectDeclined(opts)
	// Gemini CLI's order: session (runtime) hooks first, then its merged
	// settings, whose hook arrays concatenate user, workspace and system
	// in that order, then the extensions.
	if len(opts.SessionHooks) > 0 {
		hs, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hs, warns)
	}
	// The system defaults come first: Gemini CLI merges them under the
	// user's settings (defaults, user, workspace, system).
	if path := d.systemFile(systemDefaultsPath(), "system defaults"); path != "" {
		if s, ok := d.settings(p, path, hooks.LayerManaged); ok {
			s.layer = layerSystemDefaults
			files = append(files, s)
		}
	}
	home := userFolder(opts.Home)
	if home != "" {
		if s, ok := d.settings(p, filepath.Join(home, settingsName), hooks.LayerUser); ok {
			files = append(files, s)
		}
	}
	if dir := hooks.ProjectFolder(p, opts, home); dir != "" {
		if s, ok := d.settings(p, filepath.Join(dir, settingsName), hooks.LayerProject); ok {
			files = append(files, s)
		}
	}
	// A file named with --managed (or the host's config.managed) is read
	// as named; the one hookd finds itself ($GEMINI_CLI_SYSTEM_SETTINGS_PATH,
	// else /etc/gemini-cli/settings.json) only when Gemini CLI would read
	// it: it and every folder above it belong to root and no one else may
	// write to them.
	sys := opts.Managed
	if sys == "" {
		sys = d.systemFile(systemSettingsPath(), "system settings")
	}
	if sys != "" {
		if s, ok := d.settings(p, hooks.AbsClean(sys), hooks.LayerManaged); ok {
			files = append(files, s)
		}
	}
	if untrusted {
		// The files' hooksConfig still applies.
		d.Hooks = slices.DeleteFunc(d.Hooks, func(h *hooks.Hook) bool {
			return h.Source.Layer == hooks.LayerManaged || h.Source.Layer == hooks.LayerUser || h.Source.Layer == hooks.LayerProject
		})
		if len(files) > 0 {
			d.Warns = append(d.Warns, hooks.Warning{Source: files[0].path, Message: "not running the settings files' hooks: the folder is not trusted (Gemini CLI loads none there)"})
		}
	}
	d.extensions(p, opts, home)
	for i, h := range d.Hooks {
		h.Order = i
	}
	d.finish(files)
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal, LeftOut: d.LeftOut}
}

// systemSettingsPath is where Gemini CLI looks for its system settings.
func systemSettingsPath() string {
	if p := os.Getenv(systemSettingsEnv); p != "" {
		return p
	}
	return systemSettings
}

// systemDefaultsPath is where Gemini CLI looks for its system defaults.
func systemDefaultsPath() string {
	if p := os.Getenv(systemDefaultsEnv); p != "" {
		return p
	}
	return filepath.Join(filepath.Dir(systemSettingsPath()), systemDefaultsName)
}

// systemCheck is systemFileInsecure; tests that cannot make a folder
// chain only root may write replace it.
var systemCheck = systemFileInsecure

// systemFile is path (made absolute) when Gemini CLI would read it as a
// system file: it and every folder above it belong to root and no one
// else may write to them. Else "", with a warning naming what (label).
func (d *discovery) systemFile(path, label string) string {
	path = hooks.AbsClean(path)
	if why := systemCheck(path); why != "" {
		d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
			"not reading the %s file %s: %s (Gemini CLI reads it only when it and every folder above it belong to root and are not writable by group or others)", label, path, why)})
		return ""
	}
	return path
}

// userFolder is the user's .gemini folder: home when given, else under
// $GEMINI_CLI_HOME, else under the user's home.
func userFolder(home string) string {
	if home != "" {
		return hooks.AbsClean(home)
	}
	base := os.Getenv(homeEnv)
	if base == "" {
		h, err := os.UserHomeDir()
		if err != nil || h == "" {
			return ""
		}
		base = h
	}
	return filepath.Join(hooks.AbsClean(base), ".gemini")
}

// settings reads one settings file's hooks and hooksConfig. A missing file
// is the normal case; settings hold much more than hooks, so other keys are
// not reported.
func (d *discovery) settings(p *hooks.Profile, path, layer string) (settingsFile, bool) {
	s := settingsFile{path: path, layer: layer}
	root, w, ok := d.ReadSettings(p, path, layer, hooks.SettingsOptions{Prepare: stripComments})
	if !ok {
		return s, false
	}
	hc := root.Get("hooksConfig")
	if e := hc.Get("enabled"); e.Type == gjson.True || e.Type == gjson.False {
		b := e.Bool()
		s.enabled = &b
	}
	hc.Get("disabled").ForEach(func(_, v gjson.Result) bool {
		if v.Type == gjson.String {
			s.disabled = append(s.disabled, v.Str)
		}
		return true
	})
	for _, h := range w.Hooks {
		if layer != hooks.LayerManaged {
			h.Trust = hooks.TrustTrusted
		}
	}
	d.Add(w.Hooks, w.Warns)
	return s, true
}

// lineComment matches a // comment outside strings at the end of a line;
// Gemini CLI reads its settings with comments allowed.
var lineComment = lazyre.New(`(?m)^\s*//.*$`)

// stripComments blanks whole-line // comments, keeping offsets.
func stripComments(data []byte) []byte {
	return lineComment.ReplaceAllFunc(data, func(b []byte) []byte {
		return []byte(strings.Repeat(" ", len(b)))
	})
}

// extensions adds the hooks of each extension: the folders the host names
// (config.plugins, --plugin) and those installed under <home>/extensions (a
// linked one is found through its install record). An extension's
// hooks/hooks.json holds a top-level "hooks" object; ${extensionPath},
// ${workspacePath} and ${/} in its strings are filled in.
func (d *discovery) extensions(p *hooks.Profile, opts hooks.DiscoverOptions, home string) {
	roots := hooks.ExtensionRoots(opts, home, func(root string) string {
		if _, err := os.Stat(filepath.Join(root, extensionFile)); err == nil {
			return root
		}
		// A linked extension: its install record names the source folder.
		if data, err := hooks.ReadConfigFile(filepath.Join(root, installFile)); err == nil {
			if src := gjson.GetBytes(data, "source").Str; src != "" {
				if !filepath.IsAbs(src) {
					src = filepath.Join(root, src)
				}
				return src
			}
		}
		return ""
	})
	workspace := opts.ProjectRoot
	off := hooks.NewExtensionSwitch(home, opts, "gemini")
	for _, root := range roots {
		root = hooks.AbsClean(root)
		name := filepath.Base(root)
		if m, err := hooks.ReadConfigFile(filepath.Join(root, extensionFile)); err == nil {
			if n := gjson.GetBytes(m, "name").Str; n != "" {
				name = n
			}
		}
		if lo, ok := off.Disabled(name, root, off.Rules[name]); ok {
			d.LeftOut = append(d.LeftOut, lo)
			continue
		}
		path := filepath.Join(root, "hooks", "hooks.json")
		data, ok := d.Read(path)
		if !ok {
			continue
		}
		src := hooks.Source{Layer: hooks.LayerPlugin, Path: path, Plugin: name}
		w := hooks.NewWalker(p, src, name+":hooks/hooks.json", data)
		clean, ok := w.CheckJSON(data)
		if !ok {
			d.Add(nil, w.Warns)
			continue
		}
		h := gjson.GetBytes(clean, "hooks")
		if !h.IsObject() {
			d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
				"loading no hooks for extension %s: %s has no top-level \"hooks\" object", name, path)})
			continue
		}
		w.WalkHooks(h, "hooks")
		vars := extensionVars(root, workspace)
		var kept []*hooks.Hook
		for _, hk := range w.Hooks {
			if err := fillExtensionVars(hk, vars); err != nil {
				d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
					"skipping hook %s of extension %s: %v", hk.Key, name, err)})
				continue
			}
			hk.Trust = hooks.TrustTrusted
			kept = append(kept, hk)
		}
		d.Add(kept, w.Warns)
	}
}

// extensionVars are the placeholders Gemini CLI fills in an extension's
// strings: ${extensionPath}, ${workspacePath} and ${/}.
func extensionVars(root, workspace string) []plugins.Placeholder {
	return []plugins.Placeholder{
		{Text: "${extensionPath}", Value: root},
		{Text: "${workspacePath}", Value: workspace, Instead: "$GEMINI_PROJECT_DIR"},
		{Text: "${/}", Value: string(filepath.Separator)},
	}
}

// fillExtensionVars fills the placeholders in a hook's strings, as Gemini
// CLI fills them in every string of hooks/hooks.json: into the command
// through plugins.Paste (raw when the values are plain; a folder whose name
// holds shell syntax is refused, as it would run code), into the name and
// env values raw, as no shell reads them.
func fillExtensionVars(h *hooks.Hook, vars []plugins.Placeholder) error {
	cmd, err := plugins.Paste(h.Handler.Command, vars)
	if err != nil {
		return err
	}
	h.Handler.Command = cmd
	pairs := make([]string, 0, 2*len(vars))
	for _, v := range vars {
		pairs = append(pairs, v.Text, v.Value)
	}
	r := strings.NewReplacer(pairs...)
	for k, v := range h.Env {
		h.Env[k] = r.Replace(v)
	}
	return nil
}

// finish applies hooksConfig: enabled (system settings win, then the most
// specific layer) and disabled (names or commands, over all layers).
func (d *discovery) finish(files []settingsFile) {
	var off *settingsFile
	for i := range files {
		f := &files[i]
		if f.enabled != nil && (off == nil || off.layer != hooks.LayerManaged) {
			off = f
		}
	}
	disabled := map[string]bool{}
	for _, f := range files {
		for _, n := range f.disabled {
			disabled[n] = true
		}
	}
	for _, h := range d.Hooks {
		if h.Trust == "" || h.Trust == hooks.TrustUntrusted {
			h.Trust = hooks.TrustTrusted
		}
		h.Enabled = true
		switch {
		case off != nil && !*off.enabled:
			h.Policy = hooks.PolicyHooksDisabled
		case hookName(h) != "" && disabled[hookName(h)], hookName(h) == "" && disabled[h.Handler.Command]:
			// A named hook is disabled by its name only; its command no
			// longer disables it (Gemini CLI's hooks tests).
			h.Enabled = false
		}
	}
	if off != nil && !*off.enabled && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: off.path, Message: fmt.Sprintf(
			"hooks are turned off by hooksConfig.enabled: false in %s", off.path)})
	}
}

// dedupe runs hooks with the same name and command once, the first in
// configuration order, as Gemini CLI's planner does.
var dedupe = hooks.DedupeBy(func(h *hooks.Hook) string { return hookName(h) + ":" + h.Handler.Command })

// prepareInput adds the ISO timestamp every input carries, right after
// hook_event_name as the host writes it, when the host did not give one.
var prepareInput = hooks.TimestampAfter("hook_event_name")

// projectVars are the variables Gemini CLI gives every hook and replaces in
// the command text (the bare $NAME form) before bash runs it. Its quoting
// leaves a plain value as it is, so "$GEMINI_PROJECT_DIR" in double quotes
// reaches the hook as the path; hookd pastes through plugins.Paste: a plain
// value raw, a value holding shell syntax refused (the hook fails without
// running; "${GEMINI_PROJECT_DIR}" is left to the shell).
var projectVars = lazyre.New(`\$(GEMINI_PROJECT_DIR|GEMINI_CWD|GEMINI_PLANS_DIR|GEMINI_SESSION_ID|CLAUDE_PROJECT_DIR)\b`)

// projectPlaceholders are the bare forms command names.
func projectPlaceholders(command string, vals map[string]string) []plugins.Placeholder {
	var ph []plugins.Placeholder
	seen := map[string]bool{}
	for _, m := range projectVars.FindAllString(command, -1) {
		if !seen[m] {
			seen[m] = true
			ph = append(ph, plugins.Placeholder{Text: m, Value: vals[m[1:]], Instead: "${" + m[1:] + "}"})
		}
	}
	return ph
}

// commandKind runs a command handler as Gemini CLI does: the project
// variables in the environment and substituted into the command text, the
// handler's env on top, the timeout in milliseconds.
func commandKind(e *hooks.Engine) hooks.HandlerKind {
	return hooks.HandlerKindFunc(func(ctx context.Context, h *hooks.Hook, stdin []byte) hooks.RawResult {
		s := e.Session()
		dir := s.Cwd
		if root := gjson.GetBytes(stdin, "cwd").Str; root != "" {
			dir = root
		}
		id := s.ID
		if v := gjson.GetBytes(stdin, "session_id").Str; v != "" {
			id = v
		}
		vals := map[string]string{
			"GEMINI_PROJECT_DIR": dir, "GEMINI_CWD": dir, "CLAUDE_PROJECT_DIR": dir,
			"GEMINI_SESSION_ID": id, "GEMINI_PLANS_DIR": plansDir(e.Home(), dir, id),
		}
		run := *h
		run.Env = make(map[string]string, len(h.Env)+len(vals))
		for k, v := range vals {
			run.Env[k] = v
		}
		for k, v := range h.Env {
			if k != envName {
				run.Env[k] = v
			}
		}
		// plugins.CheckPaste decides; the regexp replaces, so that a longer
		// name ($GEMINI_CWDX) is left alone as Gemini CLI leaves it.
		if err := plugins.CheckPaste(h.Handler.Command, projectPlaceholders(h.Handler.Command, vals)); err != nil {
			return hooks.RawResult{Err: fmt.Errorf("hook %s not run: %w", h.Key, err), Timeout: h.Handler.Limit()}
		}
		run.Handler.Command = projectVars.ReplaceAllStringFunc(h.Handler.Command, func(m string) string { return vals[m[1:]] })
		return e.RunCommand(ctx, &run, stdin)
	})
}

// plansDir is GEMINI_PLANS_DIR as Gemini CLI sets it for every hook: the
// host's own value when hookd's environment has one, else
// <home>/tmp/<project id>/<session>/plans, the project id being the one
// <home>/projects.json records for the folder, or the one Gemini CLI
// would give it first (its base name in lower case, each run of other
// characters a dash).
func plansDir(home, project, session string) string {
	if v := os.Getenv("GEMINI_PLANS_DIR"); v != "" {
		return v
	}
	if home == "" {
		return ""
	}
	project = hooks.AbsClean(project)
	id := ""
	if data, err := hooks.ReadConfigFile(filepath.Join(home, "projects.json")); err == nil {
		if v := gjson.GetBytes(data, "projects."+gjson.Escape(project)); v.Type == gjson.String {
			id = v.Str
		}
	}
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		id = strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(filepath.Base(project)), "-"), "-")
		if id == "" {
			id = "project"
		}
	}
	if session == "" || strings.ContainsAny(session, `/\`) || session == "." || session == ".." {
		return filepath.Join(home, "tmp", id, "plans")
	}
	return filepath.Join(home, "tmp", id, session, "plans")
}

var nonSlug = lazyre.New(`[^a-z0-9]+`)
