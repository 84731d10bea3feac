package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/client"
)

// echoEnv makes this test binary, when spawned with it set, a bare
// jsonrpc2 server on its stdin and stdout instead of running the tests:
// the baseline of BenchmarkHooksRun_NoMatchRoundTrip.
const echoEnv = "HOOKD_E2E_ECHO_SERVER"

// runEchoServer is that server, as a plain Go program would write it: the
// library's buffered stream and LSP codec over os.Stdin and os.Stdout, every
// request answered with its params (initialize too), until stdin closes.
func runEchoServer() int {
	conn := jsonrpc2.NewConn(context.Background(),
		jsonrpc2.NewBufferedStream(stdioRW{}, jsonrpc2.VSCodeObjectCodec{}), echoHandler{})
	<-conn.DisconnectNotify()
	return 0
}

type stdioRW struct{}

func (stdioRW) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdioRW) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdioRW) Close() error                { return os.Stdin.Close() }

type echoHandler struct{}

func (echoHandler) Handle(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	if r.Notif {
		return
	}
	var params any = struct{}{}
	if r.Params != nil {
		params = r.Params
	}
	_ = c.Reply(ctx, r.ID, params)
}

// BenchmarkEcho_NoMatchRoundTrip is the bare echo process, driven by the
// same client with the same hooks/run as BenchmarkHooksRun_NoMatchRoundTrip,
// one at a time: the floor of a request and a reply over pipes between two
// Go processes on this machine.
func BenchmarkEcho_NoMatchRoundTrip(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Setenv(echoEnv, "1")
	c, err := client.Start(context.Background(), exe, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Kill)
	ctx := context.Background()
	input := map[string]any{"tool_name": "Read", "tool_input": map[string]any{"path": "x"}}
	cpu0, own0 := procCPU(c.Pid()), procCPU(os.Getpid())
	for b.Loop() {
		res, err := c.Run(ctx, "PreToolUse", input)
		if err != nil {
			b.Fatal(err)
		}
		if gjson.GetBytes(res, "event").Str != "PreToolUse" {
			b.Fatalf("echo: %s", res)
		}
	}
	reportHookdCPU(b, c.Pid(), cpu0)
	reportClientCPU(b, own0)
}

// copyEnv makes this test binary a process that writes back every byte it
// reads, unframed: the baseline of BenchmarkPipe_RoundTrip.
const copyEnv = "HOOKD_E2E_COPY_SERVER"

// runCopyServer copies stdin to stdout as it arrives, until stdin closes.
func runCopyServer() int {
	buf := make([]byte, 64<<10)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			if _, werr := os.Stdout.Write(buf[:n]); werr != nil {
				return 1
			}
		}
		if err != nil {
			return 0
		}
	}
}

// BenchmarkPipe_RoundTrip is the floor under both round-trip rows: the
// bytes of the same hooks/run request (as the client frames it) written to
// a Go process that writes them back, and read again, one at a time, over
// OS pipes, with no JSON-RPC on either side. What it costs is two processes
// waking each other up twice.
func BenchmarkPipe_RoundTrip(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), copyEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	body := `{"id":1,"jsonrpc":"2.0","method":"hooks/run","params":{"event":"PreToolUse","input":{"tool_input":{"path":"x"},"tool_name":"Read"}}}`
	msg := []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
	got := make([]byte, len(msg))
	cpu0, own0 := procCPU(cmd.Process.Pid), procCPU(os.Getpid())
	for b.Loop() {
		if _, err := in.Write(msg); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(out, got); err != nil {
			b.Fatal(err)
		}
	}
	if !bytes.Equal(got, msg) {
		b.Fatalf("echoed %q", got)
	}
	reportHookdCPU(b, cmd.Process.Pid, cpu0)
	reportClientCPU(b, own0)
}
