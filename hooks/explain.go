package hooks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/internal/lazyre"
	"github.com/hookd/hookd/plugins"
)

// Why a hook would not run for an input, as Explanation.Reason says it,
// besides the skip reasons of Run (untrusted, modified, disabled,
// managedOnly, hooksDisabled, duplicate, a profile's precondition).
const (
	// ExplainOtherEvent: the hook is configured for another event.
	ExplainOtherEvent = "otherEvent"
	// ExplainMatcher: its group's matcher does not match the input's target.
	ExplainMatcher = "matcher"
	// ExplainIf: the matcher matches but the handler's own condition ("if")
	// does not.
	ExplainIf = "if"
)

// An Explanation says whether one discovered hook would run for an input, and
// why not, without running anything.
type Explanation struct {
	Key    string `json:"key"`
	Event  string `json:"event"`
	Source Source `json:"source"`
	// Line and Column are where the handler is written in its source file,
	// when the file is JSON; 0 otherwise.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Matcher is the group's matcher (nil: none), MatchedAgainst the names
	// the input offered it (tool_name and its aliases, source, ...).
	Matcher        *string  `json:"matcher"`
	MatchedAgainst []string `json:"matchedAgainst,omitempty"`
	Runs           bool     `json:"runs"`
	// Reason is why it does not run ("" when it runs); Detail says it in a
	// sentence.
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Type is the handler type; Command the exact command it would run, after
	// the plugin variables are substituted.
	Type    string `json:"type"`
	Command string `json:"command,omitempty"`
	// Scope is the agent or skill of a scoped hook (scope.go).
	Scope *ScopeRef `json:"scope,omitempty"`
}

// Explain tells, for one event and input, what Run would do with every
// discovered hook: which run and why each other one does not. It runs
// nothing and writes nothing.
func (e *Engine) Explain(event string, input []byte) ([]Explanation, error) {
	ev, input, gate, err := e.eventArgs(event, input)
	if err != nil {
		return nil, err
	}
	targets, _ := ev.MatchTargets(e.profile, input)
	all, _ := e.snapshot()
	scope := e.placeEvent(input, false)
	out := make([]Explanation, 0, len(all))
	index := map[*Hook]int{}
	var run []*Hook
	files := map[string][]byte{}
	for _, h := range all {
		x := e.explainOne(h, files)
		switch {
		case h.Event != ev.Name:
			x.Reason, x.Detail = ExplainOtherEvent, fmt.Sprintf("configured for %s, not %s", h.Event, ev.Name)
		case !e.inScope(h, scope):
			x.Reason, x.Detail = ExplainScope, scopeDetail(h, scope)
		case !e.selects(ev, h, targets, input):
			x.MatchedAgainst = targets
			x.Reason, x.Detail = e.whyNotSelected(ev, h, targets)
		case gate != "":
			x.MatchedAgainst = targets
			x.Reason, x.Detail = gate, "the profile does not run "+ev.Name+" hooks for this input ("+gate+")"
		default:
			x.MatchedAgainst = targets
			if why := e.skipReason(h); why != "" {
				x.Reason, x.Detail = why, skipDetail(why)
				break
			}
			if e.onceSpent(h) {
				x.Reason, x.Detail = SkipOnce, "a once-only handler of skill "+h.Scope.Name+" that already ran in this session"
				break
			}
			x.Runs = true
			index[h] = len(out)
			run = append(run, h)
		}
		if h.Event != ev.Name || ev.MatchField == "" {
			x.MatchedAgainst = nil
		}
		out = append(out, x)
	}
	if e.profile.Dedupe != nil {
		for _, s := range dropped(run, e.profile.Dedupe(run)) {
			for h, i := range index {
				if h.Key == s.Key {
					out[i].Runs, out[i].Reason, out[i].Detail = false, s.Reason, "an identical handler from another source runs instead (the host runs it once)"
				}
			}
		}
	}
	return out, nil
}

func (e *Engine) explainOne(h *Hook, files map[string][]byte) Explanation {
	x := Explanation{Key: h.Key, Event: h.Event, Source: h.Source, Type: h.Handler.Type, Scope: h.Scope.ref()}
	if h.HasMatcher {
		m := h.Matcher
		x.Matcher = &m
	}
	if h.Handler.Type == TypeCommand {
		x.Command = h.Handler.Command
		if len(h.Env) > 0 {
			// A value Paste refuses leaves the command as written.
			x.Command, _ = plugins.Expand(x.Command, h.Env)
		}
	}
	x.Line, x.Column = handlerPosition(h, files)
	return x
}

// whyNotSelected tells a matcher that does not match from a handler
// condition ("if") that does not.
func (e *Engine) whyNotSelected(ev *EventRules, h *Hook, targets []string) (reason, detail string) {
	against := "nothing (the input has no " + ev.MatchField + ")"
	if len(targets) > 0 {
		against = fmt.Sprintf("%s %q", ev.MatchField, targets[0])
		if len(targets) > 1 {
			against += fmt.Sprintf(" (and its aliases %s)", strings.Join(targets[1:], ", "))
		}
	}
	if _, ok := h.matcher.(InputMatcher); ok {
		plain, err := e.profile.CompileMatcherFor(ev, h.Matcher)
		if _, input := plain.(InputMatcher); err == nil && !input && (!h.HasMatcher || plain.Match(targets)) {
			cond := `the handler's own condition ("if")`
			if c, ok := h.matcher.(interface{ Condition() string }); ok {
				cond = c.Condition()
			}
			return ExplainIf, "its matcher matches " + against + ", but " + cond + " does not match this input"
		}
	}
	if len(targets) == 0 {
		return ExplainMatcher, fmt.Sprintf("matcher %q has nothing to match: the input has no %s", h.Matcher, ev.MatchField)
	}
	return ExplainMatcher, fmt.Sprintf("matcher %q does not match %s", h.Matcher, against)
}

func skipDetail(reason string) string {
	switch reason {
	case TrustUntrusted:
		return "matches, but awaits review: trust it (hookd trust KEY) to let it run"
	case TrustModified:
		return "matches, but changed since it was trusted: review and trust it again"
	case "disabled":
		return "matches, but is disabled (hookd enable KEY)"
	case PolicyManagedOnly:
		return "matches, but managed policy allows only managed hooks"
	case PolicyHooksDisabled:
		return "matches, but hooks are turned off by configuration"
	}
	return "matches, but is skipped: " + reason
}

// keyPosition reads the group and handler indices at the end of a hook key
// (…:pre_tool_use:1:0).
var keyPosition = lazyre.New(`:([a-z_]+):(\d+):(\d+)$`)

// handlerPosition is the line and column of the handler in its source file:
// in a JSON file the handler object, in a TOML file its command (the first
// place the file spells it); 0, 0 when unknown.
func handlerPosition(h *Hook, files map[string][]byte) (int, int) {
	path := h.Source.Path
	json, toml := strings.HasSuffix(path, ".json"), strings.HasSuffix(path, ".toml")
	if !json && !toml {
		return 0, 0
	}
	data, ok := files[path]
	if !ok {
		data, _ = ReadConfigFile(path)
		files[path] = data
	}
	off := -1
	if toml {
		if h.Handler.Command != "" {
			off = strings.Index(string(data), strconv.Quote(h.Handler.Command))
		}
	} else if m := keyPosition.FindStringSubmatch(h.Key); m != nil {
		g, _ := strconv.Atoi(m[2])
		i, _ := strconv.Atoi(m[3])
		if v := gjson.GetBytes(data, fmt.Sprintf("hooks.%s.%d.hooks.%d", gjson.Escape(h.Event), g, i)); v.Exists() {
			off = v.Index
		}
	}
	if off < 0 {
		return 0, 0
	}
	line, col := 1, 1
	for _, b := range data[:min(off, len(data))] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
