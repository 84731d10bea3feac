// Package client spawns hookd and drives it over JSON-RPC, for Go hosts and for
// hookd's own end-to-end tests. It speaks LSP framing through the same library
// hookd uses, and exposes notifications from hookd on a channel.
package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/internal/rawio"
)

// Notification is a message hookd sent without an id (window/logMessage, ...).
type Notification struct {
	Method string
	Params json.RawMessage
}

// Client is one running hookd process.
type Client struct {
	cmd  *exec.Cmd
	conn *jsonrpc2.Conn

	// Notifications receives hookd's notifications in arrival order. It is
	// buffered; when a slow reader lets it fill, further notifications are
	// dropped rather than blocking the connection.
	Notifications chan Notification

	// CallTool answers hookd's mcp/callTool requests. Nil answers with an error.
	// Set it before Initialize (HandleCallTool adapts a typed function).
	CallTool func(ctx context.Context, params json.RawMessage) (any, error)

	// Evaluate answers hookd's model/evaluate requests (claude prompt and
	// agent hooks) with {ok, reason}. hookd sends them only when initialize
	// says capabilities: {evaluate: true}. Set it before Initialize.
	Evaluate func(ctx context.Context, params json.RawMessage) (any, error)

	seq      atomic.Uint64
	waitOnce sync.Once
	waitErr  error
	exitCode int
}

// Start spawns the hookd binary at path with args (for example "serve") and
// connects to its stdin and stdout. hookd's stderr goes to stderr (nil: discarded).
func Start(ctx context.Context, path string, stderr io.Writer, args ...string) (*Client, error) {
	cmd := exec.Command(path, args...)
	if stderr == nil {
		stderr = io.Discard
	}
	cmd.Stderr = stderr
	// The pipes are made here rather than by StdinPipe and StdoutPipe so
	// that this side keeps the *os.File ends, which the poller waits on and
	// rawio reads and writes without waking the runtime's monitor thread
	// per message (docs/performance.md).
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	err = cmd.Start()
	// The child has its own copies of these ends now (or never will).
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("start hookd: %w", err)
	}
	var stdin io.WriteCloser = inW
	var stdout io.ReadCloser = outR
	if f := rawio.Of(inW); f != nil {
		stdin = f
	}
	if f := rawio.Of(outR); f != nil {
		stdout = f
	}
	c := &Client{cmd: cmd, Notifications: make(chan Notification, 1024)}
	stream := jsonrpc2.NewBufferedStream(pipe{stdout, stdin}, lspCodec{})
	c.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.AsyncHandler(handler{c}))
	return c, nil
}

// Pid returns hookd's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// Call sends a request and decodes its result into result (may be nil).
// Cancelling ctx sends $/cancelRequest and still waits for hookd's answer, as
// LSP clients do; the answer is then a -32800 error.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	// Ids are ours (not the library's) so a cancel can name the request.
	id := jsonrpc2.ID{Num: c.seq.Add(1)}
	w, err := c.conn.DispatchCall(context.Background(), method, params, jsonrpc2.PickID(id))
	if err != nil {
		return err
	}
	// Waited for here, with no goroutine per call: a cancelled ctx only
	// sends the cancel, and the answer is still awaited.
	stop := context.AfterFunc(ctx, func() {
		_ = c.conn.Notify(context.Background(), "$/cancelRequest", map[string]any{"id": id})
	})
	err = w.Wait(context.Background(), result)
	stop()
	return err
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	return c.conn.Notify(context.Background(), method, params)
}

// Initialize sends initialize and returns its result.
func (c *Client) Initialize(ctx context.Context, params any) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.Call(ctx, "initialize", params, &res)
	if err == nil {
		err = c.Notify("initialized", map[string]any{})
	}
	return res, err
}

// Run sends hooks/run for event with input and returns the raw result.
func (c *Client) Run(ctx context.Context, event string, input any) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.Call(ctx, "hooks/run", runParams{event, input}, &res)
	return res, err
}

// runParams are hooks/run's params (a struct encodes faster than a map).
type runParams struct {
	Event string `json:"event"`
	Input any    `json:"input"`
}

// Close shuts hookd down (shutdown, then exit) and waits for it to exit. It
// returns hookd's exit code.
func (c *Client) Close(ctx context.Context) (int, error) {
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		c.Kill()
		return -1, fmt.Errorf("shutdown: %w", err)
	}
	_ = c.Notify("exit", nil)
	return c.Wait()
}

// Wait waits for hookd to exit and returns its exit code.
func (c *Client) Wait() (int, error) {
	c.waitOnce.Do(func() {
		err := c.cmd.Wait()
		var ee *exec.ExitError
		switch {
		case err == nil:
			c.exitCode = 0
		case errors.As(err, &ee):
			c.exitCode = ee.ExitCode()
		default:
			c.exitCode, c.waitErr = -1, err
		}
		c.conn.Close()
	})
	return c.exitCode, c.waitErr
}

// Kill ends hookd at once.
func (c *Client) Kill() {
	_ = c.cmd.Process.Signal(os.Kill)
	_, _ = c.Wait()
}

type handler struct{ c *Client }

func (h handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	if req.Notif {
		select {
		case h.c.Notifications <- Notification{Method: req.Method, Params: params}:
		default:
		}
		return
	}
	answer := map[string]func(context.Context, json.RawMessage) (any, error){
		"mcp/callTool": h.c.CallTool, "model/evaluate": h.c.Evaluate}[req.Method]
	if answer != nil {
		res, err := answer(ctx, params)
		if err != nil {
			var je *jsonrpc2.Error
			if !errors.As(err, &je) {
				je = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: err.Error()}
			}
			_ = conn.ReplyWithError(ctx, req.ID, je)
			return
		}
		_ = conn.Reply(ctx, req.ID, res)
		return
	}
	_ = conn.ReplyWithError(ctx, req.ID, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "client does not handle " + req.Method})
}

// pipe joins hookd's stdout (read) and stdin (write).
type pipe struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipe) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipe) Close() error {
	err := p.w.Close()
	if rerr := p.r.Close(); err == nil {
		err = rerr
	}
	return err
}

// Conn returns the underlying connection, for callers that pipeline requests
// themselves (DispatchCall).
func (c *Client) Conn() *jsonrpc2.Conn { return c.conn }
