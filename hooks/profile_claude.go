package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/plugins"
	"github.com/hookd/hookd/spill"
)

// Claude is Claude Code's profile (SEMANTICS.md section 3, claude;
// reference/claude-hooks.md): settings.json layers and plugins, no review,
// Claude Code's matcher dialect and its lenient output reading. The events
// and their output rules are profile_claude_events.go and
// profile_claude_output.go.
var Claude = &Profile{
	Name:           "claude",
	HomeEnv:        "CLAUDE_CONFIG_DIR",
	HomeDir:        ".claude",
	ProjectDir:     ".claude",
	Events:         claudeEventRules(),
	CompileMatcher: ClaudeMatcher,
	Tools:          claudeTools,
	Trust:          false,
	KillGrace:      time.Second,
	PluginRule:     plugins.ClaudeRule,
	Discover:       claudeDiscover,
	Dedupe:         claudeDedupe,
	AfterCombine:   claudeAfterCombine,
	EnvFilter:      claudeEnv,
	Shell:          claudeShell(),
	QuietFields:    claudeQuietFields,
	ReadHandler:    claudeReadHandler,
	// Over 10,000 characters, the model gets the first 2,000 and the path.
	Spill: spill.CharLimit{Max: 10_000, Head: 2_000},
}

func init() { Register(Claude) }

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
	"if": true, "args": true, "shell": true, "asyncRewake": true,
}

// claudeEnv is the hooks' base environment: hookd's, without the
// credentials codex scrubs (already gone) and without OpenTelemetry exporter
// settings, which Claude Code keeps from its hooks; CLAUDECODE=1 tells a
// hook which host runs it, as Claude Code does.
func claudeEnv(env []string) []string {
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
}

// claudeDiscover loads, in order: managed settings (the host's managed file,
// when it names one), the user's settings.json, the trusted project's
// .claude/settings.json and .claude/settings.local.json, the session hooks
// and the plugins. All of them load together. Then disableAllHooks,
// allowManagedHooksOnly and the per-hook enabled switch apply. There is no
// review: every hook is trusted (managed ones are managed).
func claudeDiscover(p *Profile, opts DiscoverOptions) *Discovery {
	var d discoveryRun
	opts.SessionHooks = d.splitSessionState(opts.SessionHooks)
	var files []claudeSettings
	if opts.Managed != "" {
		if s, ok := d.claudeSettingsFile(p, discAbsClean(opts.Managed), LayerManaged); ok {
			files = append(files, s)
		}
	}
	home := ResolveHome(p, opts.Home)
	if home != "" {
		if s, ok := d.claudeSettingsFile(p, filepath.Join(home, claudeSettingsName), LayerUser); ok {
			files = append(files, s)
		}
	} else {
		d.warns = append(d.warns, Warning{Message: fmt.Sprintf(
			"skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)})
	}
	// Claude Code holds project settings back until the folder is trusted;
	// the host says so (project.trusted, --trust-project).
	if dir := projectFolder(p, opts, home); dir != "" {
		for _, f := range []struct{ name, layer string }{{claudeSettingsName, LayerProject}, {claudeLocalSettingsName, LayerLocal}} {
			if s, ok := d.claudeSettingsFile(p, filepath.Join(dir, f.name), f.layer); ok {
				files = append(files, s)
			}
		}
	}
	if len(opts.SessionHooks) > 0 {
		hooks, warns := ParseHooksValue(p, opts.SessionHooks, Source{Layer: LayerSession, Path: "session"}, "session")
		d.add(hooks, warns)
	}
	enabled, forced := claudeEnabledPlugins(files)
	d.claudePlugins(p, opts, enabled)
	for i, h := range d.hooks {
		h.Order = i
	}
	d.claudeFinish(p, opts, files, forced)
	return &Discovery{Hooks: d.hooks, Warnings: d.warns, Fatal: d.fatal}
}

// claudeSettingsFile reads one settings file: its hooks are added, the rest
// is returned. A missing file is the normal case. Claude Code's settings hold
// much more than hooks, so other keys are not reported. A managed file that
// exists but cannot be read or parsed is fatal: an administrator's policy is
// never dropped in silence.
func (d *discoveryRun) claudeSettingsFile(p *Profile, path, layer string) (claudeSettings, bool) {
	s := claudeSettings{path: path, layer: layer}
	data, err := readConfigFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, false
	case err != nil && layer == LayerManaged:
		d.fail("failed to read managed settings %s: %v", path, err)
		return s, false
	case err != nil:
		d.warns = append(d.warns, Warning{Source: path, Message: fmt.Sprintf("failed to read settings %s: %v", path, err)})
		return s, false
	}
	w := newHooksWalker(p, Source{Layer: layer, Path: path}, path, data)
	clean, ok := w.checkJSON(data)
	root := gjson.ParseBytes(clean)
	if ok && !root.IsObject() {
		w.fail(root.Index, "expected a JSON object")
		ok = false
	}
	if !ok {
		if layer == LayerManaged {
			d.fail("%s", w.warns[0].Message)
			return s, false
		}
		d.add(nil, w.warns)
		return s, false
	}
	top := cfgSite{group: -1, handler: -1}
	if h := root.Get("hooks"); h.Exists() && h.Type != gjson.Null {
		if h.IsObject() {
			w.walkHooks(h, "hooks")
		} else {
			w.warn(top, h.Index, "hooks", "ignoring field %q in %s: expected an object of hook events", "hooks", path)
		}
	}
	flag := func(name string) *bool {
		v := root.Get(name)
		switch v.Type {
		case gjson.True, gjson.False:
			b := v.Bool()
			return &b
		case gjson.Null:
		default:
			if v.Exists() {
				w.warn(top, v.Index, name, "ignoring field %q in %s: expected true or false", name, path)
			}
		}
		return nil
	}
	s.disableAll = flag("disableAllHooks")
	if b := flag("allowManagedHooksOnly"); b != nil && *b && layer == LayerManaged {
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
	d.add(w.hooks, w.warns)
	return s, true
}

// claudeEnabledPlugins merges enabledPlugins over the settings files: a
// later (more specific) file wins, except that managed settings decide over
// all. forced lists the plugins managed settings enable, which
// allowManagedHooksOnly lets run.
func claudeEnabledPlugins(files []claudeSettings) (enabled map[string]bool, forced map[string]bool) {
	enabled, forced = map[string]bool{}, map[string]bool{}
	for _, f := range files {
		if f.layer == LayerManaged {
			continue
		}
		for id, on := range f.plugins {
			enabled[id] = on
		}
	}
	for _, f := range files {
		if f.layer != LayerManaged {
			continue
		}
		for id, on := range f.plugins {
			enabled[id] = on
			forced[id] = on
		}
	}
	return enabled, forced
}

// claudePlugins adds the hooks of every plugin the host names or scans,
// except those the settings disable (enabledPlugins: false hides a scanned
// plugin; one the host names explicitly still loads). Claude Code refuses a
// hooks file without a top-level "hooks" object, and with it every hook of
// the plugin, so hookd does too.
func (d *discoveryRun) claudePlugins(p *Profile, opts DiscoverOptions, enabled map[string]bool) {
	if len(opts.Plugins) == 0 && len(opts.PluginDirs) == 0 {
		return
	}
	configs := append([]PluginConfig(nil), opts.Plugins...)
	off := false
	for id, on := range enabled {
		if name, market, ok := strings.Cut(id, "@"); ok && !on {
			configs = append(configs, PluginConfig{Name: name, Marketplace: market, Enabled: &off})
		}
	}
	found, warns := plugins.Load(plugins.Options{Plugins: configs, Dirs: opts.PluginDirs, DataHome: opts.DataHome, Rule: p.PluginRule})
	for _, w := range warns {
		d.warns = append(d.warns, Warning{Source: w.Source, Message: w.Message})
	}
	for _, pl := range found {
		if msg := claudePluginFilesProblem(p, pl); msg != "" {
			d.warns = append(d.warns, Warning{Source: pl.Root, Message: fmt.Sprintf("loading no hooks for plugin %s: %s", pl.ID(), msg)})
			continue
		}
		d.addPlugin(p, pl)
	}
}

// claudePluginFilesProblem says why Claude Code would refuse a plugin's
// hooks files, or "".
func claudePluginFilesProblem(p *Profile, pl *plugins.Plugin) string {
	for _, s := range pl.Sources {
		if s.Inline != nil {
			continue
		}
		data := bytes.TrimPrefix(s.File, []byte("\xef\xbb\xbf"))
		if !gjson.ValidBytes(data) {
			// The walker says where the syntax error is.
			_, warns := ParseHooksJSON(p, s.File, Source{Layer: LayerPlugin, Path: s.Path}, s.Key)
			msg := fmt.Sprintf("failed to parse plugin hooks config %s", s.Path)
			if len(warns) > 0 {
				msg = strings.Replace(warns[0].Message, "failed to parse hooks config", "failed to parse plugin hooks config", 1)
			}
			return msg
		}
		if h := gjson.GetBytes(data, "hooks"); !gjson.ParseBytes(data).IsObject() || !h.IsObject() {
			return fmt.Sprintf(`%s has no top-level "hooks" object (Claude Code: "expected record, received undefined"); wrap the events in {"hooks": {...}}`, s.Path)
		}
	}
	return ""
}

// claudeFinish applies the settings' switches and the per-hook enabled state.
// disableAllHooks takes the value of the most specific file that sets it
// (managed settings above all); set anywhere but in managed settings, it
// leaves managed hooks running. allowManagedHooksOnly in managed settings
// keeps every other hook from running, except those of plugins the managed
// settings enable. The enabled switch is hookd's own, kept like codex's in
// [hooks.state."<key>"] of <home>/config.toml (a file Claude Code does not
// read), and in the session's and the command line's state overrides.
func (d *discoveryRun) claudeFinish(p *Profile, opts DiscoverOptions, files []claudeSettings, forced map[string]bool) {
	var off *claudeSettings
	for i := range files {
		f := &files[i]
		// files are managed, user, project, local: the last user-side
		// setting wins, and managed settings win over all.
		if f.disableAll != nil && (off == nil || off.layer != LayerManaged) {
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
	state := map[string]hookState{}
	if path := StatePath(p, opts.Home); path != "" {
		if doc := readConfigQuiet(path); doc != nil {
			if st, ok := tomlStateTable(doc); ok {
				d.mergeState(state, st, path)
			}
		}
	}
	d.mergeJSONState(state, d.sessionState, "session")
	d.mergeJSONState(state, opts.StateOverrides, "--hook-state")

	warned := map[string]bool{}
	for _, h := range d.hooks {
		managed := h.Source.Layer == LayerManaged
		switch {
		case off != nil && (!managed || off.layer == LayerManaged):
			h.Policy = PolicyDisableAllHooks
		case managedOnly != "" && !managed && !(h.Source.Layer == LayerPlugin && claudePluginForced(h, forced)):
			h.Policy = PolicyManagedOnly
			if !warned[h.Source.Path] {
				warned[h.Source.Path] = true
				d.warns = append(d.warns, Warning{Source: h.Source.Path, Message: fmt.Sprintf(
					"hooks in %s do not run: allowManagedHooksOnly is true in %s", h.Source.Path, managedOnly)})
			}
		}
		if managed {
			h.Trust, h.Enabled = TrustManaged, true
			continue
		}
		h.Trust = TrustTrusted
		st := state[h.Key]
		h.Enabled = st.Enabled == nil || *st.Enabled
	}
	if off != nil && len(d.hooks) > 0 {
		which := "no hook runs"
		if off.layer != LayerManaged {
			which = "only managed hooks run"
		}
		d.warns = append(d.warns, Warning{Source: off.path, Message: fmt.Sprintf(
			"hooks are turned off by disableAllHooks: true in %s: %s", off.path, which)})
	}
}

// claudePluginForced reports whether the managed settings enable h's plugin.
func claudePluginForced(h *Hook, forced map[string]bool) bool {
	id, _, _ := strings.Cut(h.Key, ":")
	return forced[id]
}

// claudeIdentity names what a handler does, for deduplication: its type and
// command (or MCP tool and input), as written.
func claudeIdentity(h *Hook) string {
	hd := h.Handler
	if hd.Type == TypeMCPTool {
		return strings.Join([]string{hd.Type, hd.Server, hd.Tool, string(hd.Input)}, "\x00")
	}
	return strings.Join([]string{hd.Type, hd.Command, hd.CommandWindows}, "\x00")
}

// claudeDedupe runs identical handlers from the settings files (managed,
// user, project, local) once: the first in configuration order. Plugin and
// session hooks are never merged, with each other or with settings hooks:
// two plugins may ship the same command on purpose.
func claudeDedupe(hs []*Hook) []*Hook {
	seen := map[string]bool{}
	out := make([]*Hook, 0, len(hs))
	for _, h := range hs {
		if h.Source.Layer != LayerPlugin && h.Source.Layer != LayerSession {
			id := claudeIdentity(h)
			if seen[id] {
				continue
			}
			seen[id] = true
		}
		out = append(out, h)
	}
	return out
}

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
func claudeAfterCombine(st *State, ev *EventRules, input []byte, res *Result) {
	switch ev.Name {
	case "UserPromptSubmit", "SessionStart", "PostToolUse", "PostToolUseFailure":
		st.SetInt(claudeTurnKey, st.Int(claudeTurnKey)+1)
	case "Stop", "SubagentStop":
		claudeStopCapRule(st, ev, input, res)
	case "ConfigChange":
		if res.Decision == DecisionBlock && gjson.GetBytes(input, "source").Str == "policy_settings" {
			res.Decision, res.Reason = DecisionNone, ""
		}
	}
}

func claudeStopCapRule(st *State, ev *EventRules, input []byte, res *Result) {
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
	if res.Decision != DecisionBlock {
		st.SetInt(count, 0)
		return
	}
	limit := claudeStopCap()
	if limit == 0 || n < limit {
		st.SetInt(count, n+1)
		return
	}
	st.SetInt(count, 0)
	res.Decision, res.Reason, res.Continuation = DecisionNone, "", ""
	key := ""
	for _, h := range res.Hooks {
		if h.Status == StatusBlocked {
			key = h.Key
			break
		}
	}
	res.SystemMessages = append(res.SystemMessages, Message{Hook: key, Text: fmt.Sprintf(
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
func claudeSessionEndBudgetFor(run []*Hook) time.Duration {
	if ms, err := strconv.Atoi(strings.TrimSpace(os.Getenv("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"))); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond
	}
	b := claudeSessionEndBudget
	for _, h := range run {
		if h.Source.Layer == LayerPlugin || h.Source.Layer == LayerSession || h.Handler.Timeout == 600 {
			continue
		}
		b = max(b, min(time.Duration(h.Handler.Timeout)*time.Second, claudeMaxSessionEndBudget))
	}
	return b
}
