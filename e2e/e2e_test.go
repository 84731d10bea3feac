package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// testHome writes a Codex home whose hooks.json holds hooksJSON (the value of
// its "hooks" key) and returns its path.
func testHome(t *testing.T, hooksJSON string) string {
	t.Helper()
	home := t.TempDir()
	doc := fmt.Sprintf(`{"hooks": %s}`, hooksJSON)
	if err := os.WriteFile(filepath.Join(home, "hooks.json"), []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

func hookdPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("hookd")
	if err != nil {
		t.Fatalf("hookd not on PATH (TestMain sets it up): %v", err)
	}
	return p
}

// startServe spawns "hookd serve" and initializes it with home and cwd.
func startServe(t *testing.T, home string, extra map[string]any) *client.Client {
	t.Helper()
	// A temp dir of its own: hookd's spill files stay inside the test.
	t.Setenv("TMPDIR", t.TempDir())
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	cwd := t.TempDir()
	cfg := map[string]any{"home": home, "bypassTrust": true}
	for k, v := range extra {
		cfg[k] = v
	}
	if _, err := c.Initialize(ctx, map[string]any{
		"processId": os.Getpid(),
		"session":   map[string]any{"id": "sess_test", "cwd": cwd, "model": "gpt-5"},
		"config":    cfg,
	}); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// startProfile spawns "hookd serve" and initializes a session of the named
// profile with its user folder at home and config's other fields; it returns
// initialize's result and error, for tests of refused sessions too.
func startProfile(t *testing.T, profile, sessionID, home string, config map[string]any) (*client.Client, json.RawMessage, error) {
	t.Helper()
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve", "--log-level", "warn")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	cfg := map[string]any{"home": home}
	for k, v := range config {
		cfg[k] = v
	}
	res, err := c.Initialize(ctx, map[string]any{
		"processId": os.Getpid(),
		"profile":   profile,
		"session":   map[string]any{"id": sessionID, "cwd": t.TempDir()},
		"config":    cfg,
	})
	return c, res, err
}

// testWriter sends hookd's stderr to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("hookd: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func rpcCode(err error) int64 {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return je.Code
	}
	return 0
}

func TestServe_PreToolUseDenyAndCleanShutdown(t *testing.T) {
	home := testHome(t, `{"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "grep -q 'rm -rf' && echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no recursive deletes\"}}' || true"}]}]}`)
	c := startServe(t, home, nil)
	ctx := context.Background()

	res, err := c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "c1", "tool_input": map[string]any{"command": "rm -rf /"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.GetBytes(res, "decision").Str; d != "deny" {
		t.Fatalf("decision = %q, want deny; result %s", d, res)
	}
	if r := gjson.GetBytes(res, "reason").Str; r != "no recursive deletes" {
		t.Errorf("reason = %q", r)
	}
	res, err = c.Run(ctx, "PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.GetBytes(res, "decision").Str; d != "none" {
		t.Errorf("harmless command: decision = %q, want none; %s", d, res)
	}
	code, err := c.Close(ctx)
	if err != nil || code != 0 {
		t.Fatalf("exit after shutdown = %d, %v; want 0", code, err)
	}
}

func TestServe_ExitWithoutShutdownExitsOne(t *testing.T) {
	c := startServe(t, t.TempDir(), nil)
	if err := c.Notify("exit", nil); err != nil {
		t.Fatal(err)
	}
	if code, _ := c.Wait(); code != 1 {
		t.Fatalf("exit code = %d, want 1", code)
	}
}

func TestServe_LifecycleErrors(t *testing.T) {
	ctx := context.Background()
	c, err := client.Start(ctx, hookdPath(t), testWriter{t}, "serve")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	if err := c.Call(ctx, "hooks/list", nil, nil); rpcCode(err) != -32002 {
		t.Errorf("before initialize: %v, want -32002", err)
	}
	if err := c.Call(ctx, "initialize", map[string]any{"session": map[string]any{"cwd": 42}}, nil); rpcCode(err) != -32602 || !strings.Contains(err.Error(), "cwd") {
		t.Errorf("bad initialize params: %v, want -32602 naming cwd", err)
	}
	if _, err := c.Initialize(ctx, map[string]any{"config": map[string]any{"home": t.TempDir()}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "initialize", nil, nil); rpcCode(err) != -32600 {
		t.Errorf("second initialize: %v, want -32600", err)
	}
	if err := c.Call(ctx, "no/such", nil, nil); rpcCode(err) != -32601 {
		t.Errorf("unknown method: %v, want -32601", err)
	}
	if err := c.Call(ctx, "hooks/run", map[string]any{"input": map[string]any{}}, nil); rpcCode(err) != -32602 || !strings.Contains(err.Error(), `"event"`) {
		t.Errorf("hooks/run without event: %v, want -32602 naming event", err)
	}
	if err := c.Call(ctx, "hooks/run", map[string]any{"event": "Nope"}, nil); rpcCode(err) != -32602 {
		t.Errorf("unknown event: %v, want -32602", err)
	}
	if err := c.Call(ctx, "hooks/run", map[string]any{"event": "Stop", "input": []int{1}}, nil); rpcCode(err) != -32602 || !strings.Contains(err.Error(), "input") {
		t.Errorf("array input: %v, want -32602 naming input", err)
	}
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(ctx, "hooks/list", nil, nil); rpcCode(err) != -32600 {
		t.Errorf("after shutdown: %v, want -32600", err)
	}
	_ = c.Notify("exit", nil)
	if code, _ := c.Wait(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

func TestServe_PipelinedRequestsAllAnswered(t *testing.T) {
	home := testHome(t, `{"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >/dev/null; echo ctx-$$"}]}]}`)
	c := startServe(t, home, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := c.Run(context.Background(), "UserPromptSubmit", map[string]any{"prompt": fmt.Sprint("p", i)})
			if err == nil && !strings.HasPrefix(gjson.GetBytes(res, "additionalContext.0.text").Str, "ctx-") {
				err = fmt.Errorf("request %d: no context in %s", i, res)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// vmHWM reads a process's peak resident set size in kB from /proc.
func vmHWM(t *testing.T, pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

func TestServe_HugeOutputKeepsMemoryBounded(t *testing.T) {
	home := testHome(t, `{"PostToolUse": [{"hooks": [{"type": "command", "command": "cat >/dev/null; head -c 200000000 /dev/zero | tr '\\0' a"}]}]}`)
	c := startServe(t, home, nil)
	res, err := c.Run(context.Background(), "PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "x"}, "tool_response": "ok"})
	if err != nil {
		t.Fatal(err)
	}
	kept := 200000000 - gjson.GetBytes(res, "hooks.0.stdoutDropped").Int()
	if kept <= 0 || kept > 64<<20 {
		t.Errorf("kept %d bytes of stdout; want a bounded head; %s", kept, res)
	}
	peak := vmHWM(t, c.Pid())
	t.Logf("hookd peak RSS while a hook printed 200 MB: %d kB", peak)
	if peak > 100*1024 {
		t.Errorf("hookd peak RSS %d kB, want well under the 200 MB the hook printed", peak)
	}
	// Nothing is lost: the spill file holds all 200 MB the hook printed.
	path := gjson.GetBytes(res, "hooks.0.stdoutSpilled").Str
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("stdout spill file: %v; %s", err, res)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	var total int64
	for {
		n, err := f.Read(buf)
		for _, b := range buf[:n] {
			if b != 'a' {
				t.Fatalf("byte %d of the spill file is %q, want 'a'", total, b)
			}
			total++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if total != 200000000 {
		t.Errorf("spill file holds %d bytes, want all 200000000", total)
	}
	if code, err := c.Close(context.Background()); code != 0 || err != nil {
		t.Fatalf("close: %d, %v", code, err)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the session's spill folder survived exit: %v", err)
	}
}

// rawHookd is hookd serve driven byte by byte, for framing tests.
type rawHookd struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startRaw(t *testing.T, args ...string) *rawHookd {
	t.Helper()
	return startRawBin(t, hookdPath(t), testWriter{t}, args...)
}

// startRawBin is startRaw of the binary bin, hookd's stderr going to stderr.
func startRawBin(t testing.TB, bin string, stderr io.Writer, args ...string) *rawHookd {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return &rawHookd{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
}

func lspFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// readLSP reads one LSP frame's body.
func (r *rawHookd) readLSP(t testing.TB) string {
	t.Helper()
	body, err := readLSPFrame(r.out)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// readLSPFrame reads one LSP frame's body from r.
func readLSPFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, errors.New("frame without Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// nextResponse reads frames, skipping notifications, until a response.
func (r *rawHookd) nextResponse(t testing.TB, read func(testing.TB) string) string {
	t.Helper()
	for {
		msg := read(t)
		if !gjson.Get(msg, "method").Exists() {
			return msg
		}
	}
}

func (r *rawHookd) readLine(t testing.TB) string {
	t.Helper()
	line, err := r.out.ReadString('\n')
	if err != nil {
		t.Fatalf("read line: %v", err)
	}
	return strings.TrimRight(line, "\n")
}

func initBody(id int, home string) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "initialize",
		"params": map[string]any{"config": map[string]any{"home": home, "bypassTrust": true}}})
	return string(b)
}

func TestServe_LSPMalformedFramesAreAnsweredAndReadingGoesOn(t *testing.T) {
	r := startRaw(t)
	home := testHome(t, `{}`)
	io.WriteString(r.stdin, lspFrame(initBody(1, home)))
	if got := r.nextResponse(t, r.readLSP); gjson.Get(got, "id").Int() != 1 || !gjson.Get(got, "result.serverInfo").Exists() {
		t.Fatalf("initialize: %s", got)
	}
	cases := []struct {
		name, frame string
		code        int64
	}{
		{"bad json", lspFrame(`{"jsonrpc":"2.0","id":2,"method":`), -32700},
		{"batch", lspFrame(`[{"jsonrpc":"2.0","id":3,"method":"hooks/list"}]`), -32600},
		{"not an object", lspFrame(`42`), -32600},
		{"params array", lspFrame(`{"jsonrpc":"2.0","id":4,"method":"hooks/list","params":[1]}`), -32602},
	}
	for _, tc := range cases {
		io.WriteString(r.stdin, tc.frame)
		got := r.nextResponse(t, r.readLSP)
		if c := gjson.Get(got, "error.code").Int(); c != tc.code {
			t.Errorf("%s: got %s, want code %d", tc.name, got, tc.code)
		}
	}
	// A lower-case header and a Content-Type header are fine.
	body := `{"jsonrpc":"2.0","id":"s-5","method":"hooks/list"}`
	io.WriteString(r.stdin, fmt.Sprintf("content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s", len(body), body))
	if got := r.nextResponse(t, r.readLSP); gjson.Get(got, "id").Str != "s-5" || !gjson.Get(got, "result.hooks").Exists() {
		t.Errorf("lower-case header: %s", got)
	}
	// A negative id comes back unchanged.
	io.WriteString(r.stdin, lspFrame(`{"jsonrpc":"2.0","id":-7,"method":"hooks/list"}`))
	if got := r.nextResponse(t, r.readLSP); gjson.Get(got, "id").Raw != "-7" {
		t.Errorf("negative id: %s", got)
	}
	// A garbage header is reported and hookd finds the next frame.
	io.WriteString(r.stdin, "Content-Length: banana\r\n\r\n"+lspFrame(`{"jsonrpc":"2.0","id":8,"method":"hooks/list"}`))
	var sawLog bool
	for {
		msg := r.readLSP(t)
		if gjson.Get(msg, "method").Str == "window/logMessage" && gjson.Get(msg, "params.type").Int() == 1 {
			sawLog = true
			continue
		}
		if gjson.Get(msg, "id").Int() == 8 {
			break
		}
	}
	if !sawLog {
		t.Error("no window/logMessage error for a garbage header")
	}
	// An announced length above --max-message-bytes is skipped, never read.
	huge := strings.Repeat("x", 100)
	io.WriteString(r.stdin, "Content-Length: 99999999999\r\n\r\n"+huge)
	r.stdin.Close()
	if err := r.cmd.Wait(); err == nil || r.cmd.ProcessState.ExitCode() != 1 {
		t.Errorf("EOF without shutdown: exit %v, want code 1", err)
	}
}

func TestServe_NDJSONFramingRoundTrip(t *testing.T) {
	r := startRaw(t)
	home := testHome(t, `{"PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"decision\":\"block\",\"reason\":\"nope\"}'"}]}]}`)
	io.WriteString(r.stdin, initBody(1, home)+"\n")
	if got := r.nextResponse(t, r.readLine); gjson.Get(got, "id").Int() != 1 {
		t.Fatalf("initialize: %s", got)
	}
	io.WriteString(r.stdin, "{oops\n")
	if got := r.nextResponse(t, r.readLine); gjson.Get(got, "error.code").Int() != -32700 {
		t.Errorf("bad json line: %s", got)
	}
	io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":{"command":"x"}}}}`+"\n")
	got := r.nextResponse(t, r.readLine)
	if gjson.Get(got, "result.decision").Str != "deny" || gjson.Get(got, "result.reason").Str != "nope" {
		t.Errorf("hooks/run over NDJSON: %s", got)
	}
	io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":3,"method":"shutdown"}`+"\n")
	r.nextResponse(t, r.readLine)
	io.WriteString(r.stdin, `{"jsonrpc":"2.0","method":"exit"}`+"\n")
	if err := r.cmd.Wait(); err != nil {
		t.Errorf("exit after shutdown: %v, want code 0", err)
	}
}

func TestServe_RepliesInFlightAtEOFAreWritten(t *testing.T) {
	// The host pipes its requests and closes stdin at once; the hook is still
	// running when hookd sees EOF.
	home := testHome(t, `{"Stop": [{"hooks": [{"type": "command", "command": "cat >/dev/null; sleep 0.5; echo '{\"decision\":\"block\",\"reason\":\"keep going\"}'"}]}]}`)
	cmd := exec.Command(hookdPath(t), "serve")
	cmd.Stdin = strings.NewReader(initBody(1, home) + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"Stop","input":{}}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}` + "\n")
	cmd.Stderr = testWriter{t}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hookd: %v", err)
	}
	replies := map[int64]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		id := gjson.Get(line, "id")
		if !id.Exists() {
			continue // a notification
		}
		replies[id.Int()]++
		if id.Int() == 2 && gjson.Get(line, "result.continuation").Str != "keep going" {
			t.Errorf("run reply: %s", line)
		}
	}
	// Exactly one reply per request, including the one in flight at EOF.
	for _, id := range []int64{1, 2, 3} {
		if replies[id] != 1 {
			t.Errorf("request %d got %d replies, want exactly 1; output:\n%s", id, replies[id], out)
		}
	}
}

func TestServe_HooksReadTheHostsInputBytesUnchanged(t *testing.T) {
	// The JSON-RPC library re-encodes params (sorted keys, \u0026 for &); a
	// hook that greps its stdin for "&&" must see what the host sent.
	dir := t.TempDir()
	out := filepath.Join(dir, "stdin.json")
	home := testHome(t, fmt.Sprintf(`{"PreToolUse": [{"hooks": [{"type": "command", "command": "cat > %s"}]}]}`, out))
	r := startRaw(t)
	io.WriteString(r.stdin, initBody(1, home)+"\n")
	r.nextResponse(t, r.readLine)
	toolInput := `{"zeta":1,"command":"make && rm -rf <dir>","alpha":{"y":2,"x":1}}`
	io.WriteString(r.stdin, `{"jsonrpc":"2.0","id":2,"method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_name":"Bash","tool_input":`+toolInput+`}}}`+"\n")
	if got := r.nextResponse(t, r.readLine); gjson.Get(got, "error").Exists() {
		t.Fatalf("hooks/run: %s", got)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"tool_input":`+toolInput) {
		t.Errorf("hook stdin:\n%s\nwant it to contain the host's bytes %s", b, toolInput)
	}
}
