//go:build unix

package rpc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/spill"
)

// stubbornHook starts, under profile, a hooks/run (id 9) of event whose one
// hook ignores SIGTERM, and returns once the hook has said so through a FIFO:
// from then on only its SIGKILL, the profile's kill grace after the SIGTERM,
// ends it.
func stubbornHook(t *testing.T, h *rawHarness, profile, event string) {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready")
	if err := syscall.Mkfifo(ready, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := fmt.Sprintf(`trap '' TERM; echo up > %s; sleep 1000`, hooks.ShellQuote(ready))
	hooksObj := fmt.Sprintf(`{%q: [{"hooks": [{"type": "command", "command": %q, "timeout": 900}]}]}`, event, cmd)
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"profile":%q,"session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":%s}}}`,
		profile, time.Now().UnixNano(), t.TempDir(), t.TempDir(), hooksObj)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","id":9,"method":"hooks/run","params":{"event":%q,"input":{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}}}`, event)
	f, err := os.Open(ready) // waits for the hook, which writes once its trap is set
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := bufio.NewReader(f).ReadString('\n'); err != nil {
		t.Fatalf("the hook never said it started: %v", err)
	}
}

// The reply to a request in flight at exit waits for the handler's kill:
// the profile's kill grace, however long, is within what exit gives the
// replies.
func TestExit_ReplyInFlightOutlastsTheProfilesKillGrace(t *testing.T) {
	for _, tc := range []struct{ profile, event string }{{"gemini", "BeforeTool"}, {"qwen", "PreToolUse"}} {
		t.Run(tc.profile, func(t *testing.T) {
			h := newRawHarness(t, Options{Version: "test"})
			stubbornHook(t, h, tc.profile, tc.event)
			start := time.Now()
			h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
			r := h.reply(t, "9")
			if r.Get("error.code").Int() != CodeRequestCancelled {
				t.Fatalf("reply %s, want error -32800", r.Raw)
			}
			if code := <-h.code; code != 1 {
				t.Errorf("exit code %d", code)
			}
			t.Logf("measured: profile %s, exit to reply and end %v", tc.profile, time.Since(start).Round(10*time.Millisecond))
		})
	}
}

// lockedLog collects what the server logs.
type lockedLog struct {
	mu  chan struct{}
	buf bytes.Buffer
}

func newLockedLog() *lockedLog { return &lockedLog{mu: make(chan struct{}, 1)} }

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu <- struct{}{}
	defer func() { <-l.mu }()
	return l.buf.String()
}

// A reply that cannot be written at exit (a host that reads nothing more) is
// logged, with its request, never dropped silently.
func TestExit_AReplyTheHostDoesNotReadIsLogged(t *testing.T) {
	logs := newLockedLog()
	h := newRawHarness(t, Options{Version: "test", Logger: slog.New(slog.NewTextHandler(logs, nil))})
	h.initBlocking(t, "")
	h.runBlocking(t, "5")
	h.stopReading()
	h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
	if code := <-h.code; code != 1 {
		t.Errorf("exit code %d", code)
	}
	if out := logs.String(); !strings.Contains(out, "reply lost") || !strings.Contains(out, "id=5") {
		t.Errorf("log:\n%s\nwant the lost reply to id 5", out)
	}
}

// hookd serve's bound after a signal (a second past MaxExitBound) must let
// every profile's handlers be killed and their replies written.
func TestMaxExitBound_CoversEveryProfilesKillGraceAndTheWriteGrace(t *testing.T) {
	for _, name := range hooks.ProfileNames() {
		p, _ := hooks.LookupProfile(name)
		if need := p.KillGrace + exitReapGrace + exitWriteGrace; MaxExitBound() < need {
			t.Errorf("%s: MaxExitBound %v < kill grace %v + reaping + write grace = %v", name, MaxExitBound(), p.KillGrace, need)
		}
	}
}

func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// A hooks/reload cancelled before it ran (it waited behind a hooks/setEnabled
// held up by another process's lock) still resumes the collector its load
// paused: what a request took is released on every end of it, not by the
// reply's after-work, which a cancelled reply skips.
func TestHooksReload_CancelledStillResumesTheCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(67))
	home, key := trustHome(t)
	lock := flock.New(filepath.Join(home, "config.toml.lock"))
	if err := lock.Lock(); err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	h := newRawHarness(t, Options{Version: "test"})
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true}}}`,
		time.Now().UnixNano(), t.TempDir(), home)
	h.reply(t, `"init"`)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/setEnabled","params":{"key":%q,"enabled":false}}`, key)
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/reload"}`)
	h.send(t, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	// Refused on the reader at once: by then the cancel has been read.
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/list"}`)
	if r := h.reply(t, "1"); r.Get("error.code").Int() != -32600 {
		t.Fatalf("duplicate id: %s", r.Raw)
	}
	lock.Unlock()
	if r := h.reply(t, "2"); r.Get("error.code").Int() != CodeRequestCancelled {
		t.Fatalf("hooks/reload: %s, want -32800", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","id":3,"method":"hooks/list"}`)
	h.reply(t, "3")
	if p := gcPercent(); p != 67 {
		t.Errorf("after a cancelled hooks/reload: GC percent %d, want 67", p)
	}
}

// A SessionEnd cancelled while its hook runs still ends the session's
// background work and removes its spill folder.
func TestSessionEnd_CancelledStillEndsTheSession(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test"})
	session := fmt.Sprintf("s-end-%d", time.Now().UnixNano())
	hooksObj := `{"SessionEnd": [{"hooks": [{"type": "command", "command": "sleep 1000", "timeout": 900, "statusMessage": "ending"}]}]}`
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":%q,"cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":%s}}}`,
		session, t.TempDir(), t.TempDir(), hooksObj)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
	if err := os.MkdirAll(spill.Dir(session), 0o700); err != nil {
		t.Fatal(err)
	}
	h.send(t, `{"jsonrpc":"2.0","id":4,"method":"hooks/run","params":{"event":"SessionEnd","input":{"reason":"other"}}}`)
	h.next(t, "hooks/status started", func(m gjson.Result) bool {
		return m.Get("method").Str == "hooks/status" && m.Get("params.state").Str == "started"
	})
	h.send(t, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4}}`)
	if r := h.reply(t, "4"); r.Get("error.code").Int() != CodeRequestCancelled {
		t.Fatalf("SessionEnd: %s, want -32800", r.Raw)
	}
	// The end-of-session work runs once the reply is written, on the
	// request's goroutine: nothing else says when it is done, so the folder
	// is watched, as TestServer_SpillFolderIsRemovedOnEveryEndOfTheSession
	// does.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, err := os.Stat(spill.Dir(session))
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("spill folder after a cancelled SessionEnd: %v, want it removed", err)
		}
	}
}

// A recording swapped for a FIFO after initialize is not waited on: the run
// is answered (the record is lost, and logged), and so is what follows.
func TestRecord_AFIFOSwappedInIsNotWaitedOn(t *testing.T) {
	logs := newLockedLog()
	h := newRawHarness(t, Options{Version: "test", Logger: slog.New(slog.NewTextHandler(logs, nil))})
	record := filepath.Join(t.TempDir(), "runs.jsonl")
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":"s-rec-%d","cwd":%q},"config":{"home":%q,"record":%q}}}`,
		time.Now().UnixNano(), t.TempDir(), t.TempDir(), record)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(record, 0o600); err != nil {
		t.Fatal(err)
	}
	// Held open for reading: a FIFO with a reader opens for writing at once,
	// and only the check after the open can refuse it.
	reader, err := os.OpenFile(record, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"Stop","input":{}}}`)
	if r := h.reply(t, "1"); r.Get("error").Exists() {
		t.Fatalf("hooks/run: %s", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/list"}`)
	h.reply(t, "2")
	if out := logs.String(); !strings.Contains(out, "cannot record hooks/run") || !strings.Contains(out, "named pipe") {
		t.Errorf("log:\n%s\nwant the record refused as a named pipe", out)
	}
	buf := make([]byte, 1)
	if n, _ := reader.Read(buf); n != 0 {
		t.Errorf("%d bytes written into the FIFO", n)
	}
}

// Without a reader, a FIFO opened for writing would wait for one for ever.
func TestRecord_AFIFOWithoutAReaderIsNotWaitedOn(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test"})
	record := filepath.Join(t.TempDir(), "runs.jsonl")
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":"s-rec2-%d","cwd":%q},"config":{"home":%q,"record":%q}}}`,
		time.Now().UnixNano(), t.TempDir(), t.TempDir(), record)
	h.reply(t, `"init"`)
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(record, 0o600); err != nil {
		t.Fatal(err)
	}
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"Stop","input":{}}}`)
	if r := h.reply(t, "1"); r.Get("error").Exists() {
		t.Fatalf("hooks/run: %s", r.Raw)
	}
}

// A host that closes hookd's stdout (EPIPE) ends the session: no reply can
// reach it any more, so hookd kills its hooks and exits instead of reading
// on and running hooks whose replies all fail.
func TestServer_StdoutClosedEndsTheSession(t *testing.T) {
	logs := newLockedLog()
	h := newRawHarness(t, Options{Version: "test", Logger: slog.New(slog.NewTextHandler(logs, nil))})
	h.initBlocking(t, "")
	h.runBlocking(t, "6")
	h.closeOutput()
	h.send(t, `{"jsonrpc":"2.0","id":7,"method":"hooks/list"}`)
	select {
	case code := <-h.code:
		if code != 1 {
			t.Errorf("exit code %d, want 1", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("hookd went on serving a host that closed its stdout")
	}
	if out := logs.String(); !strings.Contains(out, "stdout") || !strings.Contains(out, "id=6") {
		t.Errorf("log:\n%s\nwant the closed stdout and the lost reply to id 6", out)
	}
}

// wedged is released when the test that wedges a handler ends.
var wedged = make(chan struct{})

func init() {
	// test/wedge exists only in tests: a handler that ignores its
	// cancellation and never returns, as a bug could make one.
	methods["test/wedge"] = method{handle: func(context.Context, *Server, []byte) (any, error) {
		<-wedged
		return nil, nil
	}}
}

// exit waits for the requests in flight at most its bound: a handler that
// never returns does not keep hookd alive, and its lost reply is logged.
func TestExit_AWedgedHandlerDoesNotHoldTheExit(t *testing.T) {
	defer close(wedged)
	logs := newLockedLog()
	h := newRawHarness(t, Options{Version: "test", Logger: slog.New(slog.NewTextHandler(logs, nil))})
	h.initBlocking(t, "")
	h.send(t, `{"jsonrpc":"2.0","id":8,"method":"test/wedge"}`)
	h.send(t, `{"jsonrpc":"2.0","id":9,"method":"hooks/list"}`)
	h.reply(t, "9") // read after the wedge: it is in flight
	start := time.Now()
	h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
	select {
	case code := <-h.code:
		if code != 1 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("exit waited for a handler that never returns")
	}
	t.Logf("measured: exit with a wedged handler ended after %v", time.Since(start).Round(10*time.Millisecond))
	if out := logs.String(); !strings.Contains(out, "reply lost") || !strings.Contains(out, "ids=8") {
		t.Errorf("log:\n%s\nwant the request 8 named as lost", out)
	}
}
