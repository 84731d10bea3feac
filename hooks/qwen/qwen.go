package qwen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/plugins"
)

// Profile is Qwen Code's profile (reference/other-hosts.md section 3):
// settings.json scopes and extensions, no review, parallel handlers.
var Profile = &hooks.Profile{
	Name:           "qwen",
	EnvFilter:      envFilter,
	HomeEnv:        "QWEN_HOME",
	HomeDir:        ".qwen",
	ProjectDir:     ".qwen",
	Events:         qwenEventRules(),
	CompileMatcher: compileMatcher,
	ToolNames:      toolNames,
	CanonicalTool:  canonicalTool,
	Tools:          qwenTools(),
	// Qwen Code's folder trust is off by default: workspace hooks run with
	// no review step, unless the host says the project is not trusted, or
	// the user turned folder trust on and its record does not trust the
	// folder (project_trust.go).
	ProjectTrustedByDefault: true,
	ProjectTrust:            projectTrust{},
	ProjectFiles:            []string{settingsName},
	Trust:                   false,
	NoEnablement:            true,
	// The process group gets SIGTERM, then SIGKILL two seconds later.
	KillGrace:    2 * time.Second,
	Discover:     discover,
	Dedupe:       dedupe,
	PrepareInput: prepareInput,
	Chain:        chain,
	AfterCombine: afterCombine,
	QuietFields: map[string]bool{"sequential": true, "name": true, "description": true, "env": true,
		"shell": true, "once": true, "url": true, "headers": true, "allowedEnvVars": true, "prompt": true, "model": true},
	ReadHandler:  readHandler,
	HandlerKinds: handlerKinds,
	HandlerTypes: []string{hooks.TypeCommand, typeHTTP, typePrompt},
	Shell:        []string{"bash", "-c"},
}

func init() { hooks.Register(Profile) }

const (
	settingsName      = "settings.json"
	systemSettingsEnv = "QWEN_CODE_SYSTEM_SETTINGS_PATH"
	systemSettings    = "/etc/qwen-code/settings.json"
	extensionFile     = "qwen-extension.json"
)

// settingsFile is what discovery keeps of one settings file besides its
// hooks.
type settingsFile struct {
	path, layer string
	disableAll  *bool
	// httpURLs is security.allowedHttpHookUrls; nil when the file does not
	// set it.
	httpURLs []string
	// allowPrivate is security.allowPrivateNetworkHooks (user and system
	// settings only).
	allowPrivate bool
}

type discovery struct{ hooks.DiscoveryRun }

// discover loads the workspace's .qwen/settings.json, the user's
// ~/.qwen/settings.json (or $QWEN_HOME), the system settings (--managed,
// $QWEN_CODE_SYSTEM_SETTINGS_PATH or /etc/qwen-code/settings.json), the
// session hooks and the extensions, in that order: Qwen Code keeps the
// scopes apart and runs project hooks first, then user, system and
// extension hooks. The workspace is read when the project is trusted, and a
// project nobody answered for is (ProjectTrustedByDefault): Qwen Code's
// folder trust is off unless the user turns it on. A host that has it on
// says project.trusted; its explicit false (or --trust-project=false) keeps
// the workspace unread.
// disableAllHooks: true (the system scope over the others, else the most
// specific) keeps every hook from running.
func discover(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	var d discovery
	opts.SessionHooks = d.SplitSessionState(opts.SessionHooks)
	var files []settingsFile
	home := hooks.ResolveHome(p, opts.Home)
	if dir := hooks.ProjectFolder(p, opts, home); dir != "" {
		if s, ok := d.settings(p, filepath.Join(dir, settingsName), hooks.LayerProject); ok {
			files = append(files, s)
		}
	}
	if home != "" {
		if s, ok := d.settings(p, filepath.Join(home, settingsName), hooks.LayerUser); ok {
			files = append(files, s)
		}
	}
	sys := opts.Managed
	if sys == "" {
		sys = os.Getenv(systemSettingsEnv)
	}
	if sys == "" {
		sys = systemSettings
	}
	if s, ok := d.settings(p, hooks.AbsClean(sys), hooks.LayerManaged); ok {
		files = append(files, s)
	}
	if len(opts.SessionHooks) > 0 {
		hs, warns := hooks.ParseHooksValue(p, opts.SessionHooks, hooks.Source{Layer: hooks.LayerSession, Path: "session"}, "session")
		d.Add(hs, warns)
	}
	d.extensions(p, opts, home)
	var off *settingsFile
	for i := range files {
		f := &files[i]
		if f.disableAll != nil && (off == nil || off.layer != hooks.LayerManaged) {
			off = f
		}
	}
	for i, h := range d.Hooks {
		h.Order = i
		h.Enabled = true
		if h.Trust != hooks.TrustManaged {
			h.Trust = hooks.TrustTrusted
		}
		if off != nil && *off.disableAll {
			h.Policy = hooks.PolicyHooksDisabled
		}
	}
	if off != nil && *off.disableAll && len(d.Hooks) > 0 {
		d.Warns = append(d.Warns, hooks.Warning{Source: off.path, Message: fmt.Sprintf(
			"hooks are turned off by disableAllHooks: true in %s", off.path)})
	}
	return &hooks.Discovery{Hooks: d.Hooks, Warnings: d.Warns, Fatal: d.Fatal, Settings: httpSettings(files), LeftOut: d.LeftOut}
}

// settings reads one settings file's hooks and disableAllHooks. Other keys
// are Qwen Code's business and are not reported.
func (d *discovery) settings(p *hooks.Profile, path, layer string) (settingsFile, bool) {
	s := settingsFile{path: path, layer: layer}
	root, w, ok := d.ReadSettings(p, path, layer, hooks.SettingsOptions{})
	if !ok {
		return s, false
	}
	if v := root.Get("security.allowPrivateNetworkHooks"); v.Type == gjson.True {
		if layer == hooks.LayerProject {
			w.Warn(hooks.Site{Group: -1, Handler: -1}, v.Index, "security.allowPrivateNetworkHooks",
				"ignoring security.allowPrivateNetworkHooks in %s: only user and system settings may let http hooks reach private networks", path)
		} else {
			s.allowPrivate = true
		}
	}
	if v := root.Get("security.allowedHttpHookUrls"); v.IsArray() {
		s.httpURLs = []string{}
		for _, u := range v.Array() {
			if u.Type == gjson.String {
				s.httpURLs = append(s.httpURLs, u.Str)
			}
		}
	}
	if v := root.Get("disableAllHooks"); v.Type == gjson.True || v.Type == gjson.False {
		b := v.Bool()
		s.disableAll = &b
	}
	d.Add(w.Hooks, w.Warns)
	return s, true
}

// extensions adds each extension's hooks: those the host names
// (config.plugins, --plugin) and those installed under <home>/extensions.
// qwen-extension.json's "hooks" (an object, or the path of a file) comes
// first, else <ext>/hooks/hooks.json ({"hooks": {...}} or the bare map).
// ${CLAUDE_PLUGIN_ROOT} in commands becomes the extension folder.
func (d *discovery) extensions(p *hooks.Profile, opts hooks.DiscoverOptions, home string) {
	roots := hooks.ExtensionRoots(opts, home, func(root string) string {
		if _, err := os.Stat(filepath.Join(root, extensionFile)); err == nil {
			return root
		}
		return ""
	})
	act := newActivation(home, opts)
	for _, root := range roots {
		root = hooks.AbsClean(root)
		manifest := filepath.Join(root, extensionFile)
		name := filepath.Base(root)
		var doc []byte
		path := ""
		if m, ok := d.Read(manifest); ok {
			if n := gjson.GetBytes(m, "name").Str; n != "" {
				name = n
			}
			if lo, off := act.disabled(name, root); off {
				d.LeftOut = append(d.LeftOut, lo)
				continue
			}
			switch h := gjson.GetBytes(m, "hooks"); {
			case h.IsObject():
				doc, path = []byte(h.Raw), manifest
			case h.Type == gjson.String:
				path = filepath.Join(root, h.Str)
			}
		}
		if path == "" {
			path = filepath.Join(root, "hooks", "hooks.json")
		}
		if doc == nil {
			data, ok := d.Read(path)
			if !ok {
				continue
			}
			doc = data
		}
		src := hooks.Source{Layer: hooks.LayerPlugin, Path: path, Plugin: name}
		w := hooks.NewWalker(p, src, name+":"+filepath.Base(path), doc)
		clean, ok := w.CheckJSON(doc)
		if !ok {
			d.Add(nil, w.Warns)
			continue
		}
		body := gjson.ParseBytes(clean)
		if h := body.Get("hooks"); h.IsObject() {
			body = h
		}
		if !body.IsObject() {
			d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf("loading no hooks for extension %s: %s holds no object of hook events", name, path)})
			continue
		}
		w.WalkHooks(body, "hooks")
		// The folder goes into commands through plugins.Paste: raw when its
		// name is plain, the hook refused when it holds shell syntax.
		ph := []plugins.Placeholder{{Text: "${CLAUDE_PLUGIN_ROOT}", Value: root}}
		var kept []*hooks.Hook
		for _, h := range w.Hooks {
			if h.Handler.Type == hooks.TypeCommand {
				cmd, err := plugins.Paste(h.Handler.Command, ph)
				if err != nil {
					d.Warns = append(d.Warns, hooks.Warning{Source: path, Message: fmt.Sprintf(
						"skipping hook %s of extension %s: %v", h.Key, name, err)})
					continue
				}
				h.Handler.Command = cmd
			}
			kept = append(kept, h)
		}
		d.Add(kept, w.Warns)
	}
}

// Handler Env keys that carry what hookd keeps of an http or prompt
// handler besides Handler.Command (the url or the prompt); they never reach
// a process environment.
const (
	envHeaders = "\x00headers"
	envAllowed = "\x00allowedEnvVars"
	envModel   = "\x00model"
	envName    = "\x00name"
	envOnce    = "\x00once"
)

// readHandler reads what Qwen Code's handlers have besides the walker's
// command fields: the timeout unit (seconds; on a command 1000 or more is
// milliseconds;
// the default is 60 for command, 600 for http, 30 for prompt), env, shell,
// name, and the http (url, headers, allowedEnvVars) and prompt (prompt,
// model) fields.
func readHandler(ev *hooks.EventRules, raw gjson.Result, h *hooks.Hook) (string, bool) {
	var warns []string
	hd := &h.Handler
	switch hd.Type {
	case typeHTTP:
		u := raw.Get("url")
		if u.Type != gjson.String || strings.TrimSpace(u.Str) == "" {
			return `skipping http hook: field "url" must be a non-empty string`, true
		}
		hd.Command = u.Str
		hd.Timeout = httpTimeout
		if hs := raw.Get("headers"); hs.IsObject() {
			h.SetEnv(envHeaders, hs.Raw)
		}
		if a := raw.Get("allowedEnvVars"); a.IsArray() {
			h.SetEnv(envAllowed, a.Raw)
		}
		if raw.Get("once").Type == gjson.True {
			h.SetEnv(envOnce, "true")
		}
	case typePrompt:
		pr := raw.Get("prompt")
		if pr.Type != gjson.String || strings.TrimSpace(pr.Str) == "" {
			return `skipping prompt hook: field "prompt" must be a non-empty string`, true
		}
		hd.Command = pr.Str
		hd.Timeout = promptTimeout
		if m := raw.Get("model"); m.Type == gjson.String {
			h.SetEnv(envModel, m.Str)
		}
	}
	if t := raw.Get("timeout"); t.Type == gjson.Number && t.Int() > 0 {
		// Only a command's timeout of 1000 or more is read as milliseconds
		// (Qwen Code's "legacy-milliseconds"); http and prompt timeouts are
		// seconds.
		if n := int(t.Int()); n >= 1000 && hd.Type == hooks.TypeCommand {
			hd.SetTimeoutMs(n)
		} else {
			hd.Timeout, hd.TimeoutMs = n, 0
		}
	}
	if env := raw.Get("env"); env.IsObject() {
		env.ForEach(func(k, v gjson.Result) bool {
			h.SetEnv(k.Str, v.String())
			return true
		})
	}
	if n := raw.Get("name"); n.Type == gjson.String {
		h.SetEnv(envName, n.Str)
	}
	if sh := raw.Get("shell"); sh.Type == gjson.String && hd.Type == hooks.TypeCommand {
		switch sh.Str {
		case "bash":
		case "powershell":
			hd.Command = "pwsh -NoProfile -Command " + hooks.ShellQuote(hd.Command)
		default:
			warns = append(warns, fmt.Sprintf(`ignoring "shell" %q: expected "bash" or "powershell"`, sh.Str))
		}
	}
	return strings.Join(warns, "; "), false
}

// dedupe runs identical handlers once (getHookKey: name and command, url or
// prompt), the first in configuration order.
var dedupe = hooks.DedupeBy(func(h *hooks.Hook) string { return h.Handler.Type + "\x00" + h.Env[envName] + ":" + h.Handler.Command })

// prepareInput adds the ISO timestamp every input carries, right after
// hook_event_name as the host writes it, when the host did not give one.
var prepareInput = hooks.TimestampAfter("hook_event_name")

// stopCap is how many Stop blocks in a row Qwen Code honours
// (stopHookBlockingCap, QWEN_CODE_STOP_HOOK_BLOCK_CAP; 8).
func stopCap() int {
	if v, err := strconv.Atoi(strings.TrimSpace(os.Getenv("QWEN_CODE_STOP_HOOK_BLOCK_CAP"))); err == nil && v > 0 {
		return v
	}
	return 8
}

const stopsKey = "qwen.stopBlocks"

// afterCombine ends the turn after stopCap Stop blocks in a row; a new
// prompt or a Stop that does not block starts the count again.
func afterCombine(st *hooks.State, ev *hooks.EventRules, _ []byte, res *hooks.Result) {
	switch ev.Name {
	case "UserPromptSubmit", "SessionStart":
		st.SetInt(stopsKey, 0)
	case "Stop":
		if res.Decision != hooks.DecisionBlock {
			st.SetInt(stopsKey, 0)
			return
		}
		n := st.Int(stopsKey) + 1
		if n <= stopCap() {
			st.SetInt(stopsKey, n)
			return
		}
		st.SetInt(stopsKey, 0)
		res.Decision, res.Reason, res.Continuation = hooks.DecisionNone, "", ""
		res.SystemMessages = append(res.SystemMessages, hooks.Message{Text: fmt.Sprintf(
			"Stop hooks blocked %d times in a row; the turn ends (QWEN_CODE_STOP_HOOK_BLOCK_CAP changes the cap)", stopCap())})
	}
}

// jsonStrings decodes a JSON array of strings; anything else is empty.
func jsonStrings(raw string) []string {
	var out []string
	_ = json.Unmarshal([]byte(raw), &out)
	return out
}
