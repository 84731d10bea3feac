// Package lint finds what hook authors get wrong in hooks files: the
// discovery problems the engine reports (files that do not parse, unknown
// fields, invalid matchers), placed at their file, line and column, and the
// mistakes that load fine but never do what was meant (a matcher on an event
// that ignores matchers, "bash" for Bash, a regular expression that matches
// every tool, an unquoted ${CLAUDE_PLUGIN_ROOT}, a script that is not there,
// a Stop hook that can loop).
//
// It reads what discovery loaded (hooks.Engine.List) and the JSON hooks files
// behind it again, for positions; it changes nothing and runs nothing.
package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
	"github.com/hookd/hookd/internal/suggest"
)

// Rules, as Diagnostic.Rule names them.
const (
	RuleDiscovery       = "discovery"         // a problem discovery reported
	RuleSchema          = "schema"            // schema/hooks.schema.json says no where discovery is lenient
	RuleNoHooksRoot     = "no-hooks-root"     // events at the top of a hooks file
	RuleMatcherIgnored  = "matcher-ignored"   // a matcher on an event that ignores matchers
	RuleToolCase        = "tool-case"         // "bash" for Bash
	RuleUnknownTool     = "unknown-tool"      // an exact item that names no tool of the host
	RuleMatchesAll      = "matches-all"       // a regular expression that matches every tool
	RuleIfNonTool       = "if-non-tool"       // "if" on an event that has no tool call
	RuleUnquotedVar     = "unquoted-var"      // ${CLAUDE_PLUGIN_ROOT} outside quotes
	RuleScriptMissing   = "script-missing"    // the command's script does not exist
	RuleScriptNotExec   = "script-not-exec"   // the command runs a script that is not executable
	RuleStopLoop        = "stop-loop"         // a Stop hook that blocks without reading stop_hook_active
	RuleTimeoutAboveCap = "timeout-above-cap" // a timeout the host clamps
)

// A Diagnostic is one problem, at a place editors and CI can annotate.
type Diagnostic struct {
	File string `json:"file"`
	// Line and Column are 1-based; 0 when the place is the whole file.
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// String is "FILE:LINE:COL: SEVERITY: MESSAGE [RULE]".
func (d Diagnostic) String() string {
	where := d.File
	if where == "" {
		where = "hookd"
	}
	if d.Line > 0 {
		where += fmt.Sprintf(":%d:%d", d.Line, d.Column)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", where, d.Severity, d.Message, d.Rule)
}

// positionSuffix and tomlPath are how the hooks readers append a place to a
// message: a JSON position, or the path of a TOML value.
var (
	positionSuffix = lazyre.New(`\s*\(line (\d+), column (\d+)\)$`)
	tomlPath       = lazyre.New(`\s*\(at ([^()]+)\)$`)
)

// uniqueKey finds the line and column of the last key of path in a TOML
// file, when exactly one line assigns that key.
func uniqueKey(file, path string) (line, col int, ok bool) {
	key := path
	if i := strings.LastIndexAny(path, ".]"); i >= 0 {
		key = path[i+1:]
	}
	if key == "" {
		return 0, 0, false
	}
	data, err := hooks.ReadConfigFile(file)
	if err != nil {
		return 0, 0, false
	}
	re := regexp.MustCompile(`(?m)^([ \t]*)["']?` + regexp.QuoteMeta(key) + `["']?[ \t]*=`)
	all := re.FindAllSubmatchIndex(data, 2)
	if len(all) != 1 {
		return 0, 0, false
	}
	line, col = lineCol(data, all[0][3])
	return line, col, true
}

// Check lints the hooks discovery loaded (list) and the problems it reported
// (warnings) under profile p. files names JSON hooks files to read even when
// they gave no hook and no warning (a file whose events are all misplaced).
func Check(p *hooks.Profile, list []hooks.HookInfo, warnings []hooks.Warning, files []string) []Diagnostic {
	var out []Diagnostic
	seen := map[string]bool{}
	var order []string
	addFile := func(path string) {
		if path != "" && strings.HasSuffix(path, ".json") && !seen[path] {
			seen[path] = true
			order = append(order, path)
		}
	}
	for _, h := range list {
		addFile(h.Source.Path)
	}
	for _, w := range warnings {
		addFile(w.Source)
	}
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			addFile(f)
		}
	}
	walked := map[string]bool{}
	for _, f := range order {
		ds, ok := checkFile(p, f)
		walked[f] = ok
		out = append(out, ds...)
	}
	// Hooks from files that are not JSON (config.toml tables, Mirri's
	// [[hooks]]): the same matcher and command rules, on what discovery
	// loaded, placed where the text is found in the file.
	other := map[string]*fileLinter{}
	for _, h := range list {
		path := h.Source.Path
		if walked[path] || path == "" {
			continue
		}
		l := other[path]
		if l == nil {
			data, err := hooks.ReadConfigFile(path)
			if err != nil {
				continue
			}
			l = &fileLinter{p: p, path: path, doc: data, plugin: pluginRoot(path)}
			other[path] = l
		}
		l.loaded(h)
	}
	for _, l := range other {
		out = append(out, l.out...)
	}
	for _, w := range warnings {
		// The raw walk reports a clamped timeout at the timeout itself.
		if walked[w.Source] && strings.HasPrefix(w.Message, "clamping ") {
			continue
		}
		out = append(out, fromWarning(w))
	}
	out = dedupe(out)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return out
}

// discoveryRules name the discovery warnings that are one of the lint rules
// (the profile that has "if" already says it is on a non-tool event).
var discoveryRules = []struct{ says, rule string }{
	{`has "if" on`, RuleIfNonTool},
}

// dedupe drops repeated diagnostics: handlers of one group share its matcher.
func dedupe(ds []Diagnostic) []Diagnostic {
	seen := map[Diagnostic]bool{}
	out := ds[:0]
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// loaded lints one hook discovery loaded from a file that is not JSON.
func (l *fileLinter) loaded(h hooks.HookInfo) {
	ev := l.p.Event(h.Event)
	if ev == nil {
		return
	}
	if h.Matcher != nil && *h.Matcher != "" {
		l.matcher(ev, l.found(*h.Matcher))
	}
	if h.Handler.Type == hooks.TypeCommand && strings.TrimSpace(h.Handler.Command) != "" {
		l.command(ev, l.found(h.Handler.Command))
	}
}

// found is text as a string value at the first place the file spells it
// (quoted), or with no place when it is not found as such.
func (l *fileLinter) found(text string) gjson.Result {
	at := gjson.Result{Type: gjson.String, Str: text, Index: -1}
	for _, q := range []string{strconv.Quote(text), "'" + text + "'"} {
		if i := strings.Index(string(l.doc), q); i >= 0 {
			at.Index = i
			break
		}
	}
	return at
}

// fromWarning places a discovery warning at the position its message ends
// with, and drops the path the message repeats.
func fromWarning(w hooks.Warning) Diagnostic {
	d := Diagnostic{File: w.Source, Severity: w.Severity(), Rule: RuleDiscovery, Message: w.Message}
	for _, r := range discoveryRules {
		if strings.Contains(w.Message, r.says) {
			d.Rule = r.rule
		}
	}
	if m := positionSuffix.FindStringSubmatch(d.Message); m != nil {
		d.Message = d.Message[:len(d.Message)-len(m[0])]
		d.Line, _ = strconv.Atoi(m[1])
		d.Column, _ = strconv.Atoi(m[2])
	} else if m := tomlPath.FindStringSubmatch(d.Message); m != nil {
		// A TOML reader names the value's path: place it at its key when the
		// file spells that key once (else the file is the place).
		if line, col, ok := uniqueKey(w.Source, m[1]); ok {
			d.Message = d.Message[:len(d.Message)-len(m[0])]
			d.Line, d.Column = line, col
		}
	}
	if w.Source != "" {
		d.Message = strings.Replace(d.Message, " in "+w.Source, "", 1)
		d.Message = strings.Replace(d.Message, " "+w.Source+": ", ": ", 1)
	}
	var ctx []string
	if w.Event != "" {
		ctx = append(ctx, w.Event)
	}
	if w.Group != nil {
		ctx = append(ctx, fmt.Sprintf("group %d", *w.Group))
	}
	if w.Handler != nil {
		ctx = append(ctx, fmt.Sprintf("handler %d", *w.Handler))
	}
	if len(ctx) > 0 {
		d.Message += " (" + strings.Join(ctx, ", ") + ")"
	}
	return d
}

// fileLinter walks one JSON hooks file.
type fileLinter struct {
	p    *hooks.Profile
	path string
	doc  []byte
	// plugin is the plugin root the file belongs to, "" when none.
	plugin string
	out    []Diagnostic
}

// checkFile lints a JSON file with the event → group → handler shape. It
// reports false when the file could not be read as such (discovery says why).
func checkFile(p *hooks.Profile, path string) ([]Diagnostic, bool) {
	data, err := hooks.ReadConfigFile(path)
	if err != nil || !gjson.ValidBytes(data) {
		return nil, false
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return nil, false
	}
	l := &fileLinter{p: p, path: path, doc: data, plugin: pluginRoot(path)}
	hooksVal := root.Get("hooks")
	if slices.Contains(p.BareHooksFiles, filepath.Base(path)) {
		hooksVal = root
	}
	if !hooksVal.Exists() {
		if !isSettingsFile(path) {
			var events []string
			root.ForEach(func(k, _ gjson.Result) bool {
				if p.Event(k.Str) != nil {
					events = append(events, k.Str)
				}
				return true
			})
			msg := `no "hooks" object: a hooks file is {"hooks": {EVENT: [groups]}}`
			if len(events) > 0 {
				msg = fmt.Sprintf(`%s at the top level: events go inside a "hooks" object ({"hooks": {%q: [...]}}), else they are not loaded`, strings.Join(events, ", "), events[0])
			}
			l.report(root, hooks.SeverityError, RuleNoHooksRoot, "%s", msg)
		}
		return l.out, true
	}
	if !hooksVal.IsObject() {
		return l.out, true
	}
	hooksVal.ForEach(func(k, groups gjson.Result) bool {
		ev := p.Event(k.Str)
		if ev == nil || !groups.IsArray() {
			return true // discovery reports unknown events and bad shapes
		}
		for _, g := range groups.Array() {
			if g.IsObject() {
				l.group(ev, g)
			}
		}
		return true
	})
	return l.out, true
}

// isSettingsFile: Claude Code's settings files hold hooks among other
// settings, so a missing "hooks" is normal there.
func isSettingsFile(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, "settings") || strings.HasSuffix(base, "-settings.json")
}

// pluginRoot is the folder above path holding a plugin manifest, or "".
func pluginRoot(path string) string {
	for d := filepath.Dir(path); ; {
		for _, m := range []string{".codex-plugin", ".claude-plugin"} {
			if fi, err := os.Stat(filepath.Join(d, m, "plugin.json")); err == nil && fi.Mode().IsRegular() {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

func (l *fileLinter) report(at gjson.Result, severity, rule, format string, args ...any) {
	d := Diagnostic{File: l.path, Severity: severity, Rule: rule, Message: fmt.Sprintf(format, args...)}
	if at.Index >= 0 && (at.Index > 0 || at.Exists()) {
		d.Line, d.Column = lineCol(l.doc, at.Index)
	}
	l.out = append(l.out, d)
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (line, col int) {
	line, col = 1, 1
	for _, b := range data[:min(off, len(data))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// deliberateAll are the regular expressions written to match everything
// (".*"): meant, not an accident.
var deliberateAll = lazyre.New(`^\^?\.[*+]\$?$`)

// probeTool is a name no host has: a matcher that matches it matches every
// tool.
const probeTool = "hookd_check_no_such_tool_7f3e"

func (l *fileLinter) group(ev *hooks.EventRules, g gjson.Result) {
	switch m := g.Get("matcher"); {
	case m.Type == gjson.String:
		l.matcher(ev, m)
	case m.Exists() && m.Type != gjson.Null && ev.MatchField == "":
		// Discovery drops a matcher here unread; the schema still wants a string.
		l.report(m, hooks.SeverityWarning, RuleSchema, "matcher must be a string (and %s ignores matchers: remove it)", ev.Name)
	}
	if hs := g.Get("hooks"); !hs.Exists() {
		if l.p.EntriesAreHandlers {
			l.handler(ev, g)
			return
		}
		l.report(g, hooks.SeverityWarning, RuleSchema, "matcher group has no \"hooks\" array: it runs nothing")
	}
	for _, h := range g.Get("hooks").Array() {
		if h.IsObject() {
			l.handler(ev, h)
		}
	}
}

func (l *fileLinter) matcher(ev *hooks.EventRules, at gjson.Result) {
	text := at.Str
	if strings.TrimSpace(text) == "" || text == "*" {
		return
	}
	if ev.MatchField == "" {
		l.report(at, hooks.SeverityWarning, RuleMatcherIgnored,
			"%s ignores matchers: every %s runs this group whatever %q says; remove the matcher", ev.Name, ev.Name, text)
		return
	}
	if !ev.ToolEvent {
		return
	}
	m, err := l.p.CompileMatcherFor(ev, text)
	if err != nil {
		return // discovery reports it
	}
	if names, ok := hooks.ExactNames(m); ok {
		l.toolNames(at, names)
		return
	}
	if !hooks.IsMatchAll(m) && !deliberateAll.MatchString(text) && m.Match([]string{probeTool}) {
		l.report(at, hooks.SeverityWarning, RuleMatchesAll,
			"matcher %q matches every tool (it matches an empty or any name: a stray |, or .*); write \"*\" if every tool is meant", text)
	}
}

func (l *fileLinter) toolNames(at gjson.Result, names []string) {
	tools := l.p.Tools
	if tools == nil {
		return
	}
	for _, n := range names {
		if n == "" || contains(tools, n) || strings.HasPrefix(n, "mcp__") {
			continue
		}
		if t := foldMatch(tools, n); t != "" {
			l.report(at, hooks.SeverityError, RuleToolCase,
				"matcher item %q matches no tool: tool names are case-sensitive (did you mean %q?)", n, t)
			continue
		}
		l.report(at, hooks.SeverityWarning, RuleUnknownTool,
			"matcher item %q names no %s tool%s (%s; MCP tools are mcp__<server>__<tool>)", n, l.p.Name, suggest.DidYouMean(n, tools), strings.Join(tools, ", "))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func foldMatch(list []string, s string) string {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return x
		}
	}
	return ""
}

func (l *fileLinter) handler(ev *hooks.EventRules, h gjson.Result) {
	if t := h.Get("timeout"); t.Type == gjson.Number && ev.MaxTimeout > 0 && t.Float() > float64(ev.MaxTimeout) {
		l.report(t, hooks.SeverityWarning, RuleTimeoutAboveCap,
			"timeout %s is above the %d s the %s host allows for %s: it runs with %d", t.Raw, ev.MaxTimeout, l.p.Name, ev.Name, ev.MaxTimeout)
	}
	typ := h.Get("type").Str
	cmd := h.Get("command")
	if (typ != "" && typ != "command") || cmd.Type != gjson.String || strings.TrimSpace(cmd.Str) == "" {
		return
	}
	l.command(ev, cmd)
}

// loadErrorLine is one line of a load error that names a file and line
// (Mirri's config: "load hooks from FILE: line N: MESSAGE").
var loadErrorLine = lazyre.New(`^load hooks from (.+?): line (\d+): (.*)$`)

// FromLoadError turns the error of a load that failed as a whole (a config
// the host refuses entirely, required managed hooks that do not load) into
// diagnostics, one per line of it, placed when the line names its place.
func FromLoadError(err error) []Diagnostic {
	var out []Diagnostic
	for _, line := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
		d := Diagnostic{Severity: hooks.SeverityError, Rule: RuleDiscovery, Message: line}
		if m := loadErrorLine.FindStringSubmatch(line); m != nil {
			d.File, d.Message = m[1], m[3]
			d.Line, _ = strconv.Atoi(m[2])
			d.Column = 1
		}
		out = append(out, d)
	}
	return out
}
