// Package doctor answers "why didn't my hook fire?" for every agent host
// configured on the machine. For a working folder it finds the hosts whose
// user folder exists, loads each one's hooks with that host's own rules
// (hooks.Engine: user, project, managed layers, installed plugins, trust and
// policy), and turns what the engine and the linter know into a verdict per
// source and per hook: will run, or will not run with the reason and the fix.
//
// It reads and never writes: no host's config, review record or trust list
// changes, and no hook runs.
package doctor

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/lint"
	"github.com/hookd/hookd/internal/lazyre"
	"github.com/hookd/hookd/internal/suggest"
)

// Reasons a hook will not run, besides the engine's skip reasons
// (hooks.TrustUntrusted, hooks.TrustModified, "disabled", the policies).
const (
	// ReasonMatcherNever: the group's matcher names no tool of the host.
	ReasonMatcherNever = "matcherNeverMatches"
	// ReasonProgramMissing: the command's program is not on PATH.
	ReasonProgramMissing = "programNotFound"
	// ReasonBroken: a hooks file that gives no hook because of an error
	// (it does not parse, its events are not inside "hooks").
	ReasonBroken = "broken"
	// ReasonPathRefused: a plugin manifest names a hooks file the host
	// will not read (outside the plugin, not ./-relative).
	ReasonPathRefused = "hooksPathRefused"
	// ReasonDuplicate: an identical handler from another source runs in
	// its place (the host runs it once).
	ReasonDuplicate = "duplicate"
	// ReasonShellMissing: the shell the host runs commands through is missing.
	ReasonShellMissing = "shellMissing"
	// ReasonScriptMissing and ReasonScriptNotExec are lint's rules of the
	// same names: the script the command runs is not there, or not executable.
	ReasonScriptMissing = lint.RuleScriptMissing
	ReasonScriptNotExec = lint.RuleScriptNotExec
)

// Options say where to look.
type Options struct {
	// Cwd is the session folder the hosts would start in (required).
	Cwd string
	// Hosts names the profiles to check; empty: every registered profile
	// whose user folder exists.
	Hosts []string
	// Repeat is appended to each fix command that loads hooks again, so it
	// names the same folder (" --cwd DIR"); "" when the current directory
	// is meant.
	Repeat string
}

// Report is the doctor's answer for one folder.
type Report struct {
	Cwd   string `json:"cwd"`
	Hosts []Host `json:"hosts"`
}

// Host is one host's verdicts.
type Host struct {
	Name string `json:"name"`
	// Home is the host's user folder; Configured is false when it does not
	// exist (the host was asked for by name, or is not installed).
	Home       string               `json:"home"`
	Configured bool                 `json:"configured"`
	Project    *hooks.ProjectStatus `json:"project,omitempty"`
	// Problems concern the host as a whole (its shell is missing, hooks
	// could not be loaded).
	Problems []Problem `json:"problems,omitempty"`
	Sources  []Source  `json:"sources"`
	// Hooks counts the hooks found, Run those that will run, NotRun those
	// that will not; LeftOut counts the sources not read, and Off those of
	// them the user switched off (a plugin the user disabled).
	Hooks   int    `json:"hooks"`
	Run     int    `json:"run"`
	NotRun  int    `json:"notRun"`
	LeftOut int    `json:"leftOut"`
	Off     int    `json:"off"`
	Summary string `json:"summary"`
}

// Failing is true when a hook someone configured for this host will not
// run, or a hooks file of it is not read. A source the user switched off
// (a plugin disabled in the user's own settings) is reported but is not a
// failure: nothing the user asked to run is lost.
func (h Host) Failing() bool { return h.NotRun > 0 || h.LeftOut > h.Off }

// Source is one hooks file (or plugin) the host reads or leaves out.
type Source struct {
	Path   string `json:"path"`
	Layer  string `json:"layer,omitempty"`
	Plugin string `json:"plugin,omitempty"`
	Read   bool   `json:"read"`
	// Reason, Message and Fix say why a source is left out and what
	// changes it (hooks.LeftOut); UserChoice, that the user's own switch
	// left it out.
	Reason     string    `json:"reason,omitempty"`
	Message    string    `json:"message,omitempty"`
	Fix        string    `json:"fix,omitempty"`
	UserChoice bool      `json:"userChoice,omitempty"`
	Problems   []Problem `json:"problems,omitempty"`
	Hooks      []Hook    `json:"hooks,omitempty"`
}

// Hook is one hook's verdict.
type Hook struct {
	Key     string  `json:"key"`
	Event   string  `json:"event"`
	Matcher *string `json:"matcher"`
	Line    int     `json:"line,omitempty"`
	Column  int     `json:"column,omitempty"`
	Command string  `json:"command,omitempty"`
	Type    string  `json:"type"`
	Runs    bool    `json:"runs"`
	// Reason is a code ("" when it runs), Detail a sentence, Fix the
	// command or edit that makes it run.
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
	Fix    string `json:"fix,omitempty"`
	// Hash is the hook's current hash, TrustedHash the one its review
	// recorded (Codex's trusted_hash), for a hook that awaits review.
	Hash        string `json:"hash,omitempty"`
	TrustedHash string `json:"trustedHash,omitempty"`
	// Notes are what will go wrong although it runs (a Stop hook that
	// loops, a timeout in the wrong unit).
	Notes []Problem `json:"notes,omitempty"`
}

// Problem is one thing found at a place.
type Problem struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// Run examines every host opts name (or every configured one).
func Run(opts Options) (*Report, error) {
	cwd, err := filepath.Abs(opts.Cwd)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", cwd)
	}
	names := opts.Hosts
	explicit := len(names) > 0
	if !explicit {
		names = hooks.ProfileNames()
		sort.Strings(names)
	}
	r := &Report{Cwd: cwd, Hosts: []Host{}}
	found := onPath{}
	asked := map[string]bool{}
	for _, n := range names {
		if asked[n] {
			continue
		}
		asked[n] = true
		p, ok := hooks.LookupProfile(n)
		if !ok {
			known := hooks.ProfileNames()
			sort.Strings(known)
			return nil, fmt.Errorf("unknown host %q%s (known: %s)", n, suggest.DidYouMean(n, known), strings.Join(known, ", "))
		}
		home := UserFolder(p)
		configured := home != "" && isDir(home)
		if !configured && !explicit {
			continue
		}
		h := Host{Name: p.Name, Home: home, Configured: configured, Sources: []Source{}}
		if configured {
			examine(&h, p, cwd, opts.Repeat, found)
		}
		h.Summary = summary(h)
		r.Hosts = append(r.Hosts, h)
	}
	return r, nil
}

// UserFolder is where profile p keeps its user configuration on this
// machine: $HomeEnv, else HomeDir under $HomeBaseEnv or the user's home.
func UserFolder(p *hooks.Profile) string {
	if p.HomeBaseEnv != "" && (p.HomeEnv == "" || os.Getenv(p.HomeEnv) == "") {
		if base := os.Getenv(p.HomeBaseEnv); base != "" && p.HomeDir != "" {
			return filepath.Join(hooks.AbsClean(base), p.HomeDir)
		}
	}
	return hooks.ResolveHome(p, "")
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

var discard = slog.New(slog.NewTextHandler(io.Discard, nil))

// examine loads one host's hooks for cwd and fills in its verdicts.
func examine(h *Host, p *hooks.Profile, cwd, repeat string, found onPath) {
	e := hooks.New(hooks.Options{
		Profile:  p,
		Session:  hooks.Session{ID: p.MakeSessionID(), Cwd: cwd},
		Discover: hooks.DiscoverOptions{ProjectRoot: hooks.FindProjectRoot(cwd), Cwd: cwd},
		Logger:   discard,
	})
	defer e.Close()
	if _, err := e.LoadChecked(); err != nil {
		for _, d := range lint.FromLoadError(err) {
			h.Problems = append(h.Problems, problem(d))
		}
		h.NotRun++ // the host refuses to start: nothing runs
		return
	}
	list, warnings := e.List("")
	project, leftOut := e.Sources()
	h.Project = project
	where := positions(e, list)
	diags := lint.Check(p, list, warnings, nil)

	shell := shellProblem(p)
	if shell != nil {
		h.Problems = append(h.Problems, *shell)
	}
	index := map[string]int{}
	source := func(path, layer, plugin string) *Source {
		i, ok := index[path]
		if !ok {
			i = len(h.Sources)
			index[path] = i
			h.Sources = append(h.Sources, Source{Path: path, Layer: layer, Plugin: plugin, Read: true})
		}
		return &h.Sources[i]
	}
	for _, info := range list {
		s := source(info.Source.Path, info.Source.Layer, info.Source.Plugin)
		x := where[info.Key]
		hk := Hook{Key: info.Key, Event: info.Event, Matcher: info.Matcher, Line: x.Line, Column: x.Column,
			Command: x.Command, Type: info.Handler.Type, Runs: true}
		if hk.Command == "" {
			hk.Command = info.Handler.Command
		}
		verdict(&hk, p, info, shell, repeat, found)
		hk.Notes = append(hk.Notes, timeoutNotes(p, info)...)
		s.Hooks = append(s.Hooks, hk)
	}
	if p.Dedupe != nil {
		duplicates(h, p, list)
	}
	for _, lo := range leftOut {
		layer := ""
		if lo.Plugin != "" {
			layer = hooks.LayerPlugin
		}
		s := source(lo.Path, layer, lo.Plugin)
		if len(s.Hooks) == 0 {
			s.Read = false
		}
		s.Reason, s.Message, s.Fix, s.UserChoice = lo.Reason, lo.Message, lo.Fix, lo.UserChoice
	}
	attach(h, p, diags)
	for _, s := range h.Sources {
		if !s.Read {
			h.LeftOut++
			if s.UserChoice {
				h.Off++
			}
		}
		for _, k := range s.Hooks {
			h.Hooks++
			if k.Runs {
				h.Run++
			} else {
				h.NotRun++
			}
		}
	}
}

// duplicates: hooks of one event and matcher that the host's own rule
// (Profile.Dedupe) runs once; the ones it drops will not run.
func duplicates(h *Host, p *hooks.Profile, list []hooks.HookInfo) {
	verdicts := map[string]*Hook{}
	for i := range h.Sources {
		for j := range h.Sources[i].Hooks {
			k := &h.Sources[i].Hooks[j]
			verdicts[k.Key] = k
		}
	}
	groups := map[string][]*hooks.Hook{}
	var order []string
	for _, info := range list {
		if v := verdicts[info.Key]; v == nil || !v.Runs || info.Scope != nil {
			continue
		}
		hk := &hooks.Hook{Key: info.Key, Event: info.Event, Source: info.Source, Handler: info.Handler,
			Trust: info.Trust, Enabled: info.Enabled}
		if info.Matcher != nil {
			hk.Matcher, hk.HasMatcher = *info.Matcher, true
		}
		g := info.Event + "\x00" + hk.Matcher
		if groups[g] == nil {
			order = append(order, g)
		}
		groups[g] = append(groups[g], hk)
	}
	for _, g := range order {
		all := groups[g]
		if len(all) < 2 {
			continue
		}
		kept := map[string]bool{}
		for _, k := range p.Dedupe(all) {
			kept[k.Key] = true
		}
		for _, d := range all {
			if kept[d.Key] {
				continue
			}
			first := ""
			for _, k := range all {
				if kept[k.Key] && k.Handler.Command == d.Handler.Command {
					first = k.Key
					break
				}
			}
			v := verdicts[d.Key]
			v.Runs, v.Reason = false, ReasonDuplicate
			v.Detail = "an identical handler runs instead: " + p.Name + " runs it once"
			if first != "" {
				v.Detail += " (" + first + ")"
			}
			v.Fix = "remove one of the two, or leave it: the other runs"
		}
	}
}

// positions are where each hook is written and the command it runs, from
// the engine's explanation of an event every profile accepts without input.
func positions(e *hooks.Engine, list []hooks.HookInfo) map[string]hooks.Explanation {
	out := map[string]hooks.Explanation{}
	if len(list) == 0 {
		return out
	}
	for _, ev := range e.Profile().Events {
		if ev.Precondition != nil {
			continue
		}
		xs, err := e.Explain(ev.Name, nil)
		if err != nil {
			continue
		}
		for _, x := range xs {
			out[x.Key] = x
		}
		return out
	}
	return out
}

// verdict decides whether one hook runs, from the engine's skip reason,
// then its matcher, its shell and its program.
func verdict(hk *Hook, p *hooks.Profile, info hooks.HookInfo, shell *Problem, repeat string, found onPath) {
	no := func(reason, detail, fix string) {
		hk.Runs, hk.Reason, hk.Detail, hk.Fix = false, reason, detail, fix
	}
	profileFlag := ""
	if p.Name != hooks.DefaultProfile {
		profileFlag = " --profile " + p.Name
	}
	switch r := info.SkipReason; r {
	case "":
	case hooks.TrustUntrusted:
		hk.Hash = info.Hash
		no(r, "not reviewed: "+p.Name+" skips a hook until it is trusted (hash "+info.Hash+")",
			"hookd trust"+profileFlag+repeat+" "+shellWord(info.Key))
		return
	case hooks.TrustModified:
		hk.Hash, hk.TrustedHash = info.Hash, info.TrustedHash
		no(r, fmt.Sprintf("changed since it was reviewed: the review recorded %s, the hook now hashes to %s", info.TrustedHash, info.Hash),
			"review it, then hookd trust"+profileFlag+repeat+" "+shellWord(info.Key))
		return
	case "disabled":
		no(r, "disabled in "+p.Name+"'s hook state", "hookd enable"+profileFlag+repeat+" "+shellWord(info.Key))
		return
	default:
		no(r, policyDetail(r), "see the source's reason")
		return
	}
	if reason, detail, fix := matcherVerdict(p, info); reason != "" {
		no(reason, detail, fix)
		return
	}
	if info.Handler.Type != hooks.TypeCommand {
		return
	}
	if shell != nil {
		no(ReasonShellMissing, shell.Message, "install it, or set $SHELL to a shell that exists")
		return
	}
	if prog := found.missing(hk.Command); prog != "" {
		no(ReasonProgramMissing, fmt.Sprintf("%s is not on PATH: the command fails every time it runs", prog),
			"install "+prog+", or write the command with its full path")
	}
}

func policyDetail(r string) string {
	switch r {
	case hooks.PolicyManagedOnly:
		return "the managed policy allows only managed hooks"
	case hooks.PolicyHooksDisabled:
		return "hooks are turned off by configuration"
	}
	return "held back by policy (" + r + ")"
}

// matcherVerdict: a tool event's matcher that matches no tool of the host
// never fires. A list of exact names is read name by name (the fix names
// the tool each one meant); any other matcher, as the host compiled it, is
// tried on every tool the host has, under each of its names.
func matcherVerdict(p *hooks.Profile, info hooks.HookInfo) (reason, detail, fix string) {
	ev := p.Event(info.Event)
	if ev == nil || !ev.ToolEvent || info.Matcher == nil || p.Tools == nil {
		return "", "", ""
	}
	m := info.CompiledMatcher()
	if m == nil {
		var err error
		if m, err = p.CompileMatcherFor(ev, *info.Matcher); err != nil {
			return "", "", ""
		}
	}
	names, ok := hooks.ExactNames(m)
	if !ok {
		return matchesNoTool(p, m, *info.Matcher)
	}
	if len(names) == 0 {
		return "", "", ""
	}
	var fixed []string
	cased := false
	for _, n := range names {
		if n == "" || strings.HasPrefix(n, "mcp__") || has(p.Tools, n) {
			return "", "", ""
		}
		if t := fold(p.Tools, n); t != "" {
			fixed, cased = append(fixed, t), true
			continue
		}
		if k, ok := suggest.Nearest(n, p.Tools); ok {
			fixed = append(fixed, k)
		}
	}
	detail = fmt.Sprintf("matcher %q names no %s tool (tool names are case-sensitive; MCP tools are mcp__<server>__<tool>)", *info.Matcher, p.Name)
	if cased {
		detail = fmt.Sprintf("matcher %q never matches: %s's tool names are case-sensitive", *info.Matcher, p.Name)
	}
	fix = "name the host's tools: " + strings.Join(p.Tools, ", ")
	if len(fixed) == len(names) {
		fix = fmt.Sprintf("edit the matcher to %q", strings.Join(fixed, "|"))
	}
	return ReasonMatcherNever, detail, fix
}

// matchesNoTool: a matcher that is not a plain list (a pattern) and that
// none of the host's tools meets, under any of its names. A matcher that
// may be meant for MCP tools (it says "mcp") or that matches a made-up
// name (it matches almost anything) is left alone.
func matchesNoTool(p *hooks.Profile, m hooks.Matcher, text string) (reason, detail, fix string) {
	if hooks.IsMatchAll(m) || strings.Contains(strings.ToLower(text), "mcp") || m.Match([]string{"hookd_doctor_no_such_tool"}) {
		return "", "", ""
	}
	for _, t := range p.Tools {
		names := []string{t}
		if p.ToolNames != nil {
			names = p.ToolNames(t)
		}
		if m.Match(names) {
			return "", "", ""
		}
	}
	detail = fmt.Sprintf("matcher %q matches no %s tool as %s reads it (tool names are case-sensitive)", text, p.Name, p.Name)
	fix = "name the host's tools: " + strings.Join(p.Tools, ", ")
	for _, t := range p.Tools {
		names := []string{t}
		if p.ToolNames != nil {
			names = p.ToolNames(t)
		}
		for _, n := range names {
			if strings.EqualFold(n, text) && proposable(p, n) {
				return ReasonMatcherNever, detail, fmt.Sprintf("edit the matcher to %q", n)
			}
		}
	}
	return ReasonMatcherNever, detail, fix
}

// proposable reports whether name, written as a matcher of p's, would match a
// tool of p: the edit doctor proposes has to work.
func proposable(p *hooks.Profile, name string) bool {
	m, err := p.CompileMatcherFor(nil, name)
	if err != nil {
		return false
	}
	for _, t := range p.Tools {
		names := []string{t}
		if p.ToolNames != nil {
			names = p.ToolNames(t)
		}
		if m.Match(names) {
			return true
		}
	}
	return false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func fold(list []string, s string) string {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return x
		}
	}
	return ""
}

// shellProblem is set when the shell the host runs commands through is
// not there: the profile's own (Claude Code's sh), else $SHELL.
func shellProblem(p *hooks.Profile) *Problem {
	sh := ""
	if len(p.Shell) > 0 {
		sh = p.Shell[0]
	} else {
		sh = os.Getenv("SHELL")
		if sh == "" {
			sh = "/bin/sh"
		}
	}
	if strings.HasPrefix(sh, "$") { // proc.EnvShell: read when a command starts
		sh = os.Getenv("SHELL")
		if sh == "" {
			return nil
		}
	}
	if _, err := exec.LookPath(sh); err != nil {
		return &Problem{Severity: hooks.SeverityError, Rule: ReasonShellMissing,
			Message: fmt.Sprintf("%s runs command hooks through %s, which is not there", p.Name, sh)}
	}
	return nil
}

// shellWords are the builtins and keywords a command may start with.
var shellWords = map[string]bool{
	"cd": true, "echo": true, "exit": true, "test": true, "[": true, "[[": true, "true": true, "false": true,
	"printf": true, "read": true, "export": true, "set": true, "eval": true, "exec": true, "source": true,
	".": true, ":": true, "if": true, "for": true, "while": true, "until": true, "case": true, "{": true,
	"(": true, "!": true, "command": true, "type": true, "trap": true, "wait": true, "unset": true,
	"local": true, "return": true, "shift": true, "ulimit": true, "umask": true,
}

// plainWord is a program name the shell would look up on PATH as written.
var plainWord = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*$`)

// missing is the first word of command when it is a plain program
// name that is not on PATH; "" when it is found, or is not a plain name
// (a path, a variable, an assignment: the script lints see to those).
func (found onPath) missing(command string) string {
	fields := strings.Fields(command)
	if len(fields) == 0 {
		return ""
	}
	w := fields[0]
	if shellWords[w] || !plainWord.MatchString(w) {
		return ""
	}
	ok, seen := found[w]
	if !seen {
		_, err := exec.LookPath(w)
		ok = err == nil
		found[w] = ok
	}
	if !ok {
		return w
	}
	return ""
}

// onPath remembers which program names are on PATH, for one run: 200
// plugins running "node" or "python3" look it up once.
type onPath map[string]bool

// timeoutNotes: a timeout that reads as the other unit of the host's.
func timeoutNotes(p *hooks.Profile, info hooks.HookInfo) []Problem {
	t := info.Handler
	switch {
	case t.TimeoutMs > 0 && t.TimeoutMs < 100:
		return []Problem{{File: info.Source.Path, Severity: hooks.SeverityWarning, Rule: "timeout-unit",
			Message: fmt.Sprintf("timeout %d: %s counts milliseconds, so the hook is killed after %d ms (written in seconds?)", t.TimeoutMs, p.Name, t.TimeoutMs)}}
	case t.TimeoutMs == 0 && t.Timeout >= 1000:
		return []Problem{{File: info.Source.Path, Severity: hooks.SeverityWarning, Rule: "timeout-unit",
			Message: fmt.Sprintf("timeout %d: %s counts seconds, so the hook may run for %d minutes (written in milliseconds?)", t.Timeout, p.Name, t.Timeout/60)}}
	}
	return nil
}

// commandRules are the lint rules that belong to one handler's command;
// the others belong to the source.
var commandRules = map[string]bool{
	lint.RuleScriptMissing: true, lint.RuleScriptNotExec: true, lint.RuleStopLoop: true,
	lint.RuleUnquotedVar: true, lint.RuleTimeoutAboveCap: true,
}

// attach gives each lint diagnostic to the hook it is about (the last hook
// of its file written at or before it), or else to its source. A missing
// or non-executable script stops the hook; the other rules are notes.
func attach(h *Host, p *hooks.Profile, diags []lint.Diagnostic) {
	byPath := map[string]int{}
	for i, s := range h.Sources {
		byPath[s.Path] = i
	}
	for _, d := range diags {
		i, ok := byPath[d.File]
		if !ok && d.File != "" {
			// A file that gave no hook: broken, or all its events
			// misplaced. An error means what it configures does not run.
			i, ok = len(h.Sources), true
			byPath[d.File] = i
			src := Source{Path: d.File, Read: true}
			switch {
			case d.Severity == hooks.SeverityError:
				src.Read, src.Reason = false, ReasonBroken
				src.Message = "its hooks do not load: " + nearestEvent(p, d.Message)
				src.Fix = fmt.Sprintf("edit %s:%d:%d (hookd check %s lists every problem)", d.File, d.Line, d.Column, shellWord(d.File))
			case strings.HasPrefix(d.Message, "ignoring hooks path"):
				// The manifest names a hooks file the host refuses.
				src.Read, src.Reason, src.Message = false, ReasonPathRefused, d.Message
				src.Fix = "name a hooks file inside the plugin, as ./path (no .., no symlink out of the plugin)"
			}
			h.Sources = append(h.Sources, src)
			if !src.Read {
				continue // the message is this diagnostic
			}
		}
		if !ok {
			h.Problems = append(h.Problems, problem(d))
			continue
		}
		s := &h.Sources[i]
		k := -1
		if commandRules[d.Rule] && d.Line > 0 {
			for j, hk := range s.Hooks {
				if before(hk.Line, hk.Column, d.Line, d.Column) && (k < 0 || before(s.Hooks[k].Line, s.Hooks[k].Column, hk.Line, hk.Column)) {
					k = j
				}
			}
		}
		if k < 0 && said(s, d) {
			continue
		}
		if k < 0 {
			pr := problem(d)
			pr.Message = nearestEvent(p, pr.Message)
			s.Problems = append(s.Problems, pr)
			continue
		}
		hk := &s.Hooks[k]
		if (d.Rule == ReasonScriptMissing || d.Rule == ReasonScriptNotExec) && hk.Runs {
			hk.Runs, hk.Reason, hk.Detail = false, d.Rule, d.Message
			hk.Fix = "create the script, or fix its path in the command"
			if d.Rule == ReasonScriptNotExec {
				hk.Fix = "chmod +x the script, or run it through its interpreter"
			}
			continue
		}
		hk.Notes = append(hk.Notes, problem(d))
	}
}

// said: a matcher diagnostic about an item of a matcher whose hook already
// has the verdict "never matches" says nothing more.
func said(s *Source, d lint.Diagnostic) bool {
	if d.Rule != lint.RuleToolCase && d.Rule != lint.RuleUnknownTool {
		return false
	}
	for _, hk := range s.Hooks {
		if hk.Reason != ReasonMatcherNever || hk.Matcher == nil {
			continue
		}
		for _, item := range strings.Split(*hk.Matcher, "|") {
			if strings.Contains(d.Message, fmt.Sprintf("%q", strings.TrimSpace(item))) {
				return true
			}
		}
	}
	return false
}

func before(l1, c1, l2, c2 int) bool { return l1 > 0 && (l1 < l2 || l1 == l2 && c1 <= c2) }

var unknownEvent = lazyre.New(`unknown hook event "([^"]+)"`)

func problem(d lint.Diagnostic) Problem {
	return Problem{File: d.File, Line: d.Line, Column: d.Column, Severity: d.Severity, Rule: d.Rule, Message: d.Message}
}

// sameEvent names, for an event of one host family, the events of the
// others that happen at the same point (Claude Code and Codex's names,
// Gemini CLI's, Copilot CLI's camelCase is matched ignoring case).
var sameEvent = map[string][]string{
	"pretooluse":       {"BeforeTool"},
	"posttooluse":      {"AfterTool"},
	"userpromptsubmit": {"BeforeAgent", "userPromptSubmitted"},
	"stop":             {"AfterAgent"},
	"precompact":       {"PreCompress"},
	"beforetool":       {"PreToolUse"},
	"aftertool":        {"PostToolUse"},
	"beforeagent":      {"UserPromptSubmit", "userPromptSubmitted"},
	"afteragent":       {"Stop"},
	"precompress":      {"PreCompact"},
}

// nearestEvent adds the host's nearest event to a warning about an event
// it does not have.
func nearestEvent(p *hooks.Profile, msg string) string {
	m := unknownEvent.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	names := p.EventNames()
	k, ok := "", false
	for _, n := range names {
		if strings.EqualFold(n, m[1]) {
			k, ok = n, true
		}
	}
	if !ok {
		for _, alt := range sameEvent[strings.ToLower(m[1])] {
			if n := fold(names, alt); n != "" {
				k, ok = n, true
				break
			}
		}
	}
	if !ok {
		k, ok = suggest.Nearest(m[1], names)
	}
	if ok {
		return msg + fmt.Sprintf(": %s has no %s event; the nearest it has is %s", p.Name, m[1], k)
	}
	return msg + fmt.Sprintf(": %s has no %s event (its events: %s)", p.Name, m[1], strings.Join(p.EventNames(), ", "))
}

func summary(h Host) string {
	if !h.Configured {
		return fmt.Sprintf("%s: not configured (no %s)", h.Name, h.Home)
	}
	s := fmt.Sprintf("%s: %d of %d hooks will run", h.Name, h.Run, h.Hooks)
	var why []string
	count := map[string]int{}
	var order []string
	for _, src := range h.Sources {
		for _, k := range src.Hooks {
			if !k.Runs {
				if count[k.Reason] == 0 {
					order = append(order, k.Reason)
				}
				count[k.Reason]++
			}
		}
	}
	for _, r := range order {
		why = append(why, fmt.Sprintf("%d %s", count[r], r))
	}
	if len(why) > 0 {
		s += " (will not: " + strings.Join(why, ", ") + ")"
	}
	if h.LeftOut > 0 {
		s += fmt.Sprintf("; %d source(s) not read", h.LeftOut)
		if h.Off > 0 {
			s += fmt.Sprintf(" (%d switched off by the user)", h.Off)
		}
	}
	if len(h.Problems) > 0 {
		s += fmt.Sprintf("; %d problem(s)", len(h.Problems))
	}
	return s
}

// shellWord quotes s for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
