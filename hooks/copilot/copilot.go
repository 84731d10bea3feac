package copilot

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Profile is Copilot CLI's profile (reference/other-hosts.md section 2):
// version-1 hook files from the repository (folder trust), the user's hooks
// folder and plugins; handlers of an event run one after another in file
// order, in the repository root.
var Profile = &hooks.Profile{
	Name:       "copilot",
	HomeEnv:    "COPILOT_HOME",
	HomeDir:    ".copilot",
	ProjectDir: filepath.Join(".github", "hooks"),
	// Its camelCase events hold handlers; an alias may hold either (value).
	EntriesAreHandlers: true,
	Events:             copilotEventRules(),
	ToolNames:          toolNames,
	Tools:              copilotTools,
	// Repository hooks load only in a trusted folder (project.trusted,
	// --trust-project; the CLI's --trust-folder, else its record in
	// config.json: project_trust.go); nothing else is reviewed.
	Trust:        false,
	ProjectTrust: projectTrust{},
	ProjectFiles: []string{"*.json"},
	NoEnablement: true,
	// One after another in file order; a deny ends the run (the CLI does
	// not start the next preToolUse hook after one denied).
	Serial:       true,
	StopAtDeny:   true,
	ProjectCwd:   true,
	Discover:     discover,
	PrepareInput: prepareInput,
	EnvFilter:    envFilter,
	HandlerKinds: handlerKinds,
	HandlerTypes: []string{hooks.TypeCommand, typeHTTP, typePrompt},
	Shell:        []string{"bash", "-c"},
}

func init() { hooks.Register(Profile) }

// Hook Env keys hookd keeps for itself; they never reach a process.
const (
	envVSCode  = "\x00vscode" // the PascalCase event name of a hook in Claude Code's form
	envCwd     = "\x00cwd"
	envHeaders = "\x00headers"
	envAllowed = "\x00allowedEnvVars"
)

// claudeNames are the Claude Code names of Copilot CLI's tools, which the
// snake_case input of PascalCase hooks carries and their matchers accept.
var claudeNames = map[string]string{
	"bash": "Bash", "powershell": "PowerShell", "view": "Read", "create": "Write", "edit": "Edit",
	"glob": "Glob", "grep": "Grep", "web_fetch": "WebFetch", "task": "Task",
}

// copilotTools are Copilot CLI's own tool names, which a camelCase hook's
// matcher is tested against (a PascalCase hook's also takes the Claude Code
// name, toolNames); doctor tries a matcher on each.
var copilotTools = []string{"bash", "write_bash", "read_bash", "stop_bash", "list_bash", "powershell",
	"view", "create", "edit", "glob", "grep", "web_fetch", "task", "skill", "report_intent",
	"update_todo", "ask_user", "fetch_copilot_cli_documentation"}

func toolNames(name string) []string {
	if c, ok := claudeNames[name]; ok {
		return []string{name, c}
	}
	return []string{name}
}

// anchored is a camelCase hook's matcher: a regex that must match the whole
// target (^(?:...)$), case-sensitive, tested against Copilot's own name.
type anchored struct{ re *regexp.Regexp }

func (m anchored) Match(names []string) bool {
	return len(names) > 0 && m.re.MatchString(names[0])
}

// vscodeMatcher is a PascalCase hook's matcher: "*" matches everything;
// otherwise an anchored regex tested against Copilot's name and Claude
// Code's (Bash and bash both match bash).
type vscodeMatcher struct{ re *regexp.Regexp }

func (m vscodeMatcher) Match(names []string) bool {
	for _, n := range names {
		if m.re.MatchString(n) {
			return true
		}
	}
	return false
}

// never matches nothing: a hook whose matcher does not compile.
type never struct{}

func (never) Match([]string) bool { return false }

type discovery struct {
	hooks.DiscoveryRun
	p       *hooks.Profile
	root    string
	offFile string
}

// discover loads the user's hooks folder (<home>/hooks/*.json, home being
// $COPILOT_HOME or ~/.copilot), the trusted repository's
// .github/hooks/*.json, the managed layer (--managed FILE or DIR, else
// /etc/github-copilot/policy.d/*.json), the session hooks
// and plugins, in that order; files of one folder in name order.
// disableAllHooks: true in any of them turns every hook off.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	d := &discovery{p: p, root: opts.ProjectRoot}
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	home := hooks.ResolveHome(p, opts.Home)
	if home != "" {
		d.folder(filepath.Join(home, "hooks"), hooks.LayerUser, nil)
		d.settings(filepath.Join(home, "settings.json"), hooks.LayerUser)
	}
	if dir := hooks.ProjectFolder(p, opts, ""); dir != "" {
		d.folder(dir, hooks.LayerProject, nil)
		root := filepath.Dir(filepath.Dir(dir))
		for _, name := range []string{"settings.json", "settings.local.json"} {
			d.settings(filepath.Join(root, ".github", "copilot", name), hooks.LayerProject)
		}
	}
	d.managed(opts.Managed)
	if len(opts.SessionHooks) > 0 {
		d.value(gjson.ParseBytes(opts.SessionHooks), hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session", nil)
	}
	d.plugins(opts, home)
	for i, h := range d.Hooks {
		h.Order = i
		h.Enabled = true
		if h.Trust == "" {
			h.Trust = hooks.TrustTrusted
			if h.Source.Layer == hooks.LayerManaged {
				h.Trust = hooks.TrustManaged
			}
		}
		if d.offFile != "" {
			h.Policy = hooks.PolicyHooksDisabled
		}
	}
	if d.offFile != "" && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: d.offFile, Message: fmt.Sprintf("hooks are turned off by disableAllHooks: true in %s", d.offFile)})
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal, LeftOut: d.LeftOut}
}

// settings reads the inline "hooks" (the same {event: [...]} object as a
// hooks file's) and disableAllHooks of a settings file: the user's
// <home>/settings.json, or the repository's .github/copilot/settings.json
// and settings.local.json. Settings hold much more; other keys are not
// reported, and a missing file is the normal case.
func (d *discovery) settings(path, layer string) {
	if _, err := os.Stat(path); err != nil {
		return
	}
	data, ok := d.Read(path)
	if !ok {
		return
	}
	if !gjson.ValidBytes(data) {
		d.warn(path, "failed to parse settings %s: invalid JSON", path)
		return
	}
	root := gjson.ParseBytes(data)
	if root.Get("disableAllHooks").Type == gjson.True {
		d.offFile = path
	}
	if h := root.Get("hooks"); h.IsObject() {
		d.value(h, hooks.Source{Layer: layer, Path: path}, path, map[string]string{"COPILOT_HOOK_DIR": filepath.Dir(path)})
	}
}

// policyDir is Copilot CLI's managed policy folder (a string of its
// runtime, next to its hooks rules).
const policyDir = "/etc/github-copilot/policy.d"

// managed reads the managed layer: the folder or file --managed names,
// else the system policy folder. A folder's *.json files are read in name
// order as hooks files; a missing default folder is the normal case.
func (d *discovery) managed(path string) {
	if path == "" {
		path = policyDir
	}
	path = hooks.AbsClean(path)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		d.folder(path, hooks.LayerManaged, nil)
		return
	} else if path == policyDir {
		return
	}
	d.file(path, hooks.LayerManaged, nil)
}

// folder reads every *.json file of dir, in name order.
func (d *discovery) folder(dir, layer string, env map[string]string) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(paths)
	for _, path := range paths {
		d.file(path, layer, env)
	}
}

func (d *discovery) warn(path, format string, args ...any) {
	d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(format, args...)})
}

// file reads one hooks file: {"version": 1, "hooks": {...},
// "disableAllHooks"?: bool}. A file without version 1 or without a hooks
// object loads nothing, as in Copilot CLI.
func (d *discovery) file(path, layer string, env map[string]string) {
	data, ok := d.Read(path)
	if !ok {
		return
	}
	if !gjson.ValidBytes(data) {
		d.warn(path, "failed to parse hooks file %s: invalid JSON", path)
		return
	}
	root := gjson.ParseBytes(data)
	switch v := root.Get("version"); {
	case !root.IsObject():
		d.warn(path, "skipping hooks file %s: expected a JSON object", path)
		return
	case layer == hooks.LayerPlugin && !v.Exists():
		// A Claude Code plugin's hooks.json has no version.
	case v.Type != gjson.Number || v.Raw != "1":
		d.warn(path, `skipping hooks file %s: "version" must be 1`, path)
		return
	}
	if off := root.Get("disableAllHooks"); off.Type == gjson.True {
		d.offFile = path
	} else if off.Exists() && off.Type != gjson.False {
		d.warn(path, `ignoring "disableAllHooks" in %s: expected true or false`, path)
	}
	h := root.Get("hooks")
	if !h.IsObject() {
		d.warn(path, `skipping hooks file %s: "hooks" must be an object`, path)
		return
	}
	if env == nil {
		env = map[string]string{}
	}
	env["COPILOT_HOOK_DIR"] = filepath.Dir(path)
	d.value(h, hooks.Source{Layer: layer, Path: path}, path, env)
}

// value reads the {event: [...]} object. camelCase events hold handlers
// directly; a PascalCase alias holds Claude Code's matcher groups (or
// handlers) and gives its hooks the snake_case input.
func (d *discovery) value(obj gjson.Result, src hooks.Source, keySource string, env map[string]string) {
	obj.ForEach(func(k, arr gjson.Result) bool {
		ce, vscode := rowOf(k.Str), ""
		if ce == nil {
			if ce = eventByAlias(k.Str); ce != nil {
				vscode = k.Str
			}
		}
		if ce == nil {
			d.warn(src.Path, "ignoring unknown hook event %q in %s", k.Str, src.Path)
			return true
		}
		if !arr.IsArray() {
			d.warn(src.Path, "ignoring hook event %q in %s: expected an array", k.Str, src.Path)
			return true
		}
		i := 0
		arr.ForEach(func(_, entry gjson.Result) bool {
			if hs := entry.Get("hooks"); hs.IsArray() {
				j := 0
				hs.ForEach(func(_, h gjson.Result) bool {
					d.handler(ce, vscode, entry.Get("matcher"), h, src, fmt.Sprintf("%s:%s:%d:%d", keySource, ce.label, i, j), env)
					j++
					return true
				})
			} else {
				d.handler(ce, vscode, entry.Get("matcher"), entry, src, fmt.Sprintf("%s:%s:%d:0", keySource, ce.label, i), env)
			}
			i++
			return true
		})
		return true
	})
}

// handler reads one handler and adds its hook.
func (d *discovery) handler(ce *copilotEvent, vscode string, matcher, h gjson.Result, src hooks.Source, key string, env map[string]string) {
	where := key
	if !h.IsObject() {
		d.warn(src.Path, "skipping hook handler in %s: expected an object", where)
		return
	}
	typ := h.Get("type").String()
	if typ == "" {
		typ = hooks.TypeCommand
	}
	hd := hooks.Handler{Type: typ, Timeout: defaultTimeout}
	for _, f := range []string{"timeoutSec", "timeout"} {
		if t := h.Get(f); t.Exists() {
			if t.Type != gjson.Number || t.Int() <= 0 {
				d.warn(src.Path, "skipping hook in %s: %q must be a positive number of seconds", where, f)
				return
			}
			hd.Timeout = int(t.Int())
			break
		}
	}
	hook := &hooks.Hook{Key: key, Event: ce.name, Source: src, Enabled: true, Env: map[string]string{}}
	for k, v := range env {
		hook.Env[k] = v
	}
	switch typ {
	case hooks.TypeCommand:
		cmd, ok := d.commandOf(h, where, src.Path)
		if !ok {
			return
		}
		hd.Command = cmd
		if c := h.Get("cwd"); c.Type == gjson.String && c.Str != "" {
			hook.Env[envCwd] = c.Str
		}
	case typeHTTP:
		u := h.Get("url")
		if u.Type != gjson.String || u.Str == "" {
			d.warn(src.Path, `skipping http hook in %s: "url" must be a non-empty string`, where)
			return
		}
		hd.Command = u.Str
		if hs := h.Get("headers"); hs.IsObject() {
			hook.Env[envHeaders] = hs.Raw
		}
		if a := h.Get("allowedEnvVars"); a.IsArray() {
			hook.Env[envAllowed] = a.Raw
		}
	case typePrompt:
		pr := h.Get("prompt")
		if pr.Type != gjson.String || pr.Str == "" {
			d.warn(src.Path, `skipping prompt hook in %s: "prompt" must be a non-empty string`, where)
			return
		}
		if ce.name != "sessionStart" {
			d.warn(src.Path, "skipping prompt hook in %s: prompt hooks run only on sessionStart", where)
			return
		}
		hd.Command = pr.Str
	default:
		d.warn(src.Path, "skipping hook handler in %s: unknown type %q", where, typ)
		return
	}
	if e := h.Get("env"); e.IsObject() {
		e.ForEach(func(k, v gjson.Result) bool {
			hook.Env[k.Str] = v.String()
			return true
		})
	}
	hook.Handler = hd
	hook.SetMatcher(hooks.MatchAll)
	if vscode != "" {
		hook.Env[envVSCode] = vscode
	}
	if matcher.Exists() && ce.match != "" {
		if matcher.Type != gjson.String || strings.TrimSpace(matcher.Str) == "" {
			d.warn(src.Path, "skipping hook in %s: matcher cannot be empty", where)
			return
		}
		hook.Matcher, hook.HasMatcher = matcher.Str, true
		switch {
		case vscode != "" && matcher.Str == "*":
		default:
			re, err := regexp.Compile("^(?:" + matcher.Str + ")$")
			if err != nil {
				d.warn(src.Path, "hook in %s never runs: invalid matcher %q: %v", where, matcher.Str, err)
				hook.SetMatcher(never{})
			} else if vscode != "" {
				hook.SetMatcher(vscodeMatcher{re})
			} else {
				hook.SetMatcher(anchored{re})
			}
		}
	}
	d.Hooks = append(d.Hooks, hook)
}

// commandOf picks the command a handler runs here: bash (or the generic
// command) on POSIX systems, powershell (or command) on Windows, or exec, a
// program run by its path. exec together with a shell command is an error.
func (d *discovery) commandOf(h gjson.Result, where, path string) (string, bool) {
	str := func(k string) string { return h.Get(k).String() }
	bash, ps, generic, exec := str("bash"), str("powershell"), str("command"), str("exec")
	if exec != "" && (bash != "" || ps != "" || generic != "") {
		d.warn(path, `skipping hook in %s: give either "exec" or a shell command, not both`, where)
		return "", false
	}
	if exec != "" {
		return hooks.ShellQuote(exec), true
	}
	cmd := bash
	if runtime.GOOS == "windows" {
		cmd = ps
	}
	if cmd == "" {
		cmd = generic
	}
	if cmd == "" {
		d.warn(path, `skipping hook in %s: no command for this system ("bash", "command" or "exec")`, where)
		return "", false
	}
	return cmd, true
}

// plugins adds each plugin's hooks.json (at its root or in hooks/), with
// CLAUDE_PLUGIN_ROOT, COPILOT_PLUGIN_ROOT and PLUGIN_ROOT set to its folder:
// those the host names, then those installed in the user folder
// (installedPlugins), then those of opts.PluginDirs.
func (d *discovery) plugins(opts hooks.DiscoverOptions, home string) {
	var roots []string
	for _, pl := range opts.Plugins {
		if pl.Enabled == nil || *pl.Enabled {
			roots = append(roots, pl.Root)
		}
	}
	on, off := installedPlugins(home)
	roots = append(roots, on...)
	d.LeftOut = append(d.LeftOut, off...)
	for _, dir := range opts.PluginDirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.IsDir() {
				roots = append(roots, filepath.Join(dir, e.Name()))
			}
		}
	}
	for _, root := range roots {
		root = hooks.AbsClean(root)
		for _, path := range []string{filepath.Join(root, "hooks.json"), filepath.Join(root, "hooks", "hooks.json")} {
			if _, err := os.Stat(path); err == nil {
				env := map[string]string{"CLAUDE_PLUGIN_ROOT": root, "COPILOT_PLUGIN_ROOT": root, "PLUGIN_ROOT": root}
				d.file(path, hooks.LayerPlugin, env)
				break
			}
		}
	}
}

// installedPlugins reads Copilot CLI's record of the plugins `copilot plugin
// install` put in the user folder, <home>/config.json (JSON after a few
// whole-line // comments):
//
//	{"installedPlugins": [{"name": "guard", "marketplace": "", "cache_path": "<home>/installed-plugins/_direct/guard", "enabled": true}]}
//
// It returns the folders of the enabled ones and, for each one `copilot
// plugin disable` switched off, the source left out, with the command that
// switches it on.
func installedPlugins(home string) (on []string, off []hooks.LeftOut) {
	if home == "" {
		return nil, nil
	}
	path := filepath.Join(home, "config.json")
	data, err := hooks.ReadConfigFile(path)
	if err != nil {
		return nil, nil
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines[i] = ""
		}
	}
	gjson.Get(strings.Join(lines, "\n"), "installedPlugins").ForEach(func(_, e gjson.Result) bool {
		root, name := e.Get("cache_path").Str, e.Get("name").Str
		if root == "" || name == "" || !filepath.IsAbs(root) {
			return true
		}
		if e.Get("enabled").Type != gjson.False {
			on = append(on, root)
			return true
		}
		id := name
		if m := e.Get("marketplace").Str; m != "" {
			id += "@" + m
		}
		off = append(off, hooks.LeftOut{Path: root, Plugin: id, Reason: hooks.ReasonPluginDisabled, UserChoice: true,
			Message: fmt.Sprintf("plugin %s is disabled in %s (\"enabled\": false): none of its hooks load", id, path),
			Fix:     "copilot plugin enable " + id})
		return true
	})
	return on, off
}

// copilotVersion is the Copilot CLI the profile follows, which hooks see
// as COPILOT_CLI_BINARY_VERSION unless the host's environment says another.
const copilotVersion = "1.0.102"

// copilotGitConfig is the git setting Copilot CLI gives every hook through
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_0 and GIT_CONFIG_VALUE_0: bare
// repositories only when named explicitly.
var copilotGitConfig = []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.bareRepository", "GIT_CONFIG_VALUE_0=explicit"}

// envFilter drops the model provider's settings, which Copilot CLI keeps
// from its hooks, and adds what Copilot CLI adds: its version and the git
// setting (in place of any GIT_CONFIG_* of hookd's own environment, which
// the count would misread).
func envFilter(env []string) []string {
	out := make([]string, 0, len(env)+4)
	version := copilotVersion
	for _, kv := range env {
		name, val, _ := strings.Cut(kv, "=")
		switch {
		case name == "COPILOT_PROVIDER_BASE_URL", name == "COPILOT_PROVIDER_API_KEY", name == "COPILOT_OFFLINE",
			name == "GIT_CONFIG_COUNT", strings.HasPrefix(name, "GIT_CONFIG_KEY_"), strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
			continue
		case name == "COPILOT_CLI_BINARY_VERSION":
			if val != "" {
				version = val
			}
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "COPILOT_CLI_BINARY_VERSION="+version)
	return append(out, copilotGitConfig...)
}
