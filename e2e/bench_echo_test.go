package e2e

import (
	"context"
	"os"
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
	cpu0 := procCPU(c.Pid())
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
}
