package claude

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
	"github.com/hookd/hookd/plugins"
	"github.com/hookd/hookd/spill"
)

// Profile is Claude Code's profile (SEMANTICS.md section 3, claude;
// reference/claude-hooks.md): settings.json layers and plugins, no review,
// Claude Code's matcher dialect and its lenient output reading. The events
// and their output rules are events.go and output.go.
var Profile = &hooks.Profile{
	Name:         "claude",
	HomeEnv:      "CLAUDE_CONFIG_DIR",
	HomeDir:      ".claude",
	ProjectTrust: projectTrust{},
	ProjectFiles: []string{claudeSettingsName, claudeLocalSettingsName},
	// claude -p reads the project's settings and skills untrusted.
	PrintModeReadsProject: true,
	ProjectDir:            ".claude",
	Events:                claudeEventRules(),
	CompileMatcher:        Matcher,
	Tools:                 claudeTools,
	Trust:                 false,
	KillGrace:             time.Second,
	PluginRule:            plugins.ClaudeRule,
	Discover:              claudeDiscover,
	Dedupe:                claudeDedupe,
	AfterCombine:          claudeAfterCombine,
	EnvFilter:             claudeEnv,
	HookEnv:               claudeHookEnv,
	Shell:                 claudeShell(),
	HandlerKinds: map[string]func(*hooks.Engine) hooks.HandlerKind{TypeHTTP: httpKind,
		evaluate.KindPrompt: evalKind(evaluate.KindPrompt), evaluate.KindAgent: evalKind(evaluate.KindAgent)},
	HandlerTypes: []string{hooks.TypeCommand, hooks.TypeMCPTool, TypeHTTP, evaluate.KindPrompt, evaluate.KindAgent},
	QuietFields:  claudeQuietFields,
	ReadHandler:  claudeReadHandler,
	StdinNewline: true,
	// Over 10,000 characters, the model gets the first 2,000 and the path.
	Spill: spill.CharLimit{Max: 10_000, Head: 2_000},
}

func init() { hooks.Register(Profile) }

// Claude Code's settings files, in the order their hooks are listed.
const (
	claudeSettingsName      = "settings.json"
	claudeLocalSettingsName = "settings.local.json"
	// LayerLocal is the layer of <project>/.claude/settings.local.json.
	LayerLocal = "local"
	// PolicyDisableAllHooks keeps hooks from running when the settings say
	// disableAllHooks: true.
	PolicyDisableAllHooks = "disableAllHooks"
)

// claudeShell is how shell-form commands run: "sh -c", as Claude Code runs
// them on macOS and Linux (not a login shell, whose profile could print into
// the hook's JSON). Windows keeps hookd's default.
func claudeShell() []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	return []string{"/bin/sh", "-c"}
}

// claudeQuietFields are the keys Claude Code's files carry besides the
// codex ones: documented (if, args, shell, once, asyncRewake) or seen in
// real plugins (description, rewakeMessage, rewakeSummary, _comment). The
// walker takes them without a warning; claudeReadHandler reads those that
// change how a hook runs.
var claudeQuietFields = map[string]bool{
	"description": true, "_comment": true, "once": true, "rewakeMessage": true, "rewakeSummary": true,
	"if": true, "args": true, "shell": true, "asyncRewake": true, "onFailure": true,
}

// claudeEnv is the hooks' base environment: hookd's, without the
// credentials codex scrubs (already gone) and without OpenTelemetry exporter
// settings, which Claude Code keeps from its hooks; CLAUDECODE=1 tells a
// hook which host runs it, as Claude Code does. With
// CLAUDE_CODE_SUBPROCESS_ENV_SCRUB on, Claude Code's credential scrub applies
// too (scrub.go).
func claudeEnv(env []string) []string {
	if scrubOn(env) {
		env = scrubCredentials(env)
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "OTEL_") && name != "CLAUDECODE" {
			out = append(out, kv)
		}
	}
	return append(out, "CLAUDECODE=1")
}

// claudeSettings is what discovery takes from one settings file besides its
// hooks.
type claudeSettings struct {
	path, layer string
	// disableAll is disableAllHooks when the file sets it.
	disableAll *bool
	// managedOnly is allowManagedHooksOnly (honoured in managed settings).
	managedOnly bool
	// plugins is enabledPlugins: "name@marketplace" → enabled.
	plugins map[string]bool
	// httpURLs and httpEnv are allowedHttpHookUrls and
	// httpHookAllowedEnvVars when the file sets them (http.go).
	httpURLs, httpEnv []string
}

// claudeDiscover loads, in order: managed settings (the host's managed file,
// when it names one), the user's settings.json, the trusted project's
// .claude/settings.json and .claude/settings.local.json, the session hooks
// and the plugins. All of them load together. Then disableAllHooks,
// allowManagedHooksOnly and the per-hook enabled switch apply. There is no
// review: every hook is trusted (managed ones are managed).
func claudeDiscover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	var files []claudeSettings
	if opts.Managed != "" {
		if s, ok := d.claudeSettingsFile(p, hooks.AbsClean(opts.Managed), hooks.LayerManaged); ok {
			files = append(files, s)
		}
	}
	home := hooks.ResolveHome(p, opts.Home)
	if home != "" {
		if s, ok := d.claudeSettingsFile(p, filepath.Join(home, claudeSettingsName), hooks.LayerUser); ok {
			files = append(files, s)
		}
	} else {
		d.Warns = append(d.Warns, hooks.Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
	}
	// Claude Code holds project settings back until the folder is trusted;
	// the host says so (project.trusted, --trust-project).
	// In print mode (Claude Code's -p) the settings files load without a
	// trust record (hooks.PrintModeTrust); agents keep the plain rule.
	if dir := hooks.ProjectFolder(p, hooks.PrintModeTrust(p, opts), home); dir != "" {
		for _, f := range []struct{ name, layer string }{{claudeSettingsName, hooks.LayerProject}, {claudeLocalSettingsName, LayerLocal}} {
			if s, ok := d.claudeSettingsFile(p, filepath.Join(dir, f.name), f.layer); ok {
				files = append(files, s)
			}
		}
	}
	// --settings FILE (initialize config.settings): one more layer, after
	// the local settings, as Claude Code's flag settings.
	for _, path := range opts.Settings {
		if s, ok := d.claudeSettingsFile(p, hooks.AbsClean(path), hooks.LayerCLI); ok {
			files = append(files, s)
		} else if _, err := os.Stat(path); err != nil {
			d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("cannot read settings %s: %v", path, err)})
		}
	}
	if len(opts.SessionHooks) > 0 {
		hooks, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hooks, warns)
	}
	enabled, forced, by := claudeEnabledPlugins(files)
	if home != "" {
		extra, off, warns := installedPlugins(home, opts.ProjectRoot, enabled, opts.Plugins)
		d.Warns = append(d.Warns, warns...)
		for _, c := range off {
			d.LeftOut = append(d.LeftOut, disabledPlugin(c, by[c.Name+"@"+c.Marketplace]))
		}
		opts.Plugins = append(append([]hooks.PluginConfig(nil), opts.Plugins...), extra...)
	}
	d.claudePlugins(p, opts, enabled)
	d.scoped(p, opts, home, d.found) // agents and skills (scoped.go)
	for i, h := range d.Hooks {
		h.Order = i
	}
	d.claudeFinish(p, opts, files, forced)
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal, Settings: httpSettings(files), LeftOut: d.LeftOut}
}

// disabledPlugin says that an installed plugin's hooks are left out because
// the settings file f turned it off (enabledPlugins: false), or no file
// enables it (f is zero), and how Claude Code turns it on again in the same
// scope: `claude plugin enable`. The user's own settings (user and local
// scope) turning it off are the user's choice; a plugin installed and never
// enabled is not.
func disabledPlugin(c hooks.PluginConfig, f claudeSettings) hooks.LeftOut {
	id := c.Name + "@" + c.Marketplace
	lo := hooks.LeftOut{Path: c.Root, Plugin: id, Reason: hooks.ReasonPluginDisabled,
		Message: fmt.Sprintf("plugin %s is disabled in %s (enabledPlugins: %q is false): none of its hooks load", id, f.path, id)}
	if f.path == "" {
		// Installed, and enabled by no settings file.
		lo.Message = fmt.Sprintf("plugin %s is installed but no settings file enables it (no enabledPlugins entry): none of its hooks load", id)
		lo.Fix = "claude plugin enable --scope user " + id
		return lo
	}
	switch f.layer {
	case hooks.LayerManaged:
		lo.Fix = fmt.Sprintf("managed settings disable it (%s): only their administrator can enable it", f.path)
	case hooks.LayerCLI:
		lo.Fix = fmt.Sprintf("drop --settings %s, or set enabledPlugins %q to true in it", f.path, id)
	default:
		scope := map[string]string{hooks.LayerUser: "user", hooks.LayerProject: "project", LayerLocal: "local"}[f.layer]
		lo.Fix = "claude plugin enable --scope " + scope + " " + id
		lo.UserChoice = f.layer == hooks.LayerUser || f.layer == LayerLocal
	}
	return lo
}

// discovery is the engine's discovery run with this host's own steps.
type discovery struct {
	hooks.DiscoveryRun
	// found are the plugins loaded, for their agents and skills.
	found []*plugins.Plugin
}

// claudeSettingsFile reads one settings file: its hooks are added, the rest
// is returned. A missing file is the normal case. Claude Code's settings hold
// much more than hooks, so other keys are not reported. A managed file that
// exists but cannot be read or parsed is fatal: an administrator's policy is
// never dropped in silence.
func (d *discovery) claudeSettingsFile(p *hooks.Profile, path, layer string) (claudeSettings, bool) {
	s := claudeSettings{path: path, layer: layer}
	root, w, ok := d.ReadSettings(p, path, layer, hooks.SettingsOptions{Fatal: layer == hooks.LayerManaged})
	if !ok {
		return s, false
	}
	top := hooks.Site{Group: -1, Handler: -1}
	flag := func(name string) *bool {
		v := root.Get(name)
		switch v.Type {
		case gjson.True, gjson.False:
			b := v.Bool()
			return &b
		case gjson.Null:
		default:
			if v.Exists() {
				w.Warn(top, v.Index, name, "ignoring field %q in %s: expected true or false", name, path)
			}
		}
		return nil
	}
	s.disableAll = flag("disableAllHooks")
	if b := flag("allowManagedHooksOnly"); b != nil && *b && layer == hooks.LayerManaged {
		s.managedOnly = true
	}
	if ep := root.Get("enabledPlugins"); ep.IsObject() {
		s.plugins = map[string]bool{}
		ep.ForEach(func(k, v gjson.Result) bool {
			if v.Type == gjson.True || v.Type == gjson.False {
				s.plugins[k.Str] = v.Bool()
			}
			return true
		})
	}
	s.httpURLs = stringList(w, top, root, "allowedHttpHookUrls", path)
	s.httpEnv = stringList(w, top, root, "httpHookAllowedEnvVars", path)
	d.Add(w.Hooks, w.Warns)
	return s, true
}

// stringList reads an optional array of strings: nil when absent, an empty
// (non-nil) slice for [].
func stringList(w *hooks.Walker, top hooks.Site, root gjson.Result, name, path string) []string {
	v := root.Get(name)
	if !v.Exists() || v.Type == gjson.Null {
		return nil
	}
	if !v.IsArray() {
		w.Warn(top, v.Index, name, "ignoring field %q in %s: expected an array of strings", name, path)
		return nil
	}
	out := []string{}
	for _, e := range v.Array() {
		if e.Type != gjson.String {
			w.Warn(top, v.Index, name, "ignoring field %q in %s: expected an array of strings", name, path)
			return nil
		}
		out = append(out, e.Str)
	}
	return out
}

// claudeEnabledPlugins merges enabledPlugins over the settings files: a
// later (more specific) file wins, except that managed settings decide over
// all. forced lists the plugins managed settings enable, which
// allowManagedHooksOnly lets run; by is the file whose word decided each.
func claudeEnabledPlugins(files []claudeSettings) (enabled, forced map[string]bool, by map[string]claudeSettings) {
	enabled, forced, by = map[string]bool{}, map[string]bool{}, map[string]claudeSettings{}
	for _, managed := range []bool{false, true} {
		for _, f := range files {
			if (f.layer == hooks.LayerManaged) != managed {
				continue
			}
			for id, on := range f.plugins {
				enabled[id], by[id] = on, f
				if managed {
					forced[id] = on
				}
			}
		}
	}
	return enabled, forced, by
}

// claudePlugins adds the hooks of every plugin the host names or scans,
// except those the settings disable (enabledPlugins: false hides a scanned
// plugin; one the host names explicitly still loads). Claude Code refuses a
// hooks file without a top-level "hooks" object, and with it every hook of
// the plugin, so hookd does too.
func (d *discovery) claudePlugins(p *hooks.Profile, opts hooks.DiscoverOptions, enabled map[string]bool) {
	if len(opts.Plugins) == 0 && len(opts.PluginDirs) == 0 {
		return
	}
	configs := append([]hooks.PluginConfig(nil), opts.Plugins...)
	off := false
	for id, on := range enabled {
		if name, market, ok := strings.Cut(id, "@"); ok && !on {
			configs = append(configs, hooks.PluginConfig{Name: name, Marketplace: market, Enabled: &off})
		}
	}
	o := plugins.Options{Plugins: configs, Dirs: opts.PluginDirs, DataHome: hooks.PluginDataHome(p, opts), Rule: p.PluginRule,
		CacheDir: opts.PluginCache}
	d.found = d.LoadPlugins(p, o, func(pl *plugins.Plugin) hooks.Warning {
		if file, msg := claudePluginFilesProblem(p, pl); msg != "" {
			return hooks.Warning{Source: file, Message: fmt.Sprintf("loading no hooks for plugin %s: %s", pl.ID(), msg)}
		}
		return hooks.Warning{}
	})
}

// claudePluginFilesProblem says why Claude Code would refuse a plugin's
// hooks files, and which file, or "".
func claudePluginFilesProblem(p *hooks.Profile, pl *plugins.Plugin) (file, msg string) {
	for _, s := range pl.Sources {
		if s.Inline != nil {
			continue
		}
		data := bytes.TrimPrefix(s.File, []byte("\xef\xbb\xbf"))
		if !gjson.ValidBytes(data) {
			// The walker says where the syntax error is.
			_, warns := hooks.ParseHooksJSON(p, s.File, hooks.Source{Layer: hooks.LayerPlugin, Path: s.Path}, s.Key)
			msg := fmt.Sprintf("failed to parse plugin hooks config %s", s.Path)
			if len(warns) > 0 {
				msg = strings.Replace(warns[0].Message, "failed to parse hooks config", "failed to parse plugin hooks config", 1)
			}
			return s.Path, msg
		}
		if h := gjson.GetBytes(data, "hooks"); !gjson.ParseBytes(data).IsObject() || !h.IsObject() {
			return s.Path, fmt.Sprintf(`%s has no top-level "hooks" object (Claude Code: "expected record, received undefined"); wrap the events in {"hooks": {...}}`, s.Path)
		}
	}
	return "", ""
}

// claudeFinish applies the settings' switches and the per-hook enabled state.
// disableAllHooks takes the value of the most specific file that sets it
// (managed settings above all); set anywhere but in managed settings, it
// leaves managed hooks running. allowManagedHooksOnly in managed settings
// keeps every other hook from running, except those of plugins the managed
// settings enable. The enabled switch is hookd's own, kept like codex's in
// [hooks.state."<key>"] of <home>/config.toml (a file Claude Code does not
// read), and in the session's and the command line's state overrides.
func (d *discovery) claudeFinish(p *hooks.Profile, opts hooks.DiscoverOptions, files []claudeSettings, forced map[string]bool) {
	var off *claudeSettings
	for i := range files {
		f := &files[i]
		// files are managed, user, project, local: the last user-side
		// setting wins, and managed settings win over all.
		if f.disableAll != nil && (off == nil || off.layer != hooks.LayerManaged) {
			off = f
		}
	}
	if off != nil && !*off.disableAll {
		off = nil
	}
	managedOnly := ""
	for _, f := range files {
		if f.managedOnly {
			managedOnly = f.path
		}
	}
	state := map[string]hooks.HookState{}
	if path := hooks.StatePath(p, opts.Home); path != "" {
		if doc := hooks.ReadConfigQuiet(path); doc != nil {
			if st, ok := hooks.TOMLStateTable(doc); ok {
				d.MergeState(state, st, path)
			}
		}
	}
	d.MergeJSONState(state, d.SessionState, "session")
	d.MergeJSONState(state, opts.StateOverrides, "--hook-state")

	warned := map[string]bool{}
	for _, h := range d.Hooks {
		managed := h.Source.Layer == hooks.LayerManaged
		switch {
		case off != nil && (!managed || off.layer == hooks.LayerManaged):
			h.Policy = PolicyDisableAllHooks
		case managedOnly != "" && !managed && !(h.Source.Layer == hooks.LayerPlugin && claudePluginForced(h, forced)):
			h.Policy = hooks.PolicyManagedOnly
			if !warned[h.Source.Path] {
				warned[h.Source.Path] = true
				d.Warns = append(d.Warns, hooks.Warning{Source: h.Source.Path, Message: fmt.Sprintf(
					"hooks in %s do not run: allowManagedHooksOnly is true in %s", h.Source.Path, managedOnly)})
			}
		}
		if managed {
			h.Trust, h.Enabled = hooks.TrustManaged, true
			continue
		}
		h.Trust = hooks.TrustTrusted
		st := state[h.Key]
		h.Enabled = st.Enabled == nil || *st.Enabled
	}
	if off != nil && len(d.Hooks) > 0 {
		which := "no hook runs"
		if off.layer != hooks.LayerManaged {
			which = "only managed hooks run"
		}
		d.Warns = append(d.Warns, hooks.Warning{Source: off.path, Message: fmt.Sprintf(
			"hooks are turned off by disableAllHooks: true in %s: %s", off.path, which)})
	}
}

// claudePluginForced reports whether the managed settings enable h's plugin.
func claudePluginForced(h *hooks.Hook, forced map[string]bool) bool {
	id, _, _ := strings.Cut(h.Key, ":")
	return forced[id]
}

// claudeIdentity names what a handler does, for deduplication: its type and
// command (or MCP tool and input), as written.
func claudeIdentity(h *hooks.Hook) string {
	hd := h.Handler
	switch hd.Type {
	case hooks.TypeMCPTool:
		return strings.Join([]string{hd.Type, hd.Server, hd.Tool, string(hd.Input)}, "\x00")
	case hooks.TypeCommand:
	default:
		// http, prompt, agent: the handler as written (its url, prompt...).
		return strings.Join([]string{hd.Type, string(hd.Config)}, "\x00")
	}
	return strings.Join([]string{hd.Type, hd.Command, hd.CommandWindows}, "\x00")
}

// claudeDedupe runs identical handlers from the settings files (managed,
// user, project, local) once: the first in configuration order. Plugin and
// session hooks are never merged, with each other or with settings hooks:
// two plugins may ship the same command on purpose. Agent and skill hooks
// (scoped.go) stay apart too, as Claude Code keeps them with the session's.
var claudeDedupe = hooks.DedupeBy(func(h *hooks.Hook) string {
	if h.Source.Layer == hooks.LayerPlugin || h.Source.Layer == hooks.LayerSession || h.Scope != nil {
		return ""
	}
	return claudeIdentity(h)
})

// claudeDefaultStopCap is how many Stop blocks in a row Claude Code honours
// before it lets the agent stop anyway.
const claudeDefaultStopCap = 8

// claudeStopCap reads CLAUDE_CODE_STOP_HOOK_BLOCK_CAP (0: no cap) from
// hookd's environment, as the host set it.
func claudeStopCap() int {
	if v, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"))); err == nil && v >= 0 {
		return v
	}
	return claudeDefaultStopCap
}

// State keys of the Stop cap: the current turn's generation, and per agent
// ("" for the main agent) the blocks in a row and the generation they count in.
const (
	claudeTurnKey  = "claude.turn"
	claudeStopsKey = "claude.stops:"
)

// claudeAfterCombine applies the rules that span runs:
//
//   - Stop (and SubagentStop, per agent_id) blocks are honoured at most the
//     cap in a row; the next one is overridden (decision none) with a
//     system message saying why. A Stop that does not block, a new prompt
//     (UserPromptSubmit), a new session start and a tool that ran
//     (PostToolUse, PostToolUseFailure) start the count again.
//   - ConfigChange cannot block a change of the managed policy settings.
func claudeAfterCombine(st *hooks.State, ev *hooks.EventRules, input []byte, res *hooks.Result) {
	switch ev.Name {
	case "UserPromptSubmit", "SessionStart", "PostToolUse", "PostToolUseFailure":
		st.SetInt(claudeTurnKey, st.Int(claudeTurnKey)+1)
	case "Stop", "SubagentStop":
		claudeStopCapRule(st, ev, input, res)
	case "ConfigChange":
		if res.Decision == hooks.DecisionBlock && gjson.GetBytes(input, "source").Str == "policy_settings" {
			res.Decision, res.Reason = hooks.DecisionNone, ""
		}
	}
}

func claudeStopCapRule(st *hooks.State, ev *hooks.EventRules, input []byte, res *hooks.Result) {
	agent := ""
	if ev.Name == "SubagentStop" {
		agent = "subagent:" + gjson.GetBytes(input, "agent_id").String()
	}
	count, gen := claudeStopsKey+agent, claudeStopsKey+agent+":turn"
	turn := st.Int(claudeTurnKey)
	n := 0
	if st.Int(gen) == turn {
		n = st.Int(count)
	}
	st.SetInt(gen, turn)
	if res.Decision != hooks.DecisionBlock {
		st.SetInt(count, 0)
		return
	}
	limit := claudeStopCap()
	if limit == 0 || n < limit {
		st.SetInt(count, n+1)
		return
	}
	st.SetInt(count, 0)
	res.Decision, res.Reason, res.Continuation = hooks.DecisionNone, "", ""
	key := ""
	for _, h := range res.Hooks {
		if h.Status == hooks.StatusBlocked {
			key = h.Key
			break
		}
	}
	res.SystemMessages = append(res.SystemMessages, hooks.Message{Hook: key, Text: fmt.Sprintf(
		"%s hooks blocked %d times in a row; letting the agent stop (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP changes the cap, 0 turns it off)", ev.Name, limit)})
}

// claudeMaxSessionEndBudget is the most a settings timeout can raise the
// SessionEnd budget to.
const claudeMaxSessionEndBudget = 60 * time.Second

// claudeSessionEndBudgetFor is the time all SessionEnd hooks share: 1.5 s,
// raised to the largest timeout a settings-file hook sets (at most 60 s;
// plugin and session hooks do not raise it), or
// CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS when hookd's environment sets it.
// A hook that leaves its timeout unset has the default, 600, so a timeout
// of exactly 600 written out counts as unset.
func claudeSessionEndBudgetFor(run []*hooks.Hook) time.Duration {
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"))); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	b := claudeSessionEndBudget
	for _, h := range run {
		if h.Source.Layer == hooks.LayerPlugin || h.Source.Layer == hooks.LayerSession || h.Handler.Timeout == 600 {
			continue
		}
		b = max(b, min(time.Duration(h.Handler.Timeout)*time.Second, claudeMaxSessionEndBudget))
	}
	return b
}
