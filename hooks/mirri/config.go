package mirri

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/hookd/hookd/hooks"
)

// Mirri's hooks live in one file, <home>/config.toml, as [[hooks]] rules of
// exactly five fields:
//
//	[[hooks]]
//	event = "PreToolUse"     # required: a name from the event table
//	matcher = "Bash"         # optional regex on the event's target
//	command = "node ~/.mirri-code/hooks/guard.mjs"   # required
//	timeout = 5              # optional, 1–600 s, default 30
//	failClosed = true        # optional, blocking events only
//
//	[experimental]
//	hook-command-rewrite = true
//
// Unlike Codex's forgiving walker, this table is strict, as the spec says: a
// field that is not one of the five makes the config fail to load, and so
// does any other rule that cannot be read as written (a missing or unknown
// event, a wrongly typed value, a timeout out of range, a bad regex). Every
// such problem is reported with its line, all at once, and no hook runs
// until the file is fixed. The rest of config.toml is Mirri's own and is
// not read.

// mirriFields are the only fields a [[hooks]] rule may have.
var mirriFields = []string{"event", "matcher", "command", "timeout", "failClosed"}

// Host feature names and values the profile reads (DiscoverOptions.Features).
const (
	mirriFeatureRewrite = "hookCommandRewrite"
	mirriFeatureEngine  = "hookEngine"
	mirriEngineV1       = "v1"
	mirriEngineV2       = "v2"
	// mirriRewriteEnv turns the experimental flag on from the environment.
	mirriRewriteEnv = "MIRRICODE_EXPERIMENTAL_HOOK_COMMAND_REWRITE"
)

// Reasons RewriteToolInput hooks do not run, as reported in Skip.Reason.
const (
	PolicyRewriteDisabled     = "rewriteDisabled"
	PolicyUnsupportedByEngine = "unsupportedByEngine"
)

// mirriRule is one [[hooks]] rule as read.
type mirriRule struct {
	event, matcher, command string
	hasMatcher              bool
	timeout                 int
	failClosed              bool
	re                      *regexp.Regexp
	site                    mirriSite
}

// mirriConfig is what discovery takes from config.toml.
type mirriConfig struct {
	rules []mirriRule
	// rewrite is [experimental] hook-command-rewrite, nil when unset.
	rewrite *bool
}

// discoverMirri is the Mirri profile's Discover: the user config.toml only.
// The sources Mirri does not have (session hooks, plugins, managed
// requirements, project hooks, hook state) are reported when a host passes
// them.
func discoverMirri(p *hooks.Profile, opts hooks.DiscoverOptions) *hooks.Discovery {
	d := &hooks.Discovery{}
	warn := func(source, format string, args ...any) {
		d.Warnings = append(d.Warnings, hooks.Warning{Source: source, Message: fmt.Sprintf(format, args...)})
	}
	if len(opts.SessionHooks) > 0 {
		warn("session", "ignoring session hooks: the %s profile reads hooks only from [[hooks]] in its config.toml", p.Name)
	}
	if len(opts.Plugins) > 0 || len(opts.PluginDirs) > 0 {
		warn("plugins", "ignoring plugins: the %s profile has no plugin hooks", p.Name)
	}
	if opts.Managed != "" {
		warn(opts.Managed, "ignoring managed requirements %s: the %s profile has no managed hooks", opts.Managed, p.Name)
	}
	if opts.ProjectTrusted {
		warn(opts.ProjectRoot, "ignoring the trusted project: the %s profile has no project hooks", p.Name)
	}
	if len(opts.StateOverrides) > 0 {
		warn("--hook-state", "ignoring hook state: the %s profile has no review or enable switch", p.Name)
	}

	cfg := &mirriConfig{}
	home := hooks.ResolveHome(p, opts.Home)
	path := ""
	if home == "" {
		warn("", "skipping user hooks: cannot find the user folder (set $%s or $HOME)", p.HomeEnv)
	} else {
		path = filepath.Join(home, hooks.ConfigTOMLName)
		data, err := hooks.ReadConfigFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			d.Fatal = append(d.Fatal, fmt.Errorf("read %s: %w", path, err))
		default:
			var errs []error
			cfg, errs = readMirriConfig(p, path, data)
			d.Fatal = append(d.Fatal, errs...)
		}
	}

	rewrite, engine, errs := mirriRewriteSettings(opts, cfg.rewrite, path, warn)
	d.Fatal = append(d.Fatal, errs...)
	d.Settings = map[string]string{mirriRewriteKey: strconv.FormatBool(rewrite), mirriEngineKey: engine}
	if len(d.Fatal) > 0 {
		return d
	}

	policy := ""
	switch {
	case engine == mirriEngineV2:
		policy = PolicyUnsupportedByEngine
	case !rewrite:
		policy = PolicyRewriteDisabled
	}
	policyWarned := false
	for i, r := range cfg.rules {
		ev := p.Event(r.event)
		h := &hooks.Hook{
			Key:        fmt.Sprintf("%s:%s:%d:0", path, ev.Label, i),
			Event:      ev.Name,
			Matcher:    r.matcher,
			HasMatcher: r.hasMatcher,
			Source:     hooks.Source{Layer: hooks.LayerUser, Path: path},
			Handler:    hooks.Handler{Type: hooks.TypeCommand, Command: r.command, Timeout: r.timeout, FailClosed: r.failClosed},
			Order:      i,
			// No review and no enable switch: every rule runs.
			Trust:   hooks.TrustTrusted,
			Enabled: true,
		}
		h.SetMatcher(hooks.MatchAll)
		if r.hasMatcher {
			h.SetMatcher(mirriMatcher{re: r.re, target: ev.MatchField})
		}
		if r.failClosed && !ev.Blocking {
			h.Handler.FailClosed = false
			d.Warnings = append(d.Warnings, hooks.Warning{Source: path, Event: ev.Name, Message: fmt.Sprintf(
				"ignoring failClosed of the %s rule%s: only UserPromptSubmit, PreToolUse and Stop can block", ev.Name, r.site.on("failClosed"))})
		}
		if r.hasMatcher && ev.MatchField == "" && !r.re.MatchString("") {
			d.Warnings = append(d.Warnings, hooks.Warning{Source: path, Event: ev.Name, Message: fmt.Sprintf(
				"matcher %q of the %s rule%s never matches: %s is matched against the empty string", r.matcher, ev.Name, r.site.on("matcher"), ev.Name)})
		}
		if ev.Name == "RewriteToolInput" && policy != "" {
			h.Policy = policy
			if !policyWarned {
				policyWarned = true
				d.Warnings = append(d.Warnings, hooks.Warning{Source: path, Event: ev.Name, Message: mirriPolicyText(policy)})
			}
		}
		d.Hooks = append(d.Hooks, h)
	}
	return d
}

func mirriPolicyText(policy string) string {
	if policy == PolicyUnsupportedByEngine {
		return "RewriteToolInput hooks do not run: the host runs the v2 hook engine (config.features.hookEngine = \"v2\"), which has no RewriteToolInput event; return updatedInput from PreToolUse instead"
	}
	return "RewriteToolInput hooks do not run: the hook-command-rewrite experimental flag is off (set [experimental] hook-command-rewrite = true in config.toml, or " + mirriRewriteEnv + "=true)"
}

// mirriRewriteSettings decides the experimental flag and the hook engine. The
// flag comes from the host (config.features.hookCommandRewrite), else the
// environment, else [experimental] in config.toml; the engine from the host
// (config.features.hookEngine), v1 by default. A host value that is not
// understood is an error; an environment value only a warning, as Mirri's
// own flags would be.
func mirriRewriteSettings(opts hooks.DiscoverOptions, cfg *bool, path string, warn func(string, string, ...any)) (rewrite bool, engine string, errs []error) {
	engine = mirriEngineV1
	switch v := opts.Features[mirriFeatureEngine]; v {
	case "", mirriEngineV1:
	case mirriEngineV2:
		engine = mirriEngineV2
	default:
		errs = append(errs, fmt.Errorf("config.features.%s must be %q or %q, not %q", mirriFeatureEngine, mirriEngineV1, mirriEngineV2, v))
	}
	if v, ok := opts.Features[mirriFeatureRewrite]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("config.features.%s must be true or false, not %q", mirriFeatureRewrite, v))
		}
		return b, engine, errs
	}
	if v := os.Getenv(mirriRewriteEnv); v != "" {
		b, err := strconv.ParseBool(v)
		if err == nil {
			return b, engine, errs
		}
		warn(mirriRewriteEnv, "ignoring %s=%q: want true or false", mirriRewriteEnv, v)
	}
	if cfg != nil {
		return *cfg, engine, errs
	}
	return false, engine, errs
}

// readMirriConfig reads the [[hooks]] rules and [experimental] of a Mirri
// config.toml. It returns every problem it finds, each naming the file, the
// line and the field, so one edit can fix them all.
func readMirriConfig(p *hooks.Profile, path string, data []byte) (*mirriConfig, []error) {
	cfg := &mirriConfig{}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return cfg, []error{fmt.Errorf("parse %s: line %d, column %d: %s", path, line, col, strings.TrimPrefix(de.Error(), "toml: "))}
		}
		return cfg, []error{fmt.Errorf("parse %s: %w", path, err)}
	}
	sites := mirriSites(data)
	var errs []error
	fail := func(at, format string, args ...any) {
		errs = append(errs, fmt.Errorf("load hooks from %s: %s%s", path, at, fmt.Sprintf(format, args...)))
	}

	if raw, ok := doc["experimental"]; ok {
		table, isTable := raw.(map[string]any)
		if !isTable {
			fail(sites.experimental.at("experimental"), "experimental must be a table")
		} else if v, ok := table["hook-command-rewrite"]; ok {
			b, isBool := v.(bool)
			if !isBool {
				fail(sites.experimental.at("hook-command-rewrite"), "[experimental] hook-command-rewrite must be true or false")
			}
			cfg.rewrite = &b
		}
	}

	raw, ok := doc["hooks"]
	if !ok {
		return cfg, errs
	}
	var entries []any
	switch v := raw.(type) {
	case []any:
		entries = v
	case []map[string]any:
		for _, e := range v {
			entries = append(entries, e)
		}
	case map[string]any:
		fail(sites.hooksTable.at(""), "hooks is a table; Mirri hook rules are [[hooks]] entries (an array of tables with event, matcher, command, timeout, failClosed)")
		return cfg, errs
	default:
		fail(sites.hooksTable.at(""), "hooks must be [[hooks]] entries (an array of tables)")
		return cfg, errs
	}
	for i, e := range entries {
		var site mirriSite
		if i < len(sites.rules) {
			site = sites.rules[i]
		}
		r, ruleErrs := readMirriRule(p, e, site)
		for _, msg := range ruleErrs {
			fail("", "%s", msg)
		}
		cfg.rules = append(cfg.rules, r)
	}
	return cfg, errs
}

// readMirriRule checks one [[hooks]] entry. Problems are returned in line
// order, each starting with where it is.
func readMirriRule(p *hooks.Profile, entry any, site mirriSite) (mirriRule, []string) {
	r := mirriRule{timeout: mirriDefaultTimeout, site: site}
	fields, ok := entry.(map[string]any)
	if !ok {
		return r, []string{site.at("") + "a [[hooks]] entry must be a table"}
	}
	type problem struct {
		line int
		msg  string
	}
	var probs []problem
	bad := func(field, format string, args ...any) {
		probs = append(probs, problem{site.line(field), site.at(field) + fmt.Sprintf(format, args...)})
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !mirriKnownField(k) {
			bad(k, "unknown field %q in a [[hooks]] rule: a rule has only the fields %s", k, strings.Join(mirriFields, ", "))
		}
	}

	str := func(field string, required bool) (string, bool) {
		v, ok := fields[field]
		if !ok {
			if required {
				bad("", "a [[hooks]] rule needs the field %q", field)
			}
			return "", false
		}
		s, isStr := v.(string)
		if !isStr {
			bad(field, "field %q must be a string", field)
			return "", false
		}
		return s, true
	}
	if ev, ok := str("event", true); ok {
		if p.Event(ev) == nil {
			bad("event", "unknown event %q: event must be one of %s", ev, strings.Join(p.EventNames(), ", "))
		} else {
			r.event = ev
		}
	}
	if cmd, ok := str("command", true); ok {
		if strings.TrimSpace(cmd) == "" {
			bad("command", "field \"command\" is empty")
		}
		r.command = cmd
	}
	if m, ok := str("matcher", false); ok {
		re, err := regexp.Compile(m)
		if err != nil {
			bad("matcher", "matcher %q is not a valid regular expression: %v", m, err)
		} else {
			r.matcher, r.hasMatcher, r.re = m, true, re
		}
	}
	if v, ok := fields["timeout"]; ok {
		n, isInt := v.(int64)
		if !isInt || n < 1 || n > mirriMaxTimeout {
			bad("timeout", "field \"timeout\" must be a whole number of seconds from 1 to %d", mirriMaxTimeout)
		} else {
			r.timeout = int(n)
		}
	}
	if v, ok := fields["failClosed"]; ok {
		b, isBool := v.(bool)
		if !isBool {
			bad("failClosed", "field \"failClosed\" must be true or false")
		}
		r.failClosed = b
	}
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].line < probs[j].line })
	msgs := make([]string, len(probs))
	for i, pr := range probs {
		msgs[i] = pr.msg
	}
	return r, msgs
}

func mirriKnownField(name string) bool {
	for _, f := range mirriFields {
		if f == name {
			return true
		}
	}
	return false
}

// mirriSite is where a [[hooks]] rule, or another table, is in the file:
// the line of its header and the line of each key, for messages. Lines are
// 0 when unknown.
type mirriSite struct {
	header int
	keys   map[string]int
}

func (s mirriSite) line(field string) int {
	if l, ok := s.keys[field]; ok {
		return l
	}
	return s.header
}

// at renders the location of field ("" for the rule itself) as "line N: ".
func (s mirriSite) at(field string) string {
	if l := s.line(field); l > 0 {
		return fmt.Sprintf("line %d: ", l)
	}
	return ""
}

// on renders the location of field as " on line N", or "" when unknown.
func (s mirriSite) on(field string) string {
	if l := s.line(field); l > 0 {
		return fmt.Sprintf(" on line %d", l)
	}
	return ""
}

func (s *mirriSite) key(name string, line int) {
	if s.keys == nil {
		s.keys = map[string]int{}
	}
	if _, seen := s.keys[name]; !seen {
		s.keys[name] = line
	}
}

// mirriSiteMap locates the parts of a config.toml that messages point at.
type mirriSiteMap struct {
	// rules are the [[hooks]] entries (or the inline tables of hooks = [...])
	// in order; hooksTable is a [hooks] table or a hooks key that is not an
	// array; experimental is the [experimental] table.
	rules        []mirriSite
	hooksTable   mirriSite
	experimental mirriSite
}

// mirriSites walks the document with go-toml's parser, which knows the line
// of every key; the decoder that reads the values does not. data is known to
// parse.
func mirriSites(data []byte) (m mirriSiteMap) {
	// The parser is go-toml's unstable API, and lines only improve messages:
	// should it ever panic on a document the decoder took, the messages go
	// without lines rather than hookd going down.
	defer func() {
		if recover() != nil {
			m = mirriSiteMap{}
		}
	}()
	var p unstable.Parser
	p.Reset(data)
	lineOf := func(n *unstable.Node) int { return p.Shape(n.Raw).Start.Line }
	keyOf := func(n *unstable.Node) ([]string, int) {
		var parts []string
		line := 0
		it := n.Key()
		for it.Next() {
			k := it.Node()
			if line == 0 {
				line = lineOf(k)
			}
			parts = append(parts, string(k.Data))
		}
		return parts, line
	}
	// ctx is where the key/values that follow belong.
	const (
		inRoot = iota
		inRule
		inExperimental
		inOther
	)
	ctx := inRoot
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			key, line := keyOf(e)
			ctx = inOther
			switch {
			case len(key) == 1 && key[0] == "hooks" && e.Kind == unstable.ArrayTable:
				m.rules = append(m.rules, mirriSite{header: line})
				ctx = inRule
			case len(key) == 1 && key[0] == "hooks":
				m.hooksTable.header = line
			case len(key) > 1 && key[0] == "hooks" && len(m.rules) > 0:
				// [hooks.x] after [[hooks]] adds a field x to the last rule.
				m.rules[len(m.rules)-1].key(key[1], line)
			case len(key) == 1 && key[0] == "experimental":
				m.experimental.header = line
				ctx = inExperimental
			}
		case unstable.KeyValue:
			key, line := keyOf(e)
			switch ctx {
			case inRule:
				m.rules[len(m.rules)-1].key(key[0], line)
			case inExperimental:
				m.experimental.key(key[0], line)
			case inRoot:
				switch {
				case key[0] == "hooks" && len(key) == 1 && e.Value().Kind == unstable.Array:
					m.rules = append(m.rules, inlineRules(e.Value(), line, lineOf, keyOf)...)
				case key[0] == "hooks":
					m.hooksTable.header = line
				case key[0] == "experimental" && len(key) > 1:
					m.experimental.key(key[1], line)
				case key[0] == "experimental":
					m.experimental.header = line
				}
			}
		}
	}
	return m
}

// inlineRules locates the rules of hooks = [{...}, ...].
func inlineRules(arr *unstable.Node, line int, lineOf func(*unstable.Node) int, keyOf func(*unstable.Node) ([]string, int)) []mirriSite {
	var out []mirriSite
	it := arr.Children()
	for it.Next() {
		site := mirriSite{header: line}
		if el := it.Node(); el.Kind == unstable.InlineTable {
			kvs := el.Children()
			for kvs.Next() {
				kv := kvs.Node()
				if kv.Kind != unstable.KeyValue {
					continue
				}
				key, l := keyOf(kv)
				if len(site.keys) == 0 {
					site.header = l
				}
				site.key(key[0], l)
			}
		}
		out = append(out, site)
	}
	return out
}
