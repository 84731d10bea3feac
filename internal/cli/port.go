package cli

// Porting a plugin's hooks to another host's layout (hookd port, and hookd
// test --profiles, which runs a plugin's scripts on its port): the
// translation comes from the target profile's hooks.PortTable.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/regfile"
)

// A portReport is what a port carried over and what it could not.
type portReport struct {
	Plugin string   `json:"plugin"`
	From   string   `json:"from"`
	To     string   `json:"to"`
	Out    string   `json:"out"`
	Files  []string `json:"files"`
	// Changed lists what was rewritten to mean the same on the target.
	Changed []string `json:"changed"`
	// Lost lists what could not be carried over, and why.
	Lost []string `json:"lost"`
}

// portMaxFile bounds one copied file; portMaxTotal the whole copy.
const (
	portMaxFile  = 64 << 20
	portMaxTotal = 256 << 20
)

// toolEvents are the Claude Code events whose matcher names tools.
var toolEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"}

// exactMatchEvents are, per host, the lifecycle events whose matcher is an
// exact string rather than a regex (Gemini CLI's SessionStart, SessionEnd,
// PreCompress).
var exactMatchEvents = map[string][]string{"gemini": {"SessionStart", "SessionEnd", "PreCompact"}}

// rootEnvHosts export both CLAUDE_PLUGIN_ROOT and PLUGIN_ROOT to a
// plugin's hooks themselves; elsewhere the port exports them in front of the
// command, so scripts that read them from the environment keep working
// (Claude Code sets no PLUGIN_ROOT).
var rootEnvHosts = []string{"codex", "copilot"}

// sourceHooks reads a plugin's hooks: the manifest's "hooks" (an object, a
// path, or a list of either) else hooks/hooks.json, as {event: [groups]}.
func sourceHooks(root string) (map[string]gjson.Result, []string, error) {
	var docs []gjson.Result
	var read []string
	readFile := func(rel string) error {
		data, err := hooks.ReadConfigFile(filepath.Join(root, rel))
		if err != nil {
			return err
		}
		if !gjson.ValidBytes(data) {
			return fmt.Errorf("%s: not valid JSON", rel)
		}
		docs = append(docs, gjson.ParseBytes(data))
		read = append(read, rel)
		return nil
	}
	for _, m := range []string{".claude-plugin/plugin.json", ".codex-plugin/plugin.json"} {
		data, err := hooks.ReadConfigFile(filepath.Join(root, m))
		if err != nil || !gjson.ValidBytes(data) {
			continue
		}
		h := gjson.GetBytes(data, "hooks")
		items := []gjson.Result{h}
		if h.IsArray() {
			items = h.Array()
		}
		for _, it := range items {
			switch {
			case it.IsObject():
				docs = append(docs, it)
				read = append(read, m+"#hooks")
			case it.Type == gjson.String:
				rel := filepath.Clean(it.Str)
				if filepath.IsAbs(rel) || strings.HasPrefix(rel, "..") {
					return nil, nil, fmt.Errorf("%s: hooks path %q leaves the plugin", m, it.Str)
				}
				if err := readFile(rel); err != nil {
					return nil, nil, err
				}
			}
		}
		break
	}
	if len(docs) == 0 {
		if err := readFile(filepath.Join("hooks", "hooks.json")); err != nil {
			return nil, nil, fmt.Errorf("no hooks found in %s: %w", root, err)
		}
	}
	out := map[string]gjson.Result{}
	for _, d := range docs {
		if h := d.Get("hooks"); h.IsObject() {
			d = h
		}
		d.ForEach(func(k, v gjson.Result) bool {
			if v.IsArray() {
				if prev, ok := out[k.Str]; ok {
					v = gjson.Parse("[" + strings.Trim(prev.Raw, "[] \n") + "," + strings.Trim(v.Raw, "[] \n") + "]")
				}
				out[k.Str] = v
			}
			return true
		})
	}
	return out, read, nil
}

// portPlugin writes the plugin in root for the profile to into out (which
// must not exist or be empty) and returns the report.
func portPlugin(root, to, out string) (*portReport, error) {
	t, ok := hooks.LookupPortTable(to)
	if !ok {
		return nil, usagef("--to %q: no such profile (known: %s)", to, strings.Join(hooks.PortTableNames(), ", "))
	}
	if t.NoPlugins != "" {
		return nil, fmt.Errorf("cannot port to %s: %s", to, t.NoPlugins)
	}
	from := pluginHostProfile(root)
	if from == "" {
		from = hooks.DefaultProfile
	}
	src, read, err := sourceHooks(root)
	if err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("--out %s: the folder is not empty", out)
	}
	r := &portReport{Plugin: filepath.Base(root), From: from, To: to, Out: out}
	skip := map[string]bool{".claude-plugin": to != "claude", ".codex-plugin": to != "codex", ".git": true}
	for _, rel := range read {
		skip[strings.TrimSuffix(rel, "#hooks")] = true
	}
	if err := copyTree(root, out, skip, r); err != nil {
		return nil, err
	}
	if to != "claude" && to != "codex" && mentions(out, skip, "PLUGIN_DATA") != "" {
		r.Lost = append(r.Lost, fmt.Sprintf("the plugin reads PLUGIN_DATA or CLAUDE_PLUGIN_DATA: %s gives a plugin no data folder, and hooks see neither variable", to))
	}
	r.Lost = append(r.Lost, toolNameChecks(t, out, skip)...)
	body := translateHooks(t, from, src, r)
	doc := map[string]any{"hooks": body}
	if t.Layout.Version != 0 {
		doc["version"] = t.Layout.Version
	}
	if err := writeJSON(filepath.Join(out, t.Layout.HooksFile), doc); err != nil {
		return nil, err
	}
	r.Files = append(r.Files, t.Layout.HooksFile)
	if t.Layout.Manifest != "" {
		if err := writeJSON(filepath.Join(out, t.Layout.Manifest), portManifest(root, r.Plugin)); err != nil {
			return nil, err
		}
		r.Files = append(r.Files, t.Layout.Manifest)
	}
	if err := os.WriteFile(filepath.Join(out, "PORT.md"), []byte(r.markdown()), 0o644); err != nil {
		return nil, err
	}
	r.Files = append(r.Files, "PORT.md")
	return r, nil
}

// portManifest keeps the source manifest's name, version and description.
func portManifest(root, name string) map[string]any {
	m := map[string]any{"name": name, "version": "0.0.0"}
	for _, f := range []string{".claude-plugin/plugin.json", ".codex-plugin/plugin.json"} {
		data, err := hooks.ReadConfigFile(filepath.Join(root, f))
		if err != nil {
			continue
		}
		for _, k := range []string{"name", "version", "description"} {
			if v := gjson.GetBytes(data, k); v.Type == gjson.String && v.Str != "" {
				m[k] = v.Str
			}
		}
		break
	}
	return m
}

var plainName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// translateHooks turns the source's {event: [groups]} into the target's.
func translateHooks(t *hooks.PortTable, from string, src map[string]gjson.Result, r *portReport) map[string]any {
	out := map[string]any{}
	var names []string
	for k := range src {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return eventOrder(a) - eventOrder(b) })
	exact := exactMatchEvents[t.Profile]
	for _, ev := range names {
		target, ok := t.Event(ev)
		if !ok {
			r.Lost = append(r.Lost, fmt.Sprintf("%s hooks: %s has no such event (%s)", ev, t.Profile, t.Doc+"#events"))
			continue
		}
		if target != ev && t.Profile != "copilot" {
			r.Changed = append(r.Changed, fmt.Sprintf("event %s → %s", ev, target))
		}
		key := target
		if t.Profile == "copilot" {
			// Claude Code's PascalCase names in a version 1 file: their
			// hooks get the snake_case input the scripts read.
			key = ev
		}
		var groups []any
		for gi, g := range src[ev].Array() {
			matchers := []string{g.Get("matcher").String()}
			if slices.Contains(toolEvents, ev) {
				matchers = []string{portToolMatcher(t, ev, gi, matchers[0], r)}
				if matchers[0] == "\x00" {
					continue
				}
			} else if matchers[0] != "" && matchers[0] != "*" && !hostMatches(t.Profile, target) {
				r.Lost = append(r.Lost, fmt.Sprintf("%s group %d: matcher %q: %s's %s has no matcher, so the group runs on every %s (%s)", ev, gi, matchers[0], t.Profile, target, target, t.Doc+"#matchers"))
				matchers = []string{""}
			} else if slices.Contains(exact, ev) && strings.Contains(matchers[0], "|") {
				matchers = strings.Split(matchers[0], "|")
				r.Changed = append(r.Changed, fmt.Sprintf("%s group %d: matcher %q split into one group per value (%s matches %s exactly)", ev, gi, g.Get("matcher").Str, t.Profile, target))
			}
			var handlers []any
			for hi, h := range g.Get("hooks").Array() {
				if hd := portHandler(t, from, ev, gi, hi, h, r); hd != nil {
					handlers = append(handlers, hd)
				}
			}
			if len(handlers) == 0 {
				continue
			}
			for _, m := range matchers {
				grp := map[string]any{"hooks": handlers}
				if m != "" {
					grp["matcher"] = m
				}
				groups = append(groups, grp)
			}
		}
		if len(groups) > 0 {
			out[key] = groups
		}
	}
	return out
}

// hostMatches reports whether the host's event tests a matcher.
func hostMatches(profile, event string) bool {
	p, ok := hooks.LookupProfile(profile)
	if !ok {
		return true
	}
	ev := p.Event(event)
	return ev == nil || ev.MatchField != ""
}

// mentions returns the first file of the copied plugin (up to 1 MiB each,
// outside the skipped paths and the test scripts) that holds one of words,
// relative to dir, or "".
func mentions(dir string, skip map[string]bool, words ...string) string {
	found := ""
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() && (rel == "testscripts" || skip[rel]) {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() || skip[rel] {
			return nil
		}
		f, err := regfile.Open(path) // a FIFO swapped in since the walk is not waited on
		if err != nil {
			return nil
		}
		defer f.Close()
		b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
		for _, w := range words {
			if bytes.Contains(b, []byte(w)) {
				found = rel
			}
		}
		return nil
	})
	return found
}

// toolNameChecks reports the plugin's files that name, quoted, a Claude Code
// tool the host calls otherwise: a hook that compares tool_name with that
// name does not match on the host, and the port leaves scripts as they are.
func toolNameChecks(t *hooks.PortTable, out string, skip map[string]bool) []string {
	var lost []string
	for _, tool := range hooks.ClaudeTools {
		n, ok := t.Tools[tool]
		if !ok || n == tool {
			continue
		}
		if f := mentions(out, skip, "'"+tool+"'", `"`+tool+`"`); f != "" {
			lost = append(lost, fmt.Sprintf("%s names the tool %q: %s calls it %s, so a hook that compares tool_name with Claude Code's name does not match there", f, tool, t.Profile, n))
		}
	}
	return lost
}

func eventOrder(ev string) int {
	if i := slices.Index(hooks.ClaudeEvents, ev); i >= 0 {
		return i
	}
	return len(hooks.ClaudeEvents)
}

// portToolMatcher translates a tool matcher: "|"-separated names map one by
// one; a regex is kept as written. "\x00" drops the group (no tool left).
func portToolMatcher(t *hooks.PortTable, ev string, gi int, m string, r *portReport) string {
	if m == "" || m == "*" {
		return m
	}
	var items []string
	for _, it := range strings.Split(m, "|") {
		if !plainName.MatchString(it) {
			r.Lost = append(r.Lost, fmt.Sprintf("%s group %d: matcher %q is a regex; kept as written, check it against %s's tool names (%s)", ev, gi, m, t.Profile, t.Doc+"#matchers"))
			return m
		}
		n, ok := t.Tool(it)
		if !ok {
			r.Lost = append(r.Lost, fmt.Sprintf("%s group %d: tool %s has no %s counterpart; left out of the matcher", ev, gi, it, t.Profile))
			continue
		}
		if n != it {
			r.Changed = append(r.Changed, fmt.Sprintf("%s group %d: tool %s → %s", ev, gi, it, n))
		}
		if !slices.Contains(items, n) {
			items = append(items, n)
		}
	}
	if len(items) == 0 {
		r.Lost = append(r.Lost, fmt.Sprintf("%s group %d: no tool of matcher %q exists on %s; the group is left out", ev, gi, m, t.Profile))
		return "\x00"
	}
	return strings.Join(items, "|")
}

// portHandler translates one handler, or returns nil when it cannot run on
// the target.
func portHandler(t *hooks.PortTable, from, ev string, gi, hi int, h gjson.Result, r *portReport) map[string]any {
	where := fmt.Sprintf("%s group %d hook %d", ev, gi, hi)
	typ := h.Get("type").Str
	if typ != "command" && t.Profile != "claude" {
		r.Lost = append(r.Lost, fmt.Sprintf("%s: a %q handler does not run on %s (only command handlers are carried over)", where, typ, t.Profile))
		return nil
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(h.Raw), &out); err != nil {
		r.Lost = append(r.Lost, fmt.Sprintf("%s: %v", where, err))
		return nil
	}
	if t.Profile == from {
		return out
	}
	if cmd, ok := out["command"].(string); ok && t.Layout.RootVar != "" {
		n := strings.NewReplacer("${CLAUDE_PLUGIN_ROOT}", t.Layout.RootVar, "${PLUGIN_ROOT}", t.Layout.RootVar).Replace(cmd)
		if n != cmd {
			r.Changed = append(r.Changed, fmt.Sprintf("%s: the plugin folder is %s", where, t.Layout.RootVar))
		}
		if !slices.Contains(rootEnvHosts, t.Profile) {
			n = fmt.Sprintf(`export CLAUDE_PLUGIN_ROOT="%s" PLUGIN_ROOT="%s"; %s`, t.Layout.RootVar, t.Layout.RootVar, n)
			r.Changed = append(r.Changed, fmt.Sprintf("%s: CLAUDE_PLUGIN_ROOT and PLUGIN_ROOT exported in front of the command (%s does not set them)", where, t.Profile))
		}
		out["command"] = n
	}
	if cmd, ok := out["command"].(string); ok && adaptNeeds(t.Profile, ev) {
		out["command"] = fmt.Sprintf("set -o pipefail; { %s\n} | hookd port-output --to %s --event %s", cmd, t.Profile, ev)
		r.Changed = append(r.Changed, fmt.Sprintf("%s: stdout piped through hookd port-output, which gives a Claude Code answer the fields %s reads (hookd must be on the hooks' PATH)", where, t.Profile))
	}
	if v, ok := out["timeout"].(float64); ok {
		delete(out, "timeout")
		out[t.Layout.TimeoutKey] = v * float64(t.Layout.TimeoutScale)
		if t.Layout.TimeoutScale != 1 || t.Layout.TimeoutKey != "timeout" {
			r.Changed = append(r.Changed, fmt.Sprintf("%s: timeout %gs → %s %g", where, v, t.Layout.TimeoutKey, v*float64(t.Layout.TimeoutScale)))
		}
	}
	for _, k := range t.Layout.Drop {
		if _, ok := out[k]; ok {
			delete(out, k)
			r.Lost = append(r.Lost, fmt.Sprintf("%s: %q is not read by %s; left out", where, k, t.Profile))
		}
	}
	return out
}

// copyTree copies the plugin's regular files and folders to out; symlinks
// are recreated as they are (never followed), other kinds are left out and
// reported, and the copy is bounded.
func copyTree(root, out string, skip map[string]bool, r *portReport) error {
	var total int64
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel != "." && skip[filepath.ToSlash(rel)] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		dst := filepath.Join(out, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case !d.Type().IsRegular():
			r.Lost = append(r.Lost, fmt.Sprintf("%s: not a regular file; not copied", rel))
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > portMaxFile || total+info.Size() > portMaxTotal {
			r.Lost = append(r.Lost, fmt.Sprintf("%s: %d bytes, over the copy's bound; not copied", rel, info.Size()))
			return nil
		}
		total += info.Size()
		return copyFile(path, dst, info.Mode().Perm(), info.Size())
	})
}

func copyFile(src, dst string, perm fs.FileMode, size int64) error {
	// Opened without waiting and checked as opened: the plugin's file may
	// have been swapped for a FIFO since the walk.
	in, err := regfile.Open(src)
	if errors.Is(err, regfile.ErrNotRegular) {
		return fmt.Errorf("%s: changed while copying", src)
	}
	if err != nil {
		return err
	}
	defer in.Close()
	o, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(o, io.LimitReader(in, size)); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

func writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// markdown is the report written next to the ported files.
func (r *portReport) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s ported from %s to %s\n\nWritten by hookd port. The scripts are as in the original.\n\n## Rewritten\n\n", r.Plugin, r.From, r.To)
	list := func(items []string) {
		if len(items) == 0 {
			b.WriteString("- nothing\n")
		}
		for _, it := range items {
			fmt.Fprintf(&b, "- %s\n", it)
		}
	}
	list(r.Changed)
	b.WriteString("\n## Not carried over\n\n")
	list(r.Lost)
	return b.String()
}
