package hooks

import (
	"context"
	"testing"

	"github.com/tidwall/gjson"
)

// A kind the profile adds runs beside the engine's own: the run loop hands
// each handler to the kind its type names and reads the result with the
// event's rules.
func TestHandlerKind_ProfileAddsAKindBesideCommand(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.QuietFields = map[string]bool{"kind": true}
		p.ReadHandler = func(ev *EventRules, raw gjson.Result, h *Hook) (string, bool) {
			if k := raw.Get("kind"); k.Exists() {
				h.Handler.Type = k.Str
			}
			return "", false
		}
		p.HandlerKinds = map[string]func(e *Engine) HandlerKind{
			"echo": func(e *Engine) HandlerKind {
				return HandlerKindFunc(func(ctx context.Context, h *Hook, stdin []byte) RawResult {
					code := 0
					msg := "echo kind saw " + gjson.GetBytes(stdin, "hook_event_name").Str + " in " + e.Session().ID
					return RawResult{ExitCode: &code, Stdout: `{"systemMessage":"` + msg + `"}`}
				})
			},
		}
	})
	e := seamEngine(t, p, `{"Stop": [{"hooks": [
		{"type": "command", "command": "unused", "kind": "echo"},
		{"type": "command", "command": "echo '{\"systemMessage\":\"command\"}'"}]}]}`)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.SystemMessages {
		got = append(got, m.Text)
	}
	if len(res.Hooks) != 2 || len(got) != 2 || got[0] != "echo kind saw Stop in s" || got[1] != "command" {
		t.Fatalf("hooks %+v messages %q", res.Hooks, got)
	}
}

// A type no kind runs fails the handler with a reason, and never blocks.
func TestHandlerKind_UnknownTypeFailsTheHandler(t *testing.T) {
	p := seamProfile(func(p *Profile) {
		p.ReadHandler = func(ev *EventRules, raw gjson.Result, h *Hook) (string, bool) {
			h.Handler.Type = "carrier-pigeon"
			return "", false
		}
	})
	e := seamEngine(t, p, `{"Stop": [{"hooks": [{"type": "command", "command": "unused"}]}]}`)
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hooks) != 1 || res.Hooks[0].Status != StatusFailed || res.Hooks[0].Error == nil || *res.Hooks[0].Error != "carrier-pigeon handlers are not supported by this build" || res.Decision == DecisionBlock {
		t.Fatalf("%+v", res)
	}
}
