package rpc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// gatedLoad is an initialize load that takes as long as the test wants, as
// a hooks file on a slow disk would: each load says it began (began), then
// waits for a word from the test (release): nil loads the hooks, an error
// fails the load with it. The loads still waiting when the test ends load.
type gatedLoad struct {
	began   chan struct{}
	release chan error
}

func newGatedLoad(t *testing.T) *gatedLoad {
	l := &gatedLoad{began: make(chan struct{}, 8), release: make(chan error)}
	t.Cleanup(func() { close(l.release) })
	return l
}

func (l *gatedLoad) load(e *hooks.Engine) (hooks.Summary, error) {
	l.began <- struct{}{}
	if err := <-l.release; err != nil {
		return hooks.Summary{}, err
	}
	return e.LoadChecked()
}

// waitBegan returns once a load has begun: initialize is running.
func (l *gatedLoad) waitBegan(t *testing.T) {
	t.Helper()
	select {
	case <-l.began:
	case <-time.After(30 * time.Second):
		t.Fatal("the initialize load never began")
	}
}

// replies waits for the replies to ids (as written on the wire), in
// whatever order they come.
func (h *rawHarness) replies(t *testing.T, ids ...string) map[string]gjson.Result {
	t.Helper()
	got := map[string]gjson.Result{}
	for len(got) < len(ids) {
		m := h.next(t, "replies to "+strings.Join(ids, ", "), func(m gjson.Result) bool {
			return !m.Get("method").Exists() && slices.Contains(ids, m.Get("id").Raw)
		})
		got[m.Get("id").Raw] = m
	}
	return got
}

// rest is every message written until the output ends.
func (h *rawHarness) rest(t *testing.T) []gjson.Result {
	t.Helper()
	var out []gjson.Result
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, open := <-h.msgs:
			if !open {
				return out
			}
			out = append(out, m)
		case <-timeout:
			t.Fatal("the output did not end")
		}
	}
}

func sendInit(t *testing.T, h *rawHarness, id, extra string) {
	t.Helper()
	h.send(t, `{"jsonrpc":"2.0","id":%q,"method":"initialize","params":{%s"session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true}}}`,
		id, extra, time.Now().UnixNano(), t.TempDir(), t.TempDir())
}

// While initialize loads, the reader goes on reading: a $/cancelRequest of
// the initialize answers it -32800 at once, the load still running, and a
// request read behind it is then refused as before any initialize. The
// session can still be initialized after.
func TestInitialize_ACancelIsReadAndAnsweredWhileTheLoadRuns(t *testing.T) {
	l := newGatedLoad(t)
	h := newRawHarness(t, Options{Version: "test", load: l.load})
	sendInit(t, h, "init", "")
	l.waitBegan(t)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/list"}`)
	h.send(t, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"init"}}`)
	if r := h.reply(t, `"init"`); r.Get("error.code").Int() != CodeRequestCancelled {
		t.Fatalf("cancelled initialize: %s, want -32800", r.Raw)
	}
	if r := h.reply(t, "1"); r.Get("error.code").Int() != CodeServerNotInitialized {
		t.Fatalf("a request behind the cancelled initialize: %s, want -32002", r.Raw)
	}
	// The abandoned load ends by itself; a new initialize starts the session.
	l.release <- nil
	sendInit(t, h, "again", "")
	l.waitBegan(t)
	l.release <- nil
	if r := h.reply(t, `"again"`); r.Get("error").Exists() {
		t.Fatalf("initialize after a cancelled one: %s", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/list"}`)
	if r := h.reply(t, "2"); r.Get("error").Exists() {
		t.Fatalf("hooks/list after initialize: %s", r.Raw)
	}
}

// Requests a host pipelines right behind initialize are neither refused as
// "not initialized" nor run before it: they wait for it and see the session
// it started. Its reply is the first message out, its load warnings come
// right after it, and the state writes keep their wire order with it.
func TestInitialize_RequestsPipelinedBehindItSeeTheSessionItStarts(t *testing.T) {
	home, key := trustHome(t)
	// A prompt hook, which codex cannot run: a load warning.
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}, {"hooks": [{"type": "prompt", "prompt": "x"}]}]}}`
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	l := newGatedLoad(t)
	h := newRawHarness(t, Options{Version: "test", load: l.load})
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":"s-%d","cwd":%q},"config":{"home":%q}}}`,
		time.Now().UnixNano(), t.TempDir(), home)
	l.waitBegan(t)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/list"}`)
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/trust","params":{"keys":[%q]}}`, key)
	h.send(t, `{"jsonrpc":"2.0","id":3,"method":"hooks/list"}`)
	h.send(t, `{"jsonrpc":"2.0","id":4,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"}}}}`)
	// An id still in flight: refused, but not before initialize's reply.
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/list"}`)
	l.release <- nil

	first := h.next(t, "a first message", func(gjson.Result) bool { return true })
	if first.Get("id").Str != "init" || first.Get("error").Exists() || first.Get("result.hooks.warnings").Int() == 0 {
		t.Fatalf("first message out: %s, want initialize's reply, with its load warnings counted", first.Raw)
	}
	var warned []string
	replies := map[string]gjson.Result{}
	dup := 0
	for len(replies) < 4 || dup == 0 {
		m := h.next(t, "the replies to 1-4 and to the duplicate id", func(gjson.Result) bool { return true })
		switch {
		case m.Get("method").Str == "window/logMessage":
			if len(replies) == 0 && dup == 0 {
				warned = append(warned, m.Get("params.message").Str)
			}
		case m.Get("error.code").Int() == -32600 && strings.Contains(m.Get("error.message").Str, "id 2 is still in flight"):
			dup++
		case m.Get("id").Exists() && !m.Get("method").Exists():
			replies[m.Get("id").Raw] = m
		}
	}
	all := strings.Join(warned, "\n")
	if !strings.Contains(all, "prompt hooks are not supported") || !strings.Contains(all, "review") {
		t.Errorf("load warnings before the first later reply: %q, want the prompt hook's and the review's", warned)
	}
	for id, r := range replies {
		if r.Get("error").Exists() {
			t.Errorf("reply %s: %s, want a result", id, r.Raw)
		}
	}
	if got := replies["3"].Get(fmt.Sprintf("result.hooks.#(key==%q).trust", key)).Str; got != "trusted" {
		t.Errorf("hooks/list read after hooks/trust: trust %q, want trusted: %s", got, replies["3"].Raw)
	}
}

// A request pipelined behind an initialize that fails is refused as before
// any initialize; behind one that succeeds a second initialize is refused
// as a repeat; behind a failed one it starts the session.
func TestInitialize_RequestsBehindItAreRoutedByHowItEnds(t *testing.T) {
	l := newGatedLoad(t)
	h := newRawHarness(t, Options{Version: "test", load: l.load})
	sendInit(t, h, "bad", "")
	l.waitBegan(t)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/list"}`)
	sendInit(t, h, "good", "")
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/list"}`)
	sendInit(t, h, "again", "")
	l.release <- errors.New("the disk is gone")
	if r := h.reply(t, `"bad"`); r.Get("error.code").Int() != -32602 || !strings.Contains(r.Get("error.message").Str, "the disk is gone") {
		t.Fatalf("failed initialize: %s", r.Raw)
	}
	if r := h.reply(t, "1"); r.Get("error.code").Int() != CodeServerNotInitialized {
		t.Fatalf("behind a failed initialize: %s, want -32002", r.Raw)
	}
	l.waitBegan(t)
	l.release <- nil
	if r := h.reply(t, `"good"`); r.Get("error").Exists() {
		t.Fatalf("initialize behind a failed one: %s", r.Raw)
	}
	// The two behind it run together, in either order.
	got := h.replies(t, "2", `"again"`)
	if r := got["2"]; r.Get("error").Exists() {
		t.Fatalf("behind a successful initialize: %s", r.Raw)
	}
	if r := got[`"again"`]; r.Get("error.code").Int() != -32600 || !strings.Contains(r.Get("error.message").Str, "already called") {
		t.Fatalf("a second initialize: %s, want -32600", r.Raw)
	}
}

// An exit or an end of input read while initialize loads waits for it, off
// the reader: the initialize and what was read behind it are answered in
// wire order once the load is done (a pipelined shutdown makes the exit
// code 0), and an end of input with onStdinClose "cancel" then cancels what
// runs. A load that does not end within startGrace is cancelled instead:
// the session ends anyway.
func TestInitialize_TheSessionEndsWhileItLoads(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		end         func(t *testing.T, h *rawHarness)
		// loads: the load ends (else it never does); code: the exit code.
		loads bool
		code  int
	}{
		{"shutdown and exit", "", func(t *testing.T, h *rawHarness) {
			h.send(t, `{"jsonrpc":"2.0","id":"down","method":"shutdown"}`)
			h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
			h.send(t, `{"jsonrpc":"2.0","id":"late","method":"hooks/list"}`)
		}, true, 0},
		{"exit, the load never ends", "", func(t *testing.T, h *rawHarness) {
			h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
		}, false, 1},
		{"end of input", "", func(t *testing.T, h *rawHarness) { h.in.Close() }, true, 1},
		{"end of input, onStdinClose cancel", `"onStdinClose":"cancel",`, func(t *testing.T, h *rawHarness) { h.in.Close() }, true, 1},
		{"end of input, onStdinClose cancel, the load never ends", `"onStdinClose":"cancel",`, func(t *testing.T, h *rawHarness) { h.in.Close() }, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newGatedLoad(t)
			h := newRawHarness(t, Options{Version: "test", load: l.load})
			h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{%s"session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":%s}}}`,
				tc.extra, time.Now().UnixNano(), t.TempDir(), t.TempDir(), blockingHook)
			l.waitBegan(t)
			h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/list"}`)
			cancels := strings.Contains(tc.extra, "cancel")
			if cancels {
				h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"}}}}`)
			}
			tc.end(t, h)
			if tc.loads {
				l.release <- nil
			}
			r := h.reply(t, `"init"`)
			switch {
			case !tc.loads:
				if r.Get("error.code").Int() != CodeRequestCancelled {
					t.Fatalf("initialize whose load never ends: %s, want -32800", r.Raw)
				}
			case r.Get("error").Exists():
				t.Fatalf("initialize: %s, want its result", r.Raw)
			}
			want := []string{"1"}
			if cancels {
				want = append(want, "2")
			}
			if tc.code == 0 {
				want = append(want, `"down"`)
			}
			got := h.replies(t, want...)
			// An exit, or an end of input that cancels, may cancel the list
			// before it ran: either answer is right then.
			if tc.name == "end of input" && got["1"].Get("error").Exists() {
				t.Errorf("hooks/list read behind initialize: %s", got["1"].Raw)
			}
			if cancels && got["2"].Get("error.code").Int() != CodeRequestCancelled && tc.loads {
				t.Errorf("hooks/run at the end of input: %s, want -32800", got["2"].Raw)
			}
			if tc.code == 0 {
				if got[`"down"`].Get("error").Exists() {
					t.Errorf("shutdown behind initialize: %s", got[`"down"`].Raw)
				}
				// A request sent after exit is refused when hookd reads it
				// before it has ended; it may end first.
				for _, m := range h.rest(t) {
					if m.Get("id").Raw == `"late"` && m.Get("error.code").Int() != CodeRequestCancelled {
						t.Errorf("a request read after exit: %s, want -32800", m.Raw)
					}
				}
			}
			select {
			case code := <-h.code:
				if code != tc.code {
					t.Errorf("exit code %d, want %d", code, tc.code)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the session did not end")
			}
		})
	}
}

// Requests read behind a loading initialize are routed in wire order: a
// shutdown pipelined after them ends the session only for what comes after
// it, so every request read before it gets its result, not "shut down".
func TestInitialize_AShutdownBehindItRefusesNothingReadBeforeIt(t *testing.T) {
	l := newGatedLoad(t)
	h := newRawHarness(t, Options{Version: "test", load: l.load})
	sendInit(t, h, "init", "")
	l.waitBegan(t)
	const n = 32
	var ids []string
	for i := 1; i <= n; i++ {
		h.send(t, `{"jsonrpc":"2.0","id":%d,"method":"hooks/list"}`, i)
		ids = append(ids, fmt.Sprint(i))
	}
	h.send(t, `{"jsonrpc":"2.0","id":"down","method":"shutdown"}`)
	h.send(t, `{"jsonrpc":"2.0","id":"after","method":"hooks/list"}`)
	l.release <- nil
	got := h.replies(t, append(ids, `"init"`, `"down"`, `"after"`)...)
	for _, id := range append(ids, `"init"`, `"down"`) {
		if r := got[id]; r.Get("error").Exists() {
			t.Errorf("reply to %s, read before the shutdown: %s, want its result", id, r.Raw)
		}
	}
	if r := got[`"after"`]; r.Get("error.code").Int() != -32600 {
		t.Errorf("a request read after the shutdown: %s, want -32600", r.Raw)
	}
}
