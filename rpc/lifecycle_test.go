//go:build unix

package rpc

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
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
