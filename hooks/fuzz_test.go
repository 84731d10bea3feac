package hooks

import (
	"sort"
	"strings"
	"testing"
)

// sortedProfiles lists every registered profile in a fixed order.
func sortedProfiles() []*Profile {
	names := ProfileNames()
	sort.Strings(names)
	out := make([]*Profile, len(names))
	for i, n := range names {
		out[i], _ = LookupProfile(n)
	}
	return out
}

var validStatus = map[Status]bool{StatusSucceeded: true, StatusBlocked: true, StatusFailed: true,
	StatusTimedOut: true, StatusCancelled: true}

// FuzzParseOutput feeds whatever a hook may print, with any exit code, to
// every event of every profile: reading it must never panic, and the outcome
// must carry a status a host understands. Combining the outcome must not
// panic either.
func FuzzParseOutput(f *testing.F) {
	for _, seed := range []string{"", "plain text", `{"decision":"block","reason":"x"}`,
		`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","updatedInput":{"command":1}}}`,
		`{"continue":false,"stopReason":"s","systemMessage":"m"}`, `[1,2]`, `{"decision":`, `{"decision":"deny","metadata":{"a":1},"logs":["l"]}`,
		`{"hookSpecificOutput":{"message":"ctx"},"permissionDecision":"deny"}`, "\xff\xfe{", `{"output":{"watchPaths":["a"]}}`} {
		f.Add(seed, "stderr text", 0, false)
		f.Add(seed, "", 2, false)
		f.Add(seed, "why", 1, true)
	}
	f.Fuzz(func(t *testing.T, stdout, stderr string, code int, async bool) {
		for _, p := range sortedProfiles() {
			for _, ev := range p.Events {
				if ev.Parse == nil {
					continue
				}
				c := code
				o := ev.Parse(RawResult{ExitCode: &c, Stdout: stdout, Stderr: stderr}, async)
				if !validStatus[o.Status] {
					t.Fatalf("%s %s: status %q for stdout %q exit %d", p.Name, ev.Name, o.Status, stdout, code)
				}
				if ev.Combine != nil {
					o.Hook = &Hook{Key: "k", Event: ev.Name, Handler: Handler{Type: TypeCommand}}
					res := &Result{Event: ev.Name, Decision: DecisionNone, Continue: true}
					ev.Combine(res, []Outcome{o})
				}
			}
		}
	})
}

// FuzzParseHooksFile feeds any bytes to the hooks.json and config.toml
// readers of every profile: they must never panic, and every hook they return
// must have a key and a handler type.
func FuzzParseHooksFile(f *testing.F) {
	for _, seed := range []string{`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
		`{"hooks":{"Stop":[{"matcher":"[","hooks":[{"type":"command","command":"x","timeout":1.5}]}]}}`,
		`{"hooks":{"SessionEnd":[{"hooks":[{"type":"mcp_tool","server":"s","tool":"t","input":{"a":"${x}"}}]}]}}`,
		"[hooks]\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"x\"\n",
		`{"description":1,"hooks":[]}`, `{`, ``} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		for _, p := range sortedProfiles() {
			src := Source{Layer: LayerUser, Path: "/fuzz/hooks.json"}
			check := func(kind string, hooks []*Hook) {
				for _, h := range hooks {
					if h.Key == "" || h.Handler.Type == "" || !strings.HasPrefix(h.Key, "/fuzz/hooks.json:") {
						t.Fatalf("%s %s: bad hook %+v from %q", p.Name, kind, h, doc)
					}
				}
			}
			hooks, _ := ParseHooksJSON(p, []byte(doc), src, "/fuzz/hooks.json")
			check("json", hooks)
			hooks, _ = ParseHooksTOML(p, []byte(doc), src, "/fuzz/hooks.json")
			check("toml", hooks)
		}
	})
}
