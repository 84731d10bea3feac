package hooks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// seamProfile is the codex profile with the optional profile hooks set, to
// prove the engine calls each of them.
func seamProfile(mod func(p *Profile)) *Profile {
	p := *codexProfile()
	p.Name = "seam-test"
	mod(&p)
	return &p
}

func seamEngine(t *testing.T, p *Profile, hooksObj string) *Engine {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	e := New(Options{Profile: p, Session: Session{ID: "s", Cwd: t.TempDir()},
		Discover:    DiscoverOptions{Home: t.TempDir(), SessionHooks: []byte(hooksObj)},
		BypassTrust: true})
	t.Cleanup(e.Close)
	e.Load()
	return e
}

func TestProfile_DedupeDropsAreReportedAsDuplicates(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.Dedupe = func(hs []*Hook) []*Hook {
			seen := map[string]bool{}
			var out []*Hook
			for _, h := range hs {
				if !seen[h.Handler.Command] {
					seen[h.Handler.Command] = true
					out = append(out, h)
				}
			}
			return out
		}
	})
	e := seamEngine(t, p, `{"Stop": [{"hooks": [{"type": "command", "command": "echo '{}'"}, {"type": "command", "command": "echo '{}'"}]}]}`)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "duplicate" || !strings.HasSuffix(res.Skipped[0].Key, ":stop:0:1") {
		t.Fatalf("ran %+v skipped %+v", res.Hooks, res.Skipped)
	}
}

func TestProfile_PrepareInputChangesWhatHooksRead(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.PrepareInput = func(ev *EventRules, input []byte, s Session) []byte {
			return []byte(`{"prompt":"rewritten for ` + ev.Name + `"}`)
		}
	})
	e := seamEngine(t, p, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "grep -o 'rewritten for [A-Za-z]*'"}]}]}`)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"original"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "rewritten for UserPromptSubmit" {
		t.Fatalf("hook did not read the prepared input: %+v", res.AdditionalContext)
	}
}

func TestProfile_AfterCombineKeepsStateAcrossRuns(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.AfterCombine = func(st *State, ev *EventRules, input []byte, res *Result) {
			n := st.Int("stops") + 1
			st.SetInt("stops", n)
			if n > 2 {
				res.Decision, res.Continuation = DecisionNone, ""
			}
		}
	})
	e := seamEngine(t, p, `{"Stop": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"again\"}'"}]}]}`)
	var got []string
	for range 3 {
		res, err := e.Run(context.Background(), "Stop", nil, "")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res.Decision)
	}
	if strings.Join(got, ",") != "block,block,none" {
		t.Fatalf("decisions %v, want the third block overridden", got)
	}
}

type inputOnly struct{ field string }

func (inputOnly) Match([]string) bool { return false }
func (m inputOnly) MatchInput(input []byte) bool {
	return gjson.GetBytes(input, m.field).Bool()
}

func TestProfile_InputMatcherSeesTheWholeInput(t *testing.T) {
	e := seamEngine(t, codexProfile(), `{"PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{}'"}]}]}`)
	hooks, _ := e.snapshot()
	hooks[0].SetMatcher(inputOnly{field: "tool_input.dangerous"})
	for _, tc := range []struct {
		input string
		runs  int
	}{
		{`{"tool_name":"Bash","tool_input":{"dangerous":true}}`, 1},
		{`{"tool_name":"Bash","tool_input":{"dangerous":false}}`, 0},
	} {
		res, err := e.Run(context.Background(), "PreToolUse", []byte(tc.input), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hooks) != tc.runs {
			t.Errorf("input %s: ran %d, want %d", tc.input, len(res.Hooks), tc.runs)
		}
	}
}

func TestProfile_EventBudgetStopsSlowHandlersWithoutCancellingTheRun(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		evs := make([]*EventRules, len(p.Events))
		for i, ev := range p.Events {
			c := *ev
			if c.Name == "SessionEnd" {
				c.Budget = 200 * time.Millisecond
			}
			evs[i] = &c
		}
		p.Events = evs
	})
	e := seamEngine(t, p, `{"SessionEnd": [{"hooks": [{"type": "command", "command": "sleep 30"}]}]}`)
	res, err := e.Run(context.Background(), "SessionEnd", []byte(`{"reason":"other"}`), "")
	if err != nil {
		t.Fatalf("a spent budget must not fail the run: %v", err)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Status == StatusSucceeded {
		t.Fatalf("slow handler not stopped by the budget: %+v", res.Hooks)
	}
}

func TestProfile_EnvFilterShapesTheHookEnvironment(t *testing.T) {
	t.Setenv("HOOKD_SEAM_SECRET", "x")
	p := seamProfile(func(p *Profile) {
		p.EnvFilter = func(env []string) []string {
			var out []string
			for _, kv := range env {
				if !strings.HasPrefix(kv, "HOOKD_SEAM_SECRET=") {
					out = append(out, kv)
				}
			}
			return out
		}
	})
	e := seamEngine(t, p, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo \"secret=${HOOKD_SEAM_SECRET:-none}\""}]}]}`)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "secret=none" {
		t.Fatalf("filtered variable reached the hook: %+v", res.AdditionalContext)
	}
}
