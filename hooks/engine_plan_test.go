package hooks

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestQuickRun_DeclinesWhenAHandlerWouldRun(t *testing.T) {
	e := newTestEngine(t, `{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}`, true)
	if res, ok, err := e.QuickRun("Stop", nil, ""); ok || res != nil || err != nil {
		t.Fatalf("QuickRun(Stop) = %+v, %v, %v; want a refusal: the Stop hook must run", res, ok, err)
	}
	res, ok, err := e.QuickRun("PreToolUse", []byte(`{"tool_name":"Read","tool_input":{}}`), "t1")
	if !ok || err != nil {
		t.Fatalf("QuickRun(PreToolUse) = %v, %v; want an answer: no hook matches", ok, err)
	}
	if res.Event != "PreToolUse" || res.Decision != DecisionNone || !res.Continue || len(res.Hooks) != 0 || len(res.Skipped) != 0 {
		t.Errorf("no-match result %+v", res)
	}
}

func TestQuickRun_SameResultAsRunForSkippedHooks(t *testing.T) {
	// Not bypassed: the hook is untrusted, so it is reported, not run.
	e := newTestEngine(t, `{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}`, false)
	input := []byte(`{"tool_name":"Bash","tool_input":{"command":"ls"}}`)
	quick, ok, err := e.QuickRun("PreToolUse", input, "t1")
	if !ok || err != nil {
		t.Fatalf("QuickRun = %v, %v", ok, err)
	}
	full, err := e.Run(context.Background(), "PreToolUse", input, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if quick.RunID == full.RunID {
		t.Errorf("two runs share the id %s", quick.RunID)
	}
	quick.RunID, full.RunID = "", ""
	if !reflect.DeepEqual(quick, full) {
		t.Errorf("QuickRun %+v\n      Run %+v", quick, full)
	}
	if len(quick.Skipped) != 1 || quick.Skipped[0].Reason != TrustUntrusted {
		t.Errorf("skipped %+v, want the untrusted hook", quick.Skipped)
	}
}

func TestQuickRun_ArgumentErrorsAreAnswered(t *testing.T) {
	e := newTestEngine(t, `{}`, true)
	for _, c := range []struct{ event, input string }{{"NoSuchEvent", `{}`}, {"Stop", `[1]`}} {
		_, ok, err := e.QuickRun(c.event, []byte(c.input), "")
		var pe *ParamError
		if !ok || !errors.As(err, &pe) {
			t.Errorf("QuickRun(%s, %s) = %v, %v; want a ParamError", c.event, c.input, ok, err)
		}
	}
}

func TestRunIDs_UniqueUUIDsWithoutARandomReadEach(t *testing.T) {
	var ids runIDs
	ids.init()
	shape := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 70000 { // past the carry out of the low two bytes
		id := ids.next()
		if !shape.MatchString(id) {
			t.Fatalf("run id %q is not a version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("run id %q repeated", id)
		}
		seen[id] = true
	}
}

// Session strings are escaped as the hosts' JSON writers escape them:
// quotes, backslashes and control characters, but <, & and > as themselves
// (Node's JSON.stringify, Rust's serde_json; encoding/json would write
// \u003c, \u0026, \u003e).
func TestInput_SessionStringsEscapedAsTheHostsDo(t *testing.T) {
	e := newTestEngine(t, `{}`, false)
	odd := "a\"b\\c\n\t\x01<&>\u2028é"
	e.opts.Session.Cwd, e.opts.Session.Model = odd, odd
	got := e.buildInput(codexProfile().Event("Stop"), []byte(`{"x\u0041":1}`), odd)
	q := []byte(`"a\"b\\c\n\t\u0001<&>\u2028é"`)
	for _, field := range []string{`"cwd":`, `"model":`, `"turn_id":`} {
		if !bytes.Contains(got, append([]byte(field), q...)) {
			t.Errorf("%s not %s in %s", field, q, got)
		}
	}
	if !bytes.HasSuffix(got, []byte(`,"xA":1}`)) {
		t.Errorf("extra input field not kept: %s", got)
	}
}

// QuickRun looks at once-only handlers without claiming them: declining
// leaves the handler to the Run that follows, which runs it once; after
// that QuickRun answers with it skipped, as Run would.
func TestQuickRun_LeavesOnceOnlyHandlersToRun(t *testing.T) {
	e := newTestEngine(t, `{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}`, true)
	e.eventHooks("Stop")[0].Scope = &Scope{Kind: ScopeSkill, Name: "fmt", Once: true}
	e.ActivateSkill("fmt")
	for range 2 {
		if _, ok, err := e.QuickRun("Stop", nil, ""); ok || err != nil {
			t.Fatalf("QuickRun answered (%v, %v) while a once-only handler is unspent", ok, err)
		}
	}
	res, err := e.Run(context.Background(), "Stop", nil, "")
	if err != nil || len(res.Hooks) != 1 || res.Hooks[0].Status != StatusSucceeded {
		t.Fatalf("Run after QuickRun declined: %+v %v; the handler must run once", res, err)
	}
	quick, ok, err := e.QuickRun("Stop", nil, "")
	if !ok || err != nil || len(quick.Hooks) != 0 || len(quick.Skipped) != 1 || quick.Skipped[0].Reason != SkipOnce {
		t.Fatalf("QuickRun after the handler ran: %+v %v %v; want it skipped as spent", quick, ok, err)
	}
}

// A hook with nothing to add runs with the engine's environment itself, and
// a hook with variables of its own gets them on a copy: neither changes
// what the next hook gets.
func TestHookEnv_SharedBaseIsNeverWritten(t *testing.T) {
	e := newTestEngine(t, `{}`, true)
	base := append(make([]string, 0, 4), "A=1", "B=2") // room to append in place
	plain := e.hookEnv(base, &Hook{})
	if strings.Join(plain, " ") != "A=1 B=2" {
		t.Fatalf("plain hook env: %q", plain)
	}
	_ = append(plain, "C=3") // what a caller may do with it
	own := e.hookEnv(base, &Hook{Env: map[string]string{"P": "x"}, Scope: &Scope{Env: map[string]string{"S": "y"}}})
	slices.Sort(own)
	if strings.Join(own, " ") != "A=1 B=2 P=x S=y" {
		t.Fatalf("hook env with its own variables: %q", own)
	}
	if strings.Join(base[:cap(base)], " ") != "A=1 B=2  " {
		t.Fatalf("base written: %q", base[:cap(base)])
	}
	if again := e.hookEnv(base, &Hook{}); strings.Join(again, " ") != "A=1 B=2" {
		t.Fatalf("the next plain hook's env: %q", again)
	}
}
