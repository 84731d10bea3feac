package hooks

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/spill"
)

// The optional seams added for the claude profile, each proven on a copy of
// the codex profile.

func withEvent(p *Profile, name string, mod func(ev *EventRules)) {
	evs := make([]*EventRules, len(p.Events))
	for i, ev := range p.Events {
		c := *ev
		if c.Name == name {
			mod(&c)
		}
		evs[i] = &c
	}
	p.Events = evs
}

func TestProfile_ShellReplacesTheLoginShell(t *testing.T) {
	p := seamProfile(func(p *Profile) { p.Shell = []string{"/bin/sh", "-c"} })
	e := seamEngine(t, p, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo \"$0\""}]}]}`)
	t.Setenv("SHELL", "/nonexistent")
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil || len(res.AdditionalContext) != 1 || res.AdditionalContext[0].Text != "/bin/sh" {
		t.Fatalf("got %+v, %v", res, err)
	}
}

func TestProfile_QuietFieldsAndReadHandler(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.QuietFields = map[string]bool{"note": true, "background": true}
		p.ReadHandler = func(ev *EventRules, raw gjson.Result, h *Hook) (string, bool) {
			if raw.Get("background").Bool() {
				h.Handler.Async = true
				return "made async", false
			}
			return "", raw.Get("note").Str == "drop me"
		}
	})
	e := seamEngine(t, p, `{"Stop": [{"note": "group", "hooks": [
		{"type": "command", "command": "true", "note": "x", "background": true},
		{"type": "command", "command": "true", "note": "drop me"},
		{"type": "command", "command": "true", "other": 1}]}]}`)
	list, warns := e.List("")
	if len(list) != 2 || !list[0].Handler.Async || list[1].Handler.Async {
		t.Fatalf("hooks %+v", list)
	}
	var msgs []string
	for _, w := range warns {
		msgs = append(msgs, w.Message)
	}
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0], "made async in session") || !strings.Contains(msgs[1], `unknown field "other"`) {
		t.Fatalf("warnings %q", msgs)
	}
}

type fakeLimiter struct{}

func (fakeLimiter) Limit(_, text string) (spill.Text, error) {
	if len(text) <= 3 {
		return spill.Text{Text: text}, nil
	}
	return spill.Text{Text: "cut:" + text[:3], Path: "/spilled", Bytes: int64(len(text))}, nil
}

func (fakeLimiter) Preview(io.ReaderAt, int64, string) (string, error) { return "file preview", nil }

func TestProfile_SpillReplacesTheTokenLimitsAndCoversSystemMessages(t *testing.T) {
	p := seamProfile(func(p *Profile) { p.Spill = fakeLimiter{} })
	e := seamEngine(t, p, `{"UserPromptSubmit": [{"hooks": [
		{"type": "command", "command": "echo '{\"systemMessage\": \"long message\", \"hookSpecificOutput\": {\"hookEventName\": \"UserPromptSubmit\", \"additionalContext\": \"long context\"}}'", "additionalContextLimit": 0}]}]}`)
	res, err := e.Run(context.Background(), "UserPromptSubmit", []byte(`{"prompt":"x"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.AdditionalContext[0]; c.Text != "cut:lon" || c.Spilled != "/spilled" || c.Bytes != 12 {
		t.Fatalf("context %+v", c)
	}
	if m := res.SystemMessages[0].Text; m != "cut:lon" {
		t.Fatalf("systemMessage %q", m)
	}
}

func TestProfile_BudgetForComputesTheSharedBudget(t *testing.T) {
	var saw int
	p := seamProfile(func(p *Profile) {
		withEvent(p, "SessionEnd", func(ev *EventRules) {
			ev.Budget = time.Hour
			ev.BudgetFor = func(run []*Hook) time.Duration { saw = len(run); return 100 * time.Millisecond }
		})
	})
	e := seamEngine(t, p, `{"SessionEnd": [{"hooks": [{"type": "command", "command": "sleep 30"}]}]}`)
	res, err := e.Run(context.Background(), "SessionEnd", []byte(`{"reason":"other"}`), "")
	if err != nil || saw != 1 || res.Hooks[0].Status == StatusSucceeded {
		t.Fatalf("budget not applied: %+v, %v (saw %d)", res, err, saw)
	}
}

func TestProfile_EventCompileMatcherReplacesTheDialect(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		withEvent(p, "SessionStart", func(ev *EventRules) {
			ev.CompileMatcher = func(pattern string) (Matcher, error) { return ExactSet{strings.ToUpper(pattern)}, nil }
		})
	})
	e := seamEngine(t, p, `{"SessionStart": [{"matcher": "resume", "hooks": [{"type": "command", "command": "echo ran"}]}]}`)
	for source, runs := range map[string]int{"RESUME": 1, "resume": 0} {
		res, err := e.Run(context.Background(), "SessionStart", []byte(`{"source":"`+source+`"}`), "")
		if err != nil || len(res.Hooks) != runs {
			t.Fatalf("%s: %+v, %v", source, res, err)
		}
	}
}
