package client

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// The client against a stand-in hookd: this test binary, started with
// HOOKD_CLIENT_FAKE=1, answers every method with what it received, and on
// hooks/run calls the host's mcp/callTool between two hooks/status
// notifications. The real binary is driven by the e2e tests of package main;
// the stand-in covers what this build's hookd does not send yet, and checks
// the exact params each typed method puts on the wire.
func TestMain(m *testing.M) {
	if os.Getenv("HOOKD_CLIENT_FAKE") == "1" {
		fakeHookd()
		return
	}
	os.Exit(m.Run())
}

func fakeHookd() {
	done := make(chan struct{})
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		var params json.RawMessage
		if req.Params != nil {
			params = *req.Params
		}
		switch req.Method {
		case "exit":
			close(done)
			return nil, nil
		case "initialize":
			return json.RawMessage(`{"serverInfo":{"name":"fake","version":"0"},"protocolVersion":1,"profile":"codex",
				"session":{"id":"s1","spillDir":"/tmp/s1"},"capabilities":{"events":["Stop"],"handlerTypes":["command"]},
				"hooks":{"installed":2,"runnable":1,"warnings":0}}`), nil
		case "hooks/run":
			status := map[string]any{"runId": "r1", "hook": "k", "statusMessage": "Asking", "state": "started"}
			_ = conn.Notify(ctx, "hooks/status", status)
			var answer json.RawMessage
			err := conn.Call(ctx, "mcp/callTool", map[string]any{"server": "policy", "tool": "check", "arguments": json.RawMessage(params), "timeoutMs": 5000}, &answer)
			status["state"] = "finished"
			_ = conn.Notify(ctx, "hooks/status", status)
			reason := string(answer)
			if err != nil {
				reason = err.Error()
			}
			return map[string]any{"event": "Stop", "decision": "block", "continuation": reason, "continue": true,
				"hooks": []any{}, "skipped": []any{}}, nil
		case "hooks/trust":
			var p struct{ Keys []string }
			_ = json.Unmarshal(params, &p)
			var out []map[string]string
			for _, k := range p.Keys {
				out = append(out, map[string]string{"key": k, "hash": "sha256:" + k})
			}
			return map[string]any{"trusted": out}, nil
		case "hooks/list":
			var p struct{ Event *string }
			_ = json.Unmarshal(params, &p)
			key := "no event"
			if p.Event != nil {
				key = *p.Event
			}
			return map[string]any{"hooks": []any{map[string]any{"key": key}}, "warnings": []any{}}, nil
		case "hooks/takePending":
			return json.RawMessage(`{"results":[{"hook":"k","event":"PostToolUse","additionalContext":[{"hook":"k","text":"lint ok"}],"status":"succeeded","error":null}]}`), nil
		case "shutdown":
			return nil, nil
		default:
			// Echo: the test compares what the client sent.
			return params, nil
		}
	})
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), jsonrpc2.AsyncHandler(h))
	select {
	case <-done:
		os.Exit(0)
	case <-conn.DisconnectNotify():
		os.Exit(1)
	}
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

func startFake(t *testing.T) *Client {
	t.Helper()
	t.Setenv("HOOKD_CLIENT_FAKE", "1")
	c, err := Start(context.Background(), os.Args[0], os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Kill)
	return c
}

func ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestTypedMethods_SendTheProtocolsParams(t *testing.T) {
	c := startFake(t)
	res, err := c.InitializeSession(ctx(t), InitializeParams{Session: &SessionParams{ID: "s1"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "fake" || res.Session.SpillDir != "/tmp/s1" || res.Hooks.Installed != 2 || res.Capabilities.Events[0] != "Stop" {
		t.Errorf("initialize result decoded as %+v", res)
	}

	// The stand-in echoes params, so each result shows what went on the wire.
	var echo map[string]any
	if err := c.Call(ctx(t), "echo", InitializeParams{ProcessID: 7, Config: &ConfigParams{Home: "/h", BypassTrust: new(false)}}, &echo); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"processId": 7.0, "config": map[string]any{"home": "/h", "bypassTrust": false}}
	if !reflect.DeepEqual(echo, want) {
		t.Errorf("InitializeParams on the wire: %v, want %v (unset fields left out, an explicit false kept)", echo, want)
	}
	for event, want := range map[string]string{"Stop": "Stop", "": "no event"} {
		list, err := c.List(ctx(t), event)
		if err != nil || len(list.Hooks) != 1 || list.Hooks[0].Key != want {
			t.Errorf("List(%q) = %+v, %v; want the event param %q", event, list, err, want)
		}
	}
	echo = nil
	if err := c.Call(ctx(t), "echo", RunParams{Event: "Stop"}, &echo); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(echo, map[string]any{"event": "Stop"}) {
		t.Errorf("RunParams without input or turn on the wire: %v", echo)
	}
	en, err := c.SetEnabled(ctx(t), "k1", false)
	if err != nil || en.Key != "k1" || en.Enabled {
		t.Errorf("SetEnabled = %+v, %v; want the echo of {key: k1, enabled: false}", en, err)
	}
	tr, err := c.Trust(ctx(t), "a", "b")
	if err != nil || len(tr.Trusted) != 2 || tr.Trusted[1] != (TrustedHook{Key: "b", Hash: "sha256:b"}) {
		t.Errorf("Trust = %+v, %v", tr, err)
	}
	pend, err := c.TakePending(ctx(t))
	if err != nil || len(pend.Results) != 1 || pend.Results[0].AdditionalContext[0].Text != "lint ok" || pend.Results[0].Error != nil {
		t.Errorf("TakePending = %+v, %v", pend, err)
	}
	if code, err := c.Close(ctx(t)); code != 0 || err != nil {
		t.Errorf("Close = %d, %v", code, err)
	}
}

func TestCallTool_AnswersHookdAndStatusesArrive(t *testing.T) {
	c := startFake(t)
	var got CallToolParams
	c.CallTool = HandleCallTool(func(ctx context.Context, p CallToolParams) (*CallToolResult, error) {
		got = p
		return &CallToolResult{Content: []Content{{Type: "text", Text: "ok"}}, StructuredContent: json.RawMessage(`{"decision":"block","reason":"no"}`)}, nil
	})
	if _, err := c.InitializeSession(ctx(t), InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	res, err := c.RunEvent(ctx(t), RunParams{Event: "Stop", Input: map[string]any{"x": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Server != "policy" || got.Tool != "check" || got.TimeoutMs != 5000 || string(got.Arguments) != `{"event":"Stop","input":{"x":1}}` {
		t.Errorf("callTool params = %+v", got)
	}
	if res.Continuation != `{"content":[{"type":"text","text":"ok"}],"structuredContent":{"decision":"block","reason":"no"}}` || !res.Blocks() {
		t.Errorf("run result = %+v", res)
	}
	for _, state := range []string{"started", "finished"} {
		n := <-c.Notifications
		var s StatusParams
		if err := n.Decode(&s); err != nil || n.Method != "hooks/status" || s.State != state || s.StatusMessage != "Asking" || string(s.RunID) != `"r1"` {
			t.Errorf("notification %s %+v, %v; want hooks/status %s", n.Method, s, err, state)
		}
	}
}

func TestCallTool_ErrorsKeepTheirCode(t *testing.T) {
	c := startFake(t)
	c.CallTool = HandleCallTool(func(ctx context.Context, p CallToolParams) (*CallToolResult, error) {
		return nil, &jsonrpc2.Error{Code: -32001, Message: "server policy is not connected"}
	})
	if _, err := c.InitializeSession(ctx(t), InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	res, err := c.RunEvent(ctx(t), RunParams{Event: "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Continuation != "jsonrpc2: code -32001 message: server policy is not connected" {
		t.Errorf("hookd saw %q", res.Continuation)
	}
}

func TestCallTool_UnsetAnswersMethodNotFound(t *testing.T) {
	c := startFake(t)
	res, err := c.RunEvent(ctx(t), RunParams{Event: "Stop"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "jsonrpc2: code -32601 message: client does not handle mcp/callTool"; res.Continuation != want {
		t.Errorf("hookd saw %q, want %q", res.Continuation, want)
	}
}

func TestCode_ReadsJSONRPCErrors(t *testing.T) {
	if got := Code(&jsonrpc2.Error{Code: CodeRequestCancelled}); got != CodeRequestCancelled {
		t.Errorf("Code = %d", got)
	}
	if got := Code(errors.New("plain")); got != 0 {
		t.Errorf("Code of a plain error = %d, want 0", got)
	}
}

func TestNotificationDecode_NamesTheMethodOnError(t *testing.T) {
	err := Notification{Method: "hooks/status", Params: json.RawMessage(`[1]`)}.Decode(&StatusParams{})
	if err == nil || err.Error()[:18] != "hooks/status param" {
		t.Errorf("Decode error = %v", err)
	}
	if err := (Notification{Method: "exit"}).Decode(&StatusParams{}); err == nil {
		t.Error("Decode without params: no error")
	}
}
