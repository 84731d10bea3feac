package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/internal/jsonrpcmsg"
)

// The codec reads a response into the library's message as the library
// would, field for field, and leaves every other message to the library.
func TestReadObject_AResponseIsReadAsTheLibraryReadsIt(t *testing.T) {
	typ := jsonrpcmsg.LibraryType()
	if !jsonrpcmsg.IsMessageType(typ) {
		t.Fatalf("the library's message %v is not laid out as jsonrpcmsg.Message", typ)
	}
	for _, tc := range []struct {
		body string
		fast bool
	}{
		{`{"id":1,"result":{"decision":"none","hooks":[{"key":"a","exitCode":0}]},"jsonrpc":"2.0"}`, true},
		{`{"id":"x-7","result":null,"jsonrpc":"2.0"}`, true},
		{`{"id":2,"result":false}`, true},
		{` { "id" : 3 , "result" : [ 1 , "<" ] } `, true},
		{`{"id":4,"error":{"code":-32601,"message":"no such method"}}`, true},
		{`{"id":5,"error":null,"result":{"a":1}}`, true},
		{`{"id":6,"method":null,"result":1}`, true},
		{`{"id":7,"Result":{"a":1}}`, true},
		{`{"id":8,"r\u0065sult":{"a":1}}`, true},
		{`{"id":9,"error":{"code":1,"message":"m"},"result":2}`, true},
		{`{"id":10,"result":1,"meta":{"k":"v"}}`, true},
		// Left to the library: a request, a notification, no result or
		// error, a key twice, a batch, JSON it refuses.
		{`{"id":11,"method":"mcp/callTool","params":{}}`, false},
		{`{"method":"window/logMessage","params":{"type":3,"message":"hi"}}`, false},
		{`{"id":12,"method":"x","result":1}`, false},
		{`{"id":13}`, false},
		{`{"id":14,"error":null}`, false},
		{`{"id":15,"result":1,"RESULT":2}`, false},
		{`[{"id":16,"result":1}]`, false},
		{`{"id":17,"result":1`, false},
		{`{"id":{"no":"id"},"result":1}`, false},
		{`"just a string"`, false},
	} {
		frame := "Content-Length: " + strconv.Itoa(len(tc.body)) + "\r\n\r\n" + tc.body
		fast := reflect.New(typ.Elem()).Interface()
		fastErr := lspCodec{}.ReadObject(bufio.NewReader(strings.NewReader(frame)), fast)
		lib := reflect.New(typ.Elem()).Interface()
		libErr := json.Unmarshal([]byte(tc.body), lib)
		if (fastErr == nil) != (libErr == nil) || fastErr != nil && fastErr.Error() != libErr.Error() {
			t.Errorf("%s: error %v, the library's %v", tc.body, fastErr, libErr)
			continue
		}
		if !reflect.DeepEqual(fast, lib) {
			t.Errorf("%s: read as %+v, the library reads %+v", tc.body, *jsonrpcmsg.Of(fast), *jsonrpcmsg.Of(lib))
		}
		if _, ok := readResponse([]byte(tc.body)); ok != tc.fast {
			t.Errorf("%s: read directly %v, want %v", tc.body, ok, tc.fast)
		}
	}
}

// The codec writes a message byte for byte as the library's codec does,
// directly or through the library.
func TestWriteObject_AsTheLibraryWritesIt(t *testing.T) {
	typ := jsonrpcmsg.LibraryType()
	raw := func(s string) *json.RawMessage { r := json.RawMessage(s); return &r }
	for _, m := range []jsonrpcmsg.Message{
		{Request: &jsonrpc2.Request{Method: "hooks/run", ID: jsonrpc2.ID{Num: 7}, Params: raw(`{"event":"Stop","input":{"a":[1,"x"]}}`)}},
		{Request: &jsonrpc2.Request{Method: "hooks/run", ID: jsonrpc2.ID{Str: "r-1", IsString: true}, Params: raw(`{}`)}},
		{Request: &jsonrpc2.Request{Method: "initialized", Notif: true, Params: raw(`{}`)}},
		{Request: &jsonrpc2.Request{Method: "shutdown", ID: jsonrpc2.ID{Num: 2}}},
		{Request: &jsonrpc2.Request{Method: "exit", Notif: true, Params: raw(`null`)}},
		// Through the library: what its encoding rewrites or adds.
		{Request: &jsonrpc2.Request{Method: "a<b", ID: jsonrpc2.ID{Num: 3}}},
		{Request: &jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Str: "quote\"d", IsString: true}}},
		{Request: &jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Num: 4}, Params: raw(`{ "spaced" : 1 }`)}},
		{Request: &jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Num: 5}, Params: raw(`{"html":"<&>"}`)}},
		{Request: &jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Num: 6}, Meta: raw(`{"k":1}`)}},
		{Request: &jsonrpc2.Request{Method: "m", ID: jsonrpc2.ID{Num: 8}, ExtraFields: []jsonrpc2.RequestField{{Name: "x", Value: 1}}}},
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 9}, Result: raw(`{"ok":true}`)}},
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 10}, Error: &jsonrpc2.Error{Code: -32601, Message: "no <such> method"}}},
	} {
		msg := reflect.New(typ.Elem()).Interface()
		*jsonrpcmsg.Of(msg) = m
		var got bytes.Buffer
		if err := (lspCodec{}).WriteObject(&got, msg); err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		var want bytes.Buffer
		if err := (jsonrpc2.VSCodeObjectCodec{}).WriteObject(&want, msg); err != nil {
			t.Fatalf("%+v: the library: %v", m, err)
		}
		if got.String() != want.String() {
			t.Errorf("%+v:\nwrote   %q\nlibrary %q", m, got.String(), want.String())
		}
	}
	// The plain ones are written directly.
	for _, r := range []*jsonrpc2.Request{
		{Method: "hooks/run", ID: jsonrpc2.ID{Num: 7}, Params: raw(`{"event":"Stop"}`)},
		{Method: "initialized", Notif: true, Params: raw(`{}`)},
	} {
		if _, ok := jsonrpcmsg.AppendRequest(nil, r); !ok {
			t.Errorf("%+v is not written directly", r)
		}
	}
}
