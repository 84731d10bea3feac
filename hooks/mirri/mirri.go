package mirri

import (
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
)

// Profile is the Mirri Code CLI profile (spec 001, SEMANTICS.md section 3):
// flat [[hooks]] rules in <home>/config.toml, a regex matcher on each event's
// target, a 30 s default timeout, parallel handlers with identical commands
// run once, fail-open unless a rule sets failClosed, and no review.
var Profile = &hooks.Profile{
	Name:           "mirri",
	HomeEnv:        "MIRRI_CODE_HOME",
	HomeDir:        ".mirri-code",
	Events:         mirriEvents(),
	CompileMatcher: mirriCompile,
	// A hook is written by the user in their own config file: no review.
	Trust:        false,
	NoEnablement: true,
	// Time for a hook to clean up after SIGTERM before the group is killed.
	KillGrace:    2 * time.Second,
	Discover:     discoverMirri,
	Dedupe:       mirriDedupe,
	PrepareInput: mirriPrepareInput,
	AfterCombine: mirriAfterCombine,
	// [[hooks]] rules have a command and nothing else.
	HandlerTypes: []string{hooks.TypeCommand},
}

func init() { hooks.Register(Profile) }

func mirriEvents() []*hooks.EventRules {
	evs := make([]*hooks.EventRules, len(mirriRows))
	for i, r := range mirriRows {
		evs[i] = r.rules()
	}
	return evs
}

// mirriRowFor returns the table row of an event.
func mirriRowFor(name string) *mirriRow {
	for _, r := range mirriRows {
		if r.name == name {
			return r
		}
	}
	return nil
}

// mirriMatcher is a rule's matcher: an unanchored, case-sensitive RE2 search
// in the event's target. Events whose target is the empty string (Stop,
// Interrupt, the LLM request events) test the regex against "", and so does
// an event whose target field the host left out.
type mirriMatcher struct {
	re     *regexp.Regexp
	target string
}

func mirriCompile(pattern string) (hooks.Matcher, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return mirriMatcher{re: re}, nil
}

// Match tests the names given, or the empty string when there are none.
func (m mirriMatcher) Match(names []string) bool {
	if len(names) == 0 {
		return m.re.MatchString("")
	}
	for _, n := range names {
		if m.re.MatchString(n) {
			return true
		}
	}
	return false
}

// MatchInput tests the event's target field of the host's input.
func (m mirriMatcher) MatchInput(input []byte) bool {
	target := ""
	if m.target != "" {
		target = gjson.GetBytes(input, gjson.Escape(m.target)).String()
	}
	return m.re.MatchString(target)
}

// mirriDedupe runs each command once per event, as the spec says of rules
// whose command is exactly the same. One rule of each set of twins runs, in
// the place of the first: the first twin with failClosed if any has it, else
// the first, so that dropping a twin never weakens a guard. The engine
// reports the others as skipped "duplicate".
func mirriDedupe(list []*hooks.Hook) []*hooks.Hook {
	first := map[string]int{}
	var out []*hooks.Hook
	for _, h := range list {
		i, dup := first[h.Handler.Command]
		switch {
		case !dup:
			first[h.Handler.Command] = len(out)
			out = append(out, h)
		case h.Handler.FailClosed && !out[i].Handler.FailClosed:
			out[i] = h
		}
	}
	return out
}

// mirriPrepareInput cuts tool_output (PostToolUse) and last_assistant_message
// (Stop) to their first 2000 characters (Unicode code points), as the CLI
// sends them.
func mirriPrepareInput(_ *hooks.EventRules, input []byte, _ hooks.Session) []byte {
	for _, f := range []string{"tool_output", "last_assistant_message"} {
		v := gjson.GetBytes(input, f)
		if v.Type != gjson.String || utf8.RuneCountInString(v.Str) <= mirriTruncate {
			continue
		}
		cut, n := v.Str, 0
		for i := range v.Str {
			if n == mirriTruncate {
				cut = v.Str[:i]
				break
			}
			n++
		}
		if out, err := sjson.SetBytes(input, f, cut); err == nil {
			input = out
		}
	}
	return input
}

// Keys of the session State the Mirri rules use. The rewrite settings come
// from discovery (Discovery.Settings); the Stop key records the turn whose
// one continuation was used.
const (
	mirriRewriteKey = "mirri.hookCommandRewrite"
	mirriEngineKey  = "mirri.hookEngine"
	mirriStopKey    = "mirri.stopContinued"
)

func mirriAfterCombine(st *hooks.State, ev *hooks.EventRules, input []byte, res *hooks.Result) {
	if r := mirriRowFor(ev.Name); r != nil && r.after != nil {
		r.after(st, input, res)
	}
}

// mirriTurnBoundary forgets the used continuation: a prompt starts a new turn,
// an interrupt or a failed turn ends one (Stop does not fire then), and so do
// session start and end.
func mirriTurnBoundary(st *hooks.State, _ []byte, _ *hooks.Result) {
	st.SetString(mirriStopKey, "")
}

// mirriCapStop lets a Stop block continue the conversation at most once per
// turn. The turn is the host's turn_id when it gives one; without one, the
// Stop that follows a continued Stop is in the same turn (the model went on
// because of it), and any other Stop starts afresh. The host's
// stop_hook_active = true says the continuation was already used, too.
func mirriCapStop(st *hooks.State, input []byte, res *hooks.Result) {
	turn := "turn:" + gjson.GetBytes(input, "turn_id").String()
	if res.Decision != hooks.DecisionBlock {
		// No continuation: the turn ends here.
		st.SetString(mirriStopKey, "")
		return
	}
	if !gjson.GetBytes(input, "stop_hook_active").Bool() && st.String(mirriStopKey) != turn {
		st.SetString(mirriStopKey, turn)
		return
	}
	st.SetString(mirriStopKey, "")
	res.SystemMessages = append(res.SystemMessages, hooks.Message{Text: "Stop hook continuation already used this turn; the turn ends. Hook reason: " + res.Reason})
	res.Decision, res.Reason, res.Continuation = hooks.DecisionNone, "", ""
}

// mirriGateRewrite drops a PreToolUse updatedInput unless the session allows
// it: the hook-command-rewrite flag is on and the host runs the v2 hook
// engine (the v1 engine rewrites only in RewriteToolInput).
func mirriGateRewrite(st *hooks.State, _ []byte, res *hooks.Result) {
	if res.UpdatedInput == nil {
		return
	}
	why := ""
	switch {
	case st.String(mirriRewriteKey) != "true":
		why = "the hook-command-rewrite experimental flag is off"
	case st.String(mirriEngineKey) != mirriEngineV2:
		why = "the v1 hook engine rewrites only in RewriteToolInput (the host selects v2 with config.features.hookEngine = \"v2\")"
	default:
		return
	}
	res.UpdatedInput = nil
	if res.Decision == hooks.DecisionAllow {
		res.Decision = hooks.DecisionNone
	}
	res.SystemMessages = append(res.SystemMessages, hooks.Message{Text: "PreToolUse updatedInput ignored: " + why})
}
