//go:build unix

package rpc

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// loginShellFixture is a $SHELL for the mind profile (hooks in $SHELL -lc)
// whose resolution of the login environment the test holds: a login run
// (-lc) made while the file hold exists opens the FIFO release (read and
// write, so that it is release's reader from then on and say never finds
// it missing while the shell waits), says so on the FIFO resolving, then
// waits for a line on release. Each resolution exports its number
// (HOOKD_TEST_GEN: 1, then 2 for the held one).
type loginShellFixture struct {
	dir, shell, resolving, release, gate string
}

func newLoginShell(t *testing.T) *loginShellFixture {
	t.Helper()
	dir := t.TempDir()
	f := &loginShellFixture{dir: dir, shell: filepath.Join(dir, "sh"), resolving: filepath.Join(dir, "resolving"),
		release: filepath.Join(dir, "release"), gate: filepath.Join(dir, "gate")}
	for _, fifo := range []string{f.resolving, f.release, f.gate} {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	q := hooks.ShellQuote
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = "-lc" ]; then
	export HOOKD_TEST_GEN=1
	if [ -e %[1]s ]; then
		rm -f %[1]s
		export HOOKD_TEST_GEN=2
		exec 3<> %[3]s
		echo resolving > %[2]s
		read _ <&3
		exec 3<&-
	fi
fi
exec /bin/sh "$@"
`, q(filepath.Join(dir, "hold")), q(f.resolving), q(f.release))
	if err := os.WriteFile(f.shell, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".profile"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SHELL", f.shell)
	t.Setenv("HOME", home)
	t.Setenv("ENV", "")
	return f
}

// hold makes the next resolution wait for the test.
func (f *loginShellFixture) hold(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, "hold"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// awaitFIFOLine reads one line from fifo, or fails the test after a minute.
func awaitFIFOLine(t *testing.T, fifo, what string) {
	t.Helper()
	got := make(chan error, 1)
	go func() {
		f, err := os.Open(fifo)
		if err == nil {
			_, err = bufio.NewReader(f).ReadString('\n')
			f.Close()
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("no word that %s", what)
	}
}

// say writes a line to a FIFO that must have its reader already: it never
// waits for one.
func say(fifo string) error {
	f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString("go\n")
	return err
}

func (f *loginShellFixture) seen(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(f.dir, "seen"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Fields(string(b))
}

// Under the mind profile with the login-environment cache, a hook waits for
// a resolution still running without a running slot, and a hook that has
// its environment runs, up to the cap, however long a newer resolution (a
// reload's) takes: with one slot, a Stop hook queued behind a running hook
// before the reload runs and is answered while the reload's resolution is
// still held, and a Stop hook sent after the reload waits for that
// resolution, then runs with its environment.
func TestLoginEnvCache_AWaitForTheLoginEnvironmentHoldsNoRunningSlot(t *testing.T) {
	// Set back after the session has ended (cleanups run last first), when
	// no resolution reads it any more.
	t.Cleanup(func(d time.Duration) func() { return func() { hooks.LoginEnvTimeout = d } }(hooks.LoginEnvTimeout))
	hooks.LoginEnvTimeout = 10 * time.Minute // the test releases the resolution itself
	h := newRawHarness(t, Options{Version: "test", MaxRunningHooks: 1})
	f := newLoginShell(t)
	t.Cleanup(func() { _ = say(f.release) }) // before the session ends
	seen := hooks.ShellQuote(filepath.Join(f.dir, "seen"))
	hooksObj := fmt.Sprintf(`{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": %q, "timeout": 600, "statusMessage": "gate"}]}], `+
		`"Stop": [{"hooks": [{"type": "command", "command": %q, "timeout": 600, "statusMessage": "stop"}]}]}`,
		"read _ < "+hooks.ShellQuote(f.gate), `echo "$HOOKD_TEST_GEN" >> `+seen)
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"profile":"mind","session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"loginEnvCache":true,"hooks":%s}}}`,
		time.Now().UnixNano(), t.TempDir(), t.TempDir(), hooksObj)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
	stop := func(id string) {
		h.send(t, `{"jsonrpc":"2.0","id":%q,"method":"hooks/run","params":{"event":"Stop","input":{}}}`, id)
	}
	status := func(what, state string) {
		h.next(t, what, func(m gjson.Result) bool {
			return m.Get("method").Str == "hooks/status" && m.Get("params.state").Str == state
		})
	}
	// The first resolution, then the one slot taken by the gate hook and a
	// Stop hook queued for it, its login environment in hand.
	stop("first")
	if r := h.reply(t, `"first"`); r.Get("error").Exists() {
		t.Fatalf("first Stop: %s", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","id":"gate","method":"hooks/run","params":{"event":"UserPromptSubmit","input":{"prompt":"x"}}}`)
	status("the gate hook started", hooks.StateStarted)
	stop("queued")
	status("the Stop hook queued for the slot", hooks.StateQueued)
	// A reload whose resolution the test holds, and a Stop hook that waits
	// for it.
	f.hold(t)
	h.send(t, `{"jsonrpc":"2.0","id":"reload","method":"hooks/reload"}`)
	awaitFIFOLine(t, f.resolving, "the reload's resolution began")
	if r := h.reply(t, `"reload"`); r.Get("error").Exists() {
		t.Fatalf("hooks/reload: %s", r.Raw)
	}
	stop("waits")
	// The slot comes free: the queued hook runs with the environment it
	// had while the newer resolution is still held.
	opened := make(chan error, 1)
	go func() {
		g, err := os.OpenFile(f.gate, os.O_WRONLY, 0) // once the hook reads it
		if err == nil {
			_, err = g.WriteString("go\n")
			g.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err != nil {
			t.Fatalf("releasing the gate hook: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the gate hook never read its FIFO")
	}
	got := h.replies(t, `"gate"`, `"queued"`)
	for id, r := range got {
		if r.Get("error").Exists() || r.Get("result.hooks.0.status").Str != string(hooks.StatusSucceeded) {
			t.Fatalf("%s: %s", id, r.Raw)
		}
	}
	// Still held: its login shell is still there to read the release.
	if err := say(f.release); err != nil {
		t.Fatalf("the reload's resolution had ended before the queued hook was answered (%v): the hook waited for it in its slot", err)
	}
	if r := h.reply(t, `"waits"`); r.Get("error").Exists() || r.Get("result.hooks.0.status").Str != string(hooks.StatusSucceeded) {
		t.Fatalf("the Stop hook that waited for the reload's resolution: %s", r.Raw)
	}
	if s := f.seen(t); !slices.Equal(s, []string{"1", "1", "2"}) {
		t.Errorf("the Stop hooks saw resolutions %q, want 1 (first), 1 (queued before the reload), 2 (after it)", s)
	}
}

// An async hook waits for the login environment the same way: within its
// own timeout (and before it takes an async slot). One whose timeout passes
// while the resolution is held is reported timed out, the resolution still
// running.
func TestLoginEnvCache_AnAsyncHookWaitsWithinItsTimeout(t *testing.T) {
	// Set back after the session has ended (cleanups run last first), when
	// no resolution reads it any more.
	t.Cleanup(func(d time.Duration) func() { return func() { hooks.LoginEnvTimeout = d } }(hooks.LoginEnvTimeout))
	hooks.LoginEnvTimeout = 10 * time.Minute // the test releases the resolution itself
	h := newRawHarness(t, Options{Version: "test"})
	f := newLoginShell(t)
	t.Cleanup(func() { _ = say(f.release) }) // before the session ends
	f.hold(t)
	hooksObj := `{"PostToolUse": [{"hooks": [{"type": "command", "command": "true", "async": true, "timeout": 1}]}]}`
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"profile":"mind","session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"loginEnvCache":true,"hooks":%s}}}`,
		time.Now().UnixNano(), t.TempDir(), t.TempDir(), hooksObj)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
	awaitFIFOLine(t, f.resolving, "the resolution began")
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"PostToolUse","input":{"tool_name":"shell","tool_input":{"command":"ls"},"tool_response":{}}}}`)
	if r := h.reply(t, "1"); r.Get("result.hooks.0.status").Str != "started" {
		t.Fatalf("async run: %s, want the hook started in the background", r.Raw)
	}
	n := h.next(t, "hooks/asyncCompleted", func(m gjson.Result) bool { return m.Get("method").Str == "hooks/asyncCompleted" })
	if n.Get("params.status").Str != string(hooks.StatusTimedOut) {
		t.Errorf("async hook waiting for a held login environment: %s, want timedOut after its 1 s", n.Raw)
	}
	if err := say(f.release); err != nil {
		t.Fatalf("the resolution had ended before the async hook was reported (%v)", err)
	}
}
