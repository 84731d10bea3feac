package rpc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// rawHarness is an in-process server spoken to in raw NDJSON lines, for the
// messages a library client cannot send (id null, duplicate ids).
type rawHarness struct {
	in   *io.PipeWriter
	msgs chan gjson.Result
	code chan int
	done chan struct{} // closed when Serve has returned
	// stop, once closed, makes the harness read no more of hookd's
	// output: a host that stopped reading stdout.
	stop chan struct{}
	out  *io.PipeReader
}

// closeOutput makes the harness a host that closed hookd's stdout: every
// write fails, as with EPIPE.
func (h *rawHarness) closeOutput() { h.out.CloseWithError(syscall.EPIPE) }

// stopReading makes the harness a host that reads nothing more.
func (h *rawHarness) stopReading() { close(h.stop) }

func newRawHarness(t *testing.T, opts Options) *rawHarness {
	t.Helper()
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("TMPDIR", t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &rawHarness{in: inW, msgs: make(chan gjson.Result, 1000), code: make(chan int, 1), done: make(chan struct{}), stop: make(chan struct{}), out: outR}
	opts.Framing = FramingJSONL
	go func() {
		h.code <- Serve(inR, outW, nil, opts)
		close(h.done)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			select {
			case <-h.stop:
				return
			default:
			}
			h.msgs <- gjson.Parse(sc.Text())
		}
		close(h.msgs)
	}()
	t.Cleanup(func() {
		inW.Close()
		<-h.done
	})
	return h
}

func (h *rawHarness) send(t *testing.T, format string, args ...any) {
	t.Helper()
	if _, err := fmt.Fprintf(h.in, format+"\n", args...); err != nil {
		t.Fatalf("send: %v", err)
	}
}

// next waits for the first message that ok accepts.
func (h *rawHarness) next(t *testing.T, what string, ok func(m gjson.Result) bool) gjson.Result {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case m, open := <-h.msgs:
			if !open {
				t.Fatalf("output ended before %s", what)
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			t.Fatalf("no %s", what)
		}
	}
}

func (h *rawHarness) reply(t *testing.T, id string) gjson.Result {
	t.Helper()
	return h.next(t, "reply to id "+id, func(m gjson.Result) bool {
		return m.Get("id").Raw == id && !m.Get("method").Exists()
	})
}

// blockingHook is a PreToolUse hook that runs until it is killed; its
// statusMessage makes hookd say when it has started.
const blockingHook = `{"PreToolUse": [{"hooks": [{"type": "command", "command": "sleep 1000", "timeout": 900, "statusMessage": "blocking"}]}]}`

func (h *rawHarness) initBlocking(t *testing.T, extra string) {
	t.Helper()
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{%s"session":{"id":"s-%d","cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":%s}}}`,
		extra, time.Now().UnixNano(), t.TempDir(), t.TempDir(), blockingHook)
	if r := h.reply(t, `"init"`); r.Get("error").Exists() {
		t.Fatalf("initialize: %s", r.Raw)
	}
}

// runBlocking sends a hooks/run whose hook blocks, and waits until it runs.
func (h *rawHarness) runBlocking(t *testing.T, id string) {
	t.Helper()
	h.send(t, `{"jsonrpc":"2.0","id":%s,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"}}}}`, id)
	h.next(t, "hooks/status started", func(m gjson.Result) bool {
		return m.Get("method").Str == "hooks/status" && m.Get("params.state").Str == "started"
	})
}

func TestServer_RequestInFlightIsAnsweredOnEveryEndPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(t *testing.T, h *rawHarness, stop context.CancelFunc, host *exec.Cmd)
	}{
		{"exit notification", func(t *testing.T, h *rawHarness, _ context.CancelFunc, _ *exec.Cmd) {
			h.send(t, `{"jsonrpc":"2.0","method":"exit"}`)
		}},
		{"SIGTERM (Options.Stop)", func(t *testing.T, _ *rawHarness, stop context.CancelFunc, _ *exec.Cmd) {
			stop()
		}},
		{"host death", func(t *testing.T, _ *rawHarness, _ context.CancelFunc, host *exec.Cmd) {
			_ = host.Process.Kill()
			_ = host.Wait()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := exec.Command("sleep", "600")
			if err := host.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
			stopCtx, stop := context.WithCancel(context.Background())
			defer stop()
			h := newRawHarness(t, Options{Version: "test", Stop: stopCtx})
			h.initBlocking(t, fmt.Sprintf(`"processId":%d,`, host.Process.Pid))
			h.runBlocking(t, "7")
			tc.end(t, h, stop, host)
			r := h.reply(t, "7")
			if r.Get("error.code").Int() != CodeRequestCancelled {
				t.Fatalf("reply to the request in flight: %s, want error -32800", r.Raw)
			}
			if code := <-h.code; code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
		})
	}
}

func TestServer_NullIDIsRefusedNotDropped(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test"})
	h.initBlocking(t, "")
	h.send(t, `{"jsonrpc":"2.0","id":null,"method":"hooks/list"}`)
	r := h.next(t, "reply to id null", func(m gjson.Result) bool { return m.Get("id").Type == gjson.Null })
	if r.Get("error.code").Int() != -32600 || !strings.Contains(r.Get("error.message").Str, "id is null") {
		t.Fatalf("reply to id null: %s", r.Raw)
	}
}

func TestServer_DuplicateIDInFlightIsRefusedAndTheFirstStaysCancellable(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test"})
	h.initBlocking(t, "")
	h.runBlocking(t, "5")
	h.send(t, `{"jsonrpc":"2.0","id":5,"method":"hooks/list"}`)
	r := h.reply(t, "5")
	if r.Get("error.code").Int() != -32600 || !strings.Contains(r.Get("error.message").Str, "id 5 is still in flight") {
		t.Fatalf("duplicate id: %s, want -32600 naming the id", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":5}}`)
	r = h.reply(t, "5")
	if r.Get("error.code").Int() != CodeRequestCancelled {
		t.Fatalf("cancelling the first request: %s, want -32800", r.Raw)
	}
	// The id is free again once answered.
	h.send(t, `{"jsonrpc":"2.0","id":5,"method":"hooks/list"}`)
	if r := h.reply(t, "5"); r.Get("error").Exists() {
		t.Fatalf("id reused after its reply: %s", r.Raw)
	}
}

func TestServer_BytesInFlightAreCapped(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test", MaxInFlightBytes: 4000})
	h.initBlocking(t, "")
	pad := strings.Repeat("x", 3000)
	h.send(t, `{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"},"pad":%q}}}`, pad)
	h.next(t, "hooks/status started", func(m gjson.Result) bool { return m.Get("method").Str == "hooks/status" })
	h.send(t, `{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"},"pad":%q}}}`, pad)
	r := h.reply(t, "2")
	if r.Get("error.code").Int() != CodeServerBusy || !strings.Contains(r.Get("error.message").Str, "4000 byte cap") {
		t.Fatalf("request past the in-flight cap: %s, want -32001 naming the cap", r.Raw)
	}
	// Small requests still fit beside the first.
	h.send(t, `{"jsonrpc":"2.0","id":3,"method":"hooks/list"}`)
	if r := h.reply(t, "3"); r.Get("error").Exists() {
		t.Fatalf("small request beside a held one: %s", r.Raw)
	}
	h.send(t, `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`)
	h.reply(t, "1")
}

func TestServer_LargeRequestIsNotCopiedOverAndOver(t *testing.T) {
	h := newRawHarness(t, Options{Version: "test"})
	h.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"session":{"id":"s-big","cwd":%q},"config":{"home":%q,"bypassTrust":true,"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"cat > /dev/null"}]}]}}}}`, t.TempDir(), t.TempDir())
	h.reply(t, `"init"`)
	const size = 16 << 20
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"ls"},"pad":"` +
		strings.Repeat("x", size) + `"}}}` + "\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := h.in.Write(req); err != nil {
		t.Fatal(err)
	}
	if r := h.reply(t, "1"); r.Get("error").Exists() {
		t.Fatalf("hooks/run: %s", r.Raw)
	}
	runtime.ReadMemStats(&after)
	// Reading the line (blocks, then one joined copy) and the hook's
	// stdin: three times the request, and change. Each copy more (a
	// decoder's, a re-encoding's) adds one size; 72cc725 allocated 20 times.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*size {
		t.Errorf("a %d MiB request allocated %d MiB, want at most %d MiB", size>>20, alloc>>20, 4*size>>20)
	}
}
