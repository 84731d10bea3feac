package rpc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/internal/jsonrpcmsg"
)

// libraryMessage is the pointer type of the library's own message.
func libraryMessage(testing.TB) reflect.Type { return jsonrpcmsg.LibraryType() }

// newMessage is a fresh library message, as the library reads into.
func newMessage(typ reflect.Type) any { return reflect.New(typ.Elem()).Interface() }

// The fast path depends on the library's message having the layout the
// stream knows; an upgrade that changes it must fail here, not silently
// lose the fast path.
func TestMessageLayoutRecognised(t *testing.T) {
	typ := libraryMessage(t)
	if !jsonrpcmsg.IsMessageType(typ) {
		t.Fatalf("the library's message %v is not laid out as messageView", typ)
	}
	if jsonrpcmsg.Of(newMessage(typ)) == nil {
		t.Fatal("viewMessage does not see the library's message")
	}
	type lookalike struct {
		request  *jsonrpc2.Request
		response *jsonrpc2.Response
	}
	for _, v := range []any{nil, &lookalike{}, &jsonrpcmsg.Message{}, lookalike{}, (*lookalike)(nil),
		reflect.Zero(typ).Interface(), reflect.New(typ.Elem()).Elem().Interface(), &jsonrpc2.Request{}} {
		if jsonrpcmsg.Of(v) != nil {
			t.Errorf("jsonrpcmsg.Of(%T) is not nil", v)
		}
	}
}

// readMessage reads body through a stream that keeps params, with the fast
// path or with the library's decoding only.
func readMessage(t testing.TB, typ reflect.Type, body string, library bool) (msg any, params []byte, out string, err error) {
	t.Helper()
	var w lockedBuffer
	s := NewStream(strings.NewReader(body+"\n"), &w, nil,
		StreamOptions{Framing: FramingJSONL, DetachParams: true, Log: func(int, string) {}})
	s.libraryCodec = library
	msg = newMessage(typ)
	err = s.ReadObject(msg)
	return msg, s.Params(), w.String(), err
}

func TestMessageReadMatchesTheLibrary(t *testing.T) {
	typ := libraryMessage(t)
	for _, tc := range []struct {
		body string
		fast bool // the stream fills the message itself
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{"event":"Stop","a":"<&>"}}`, true},
		{`{"jsonrpc":"2.0","id":0,"method":"m"}`, true},
		{`{"id":9223372036854775807,"method":"m","params":null}`, true},
		{`{"id":9223372036854775808,"method":"m"}`, false},
		{`{"id":-1,"method":"m"}`, false},
		{`{"id":-0,"method":"m"}`, false},
		{`{"id":"abc","method":"m"}`, true},
		{`{"id":"","method":""}`, true},
		{`{"id":"é","method":"é"}`, true},
		{`{"id":"a\"b","method":"m"}`, false},
		{`{"id":"\u00e9","method":"m"}`, false},
		{`{"id":"a\/b","method":"m"}`, false},
		{"{\"id\":\"\xff\",\"method\":\"m\"}", false},
		{"{\"id\":1,\"method\":\"\xed\xa0\x80\"}", false},
		{`{"id":"\u0000hookd-id:1","method":"m"}`, false},
		{`{"id":1,"method":"m\u0041"}`, false},
		{`{"method":"note","params":{}}`, true},
		{`{"id":1,"method":"a","method":"b","id":"c"}`, true},
		{` { "id" : 7 , "method" : "m" , "x" : [1, 2] } `, true},
		{`{"id":1,"method":"m","params":[1]}`, false}, // refused: an error reply
		{`{"id":null,"method":"m"}`, false},
		{`{"id":1.5,"method":"m"}`, false},
		{`{"id":1,"method":2}`, false},
		{`{"id":01,"method":"m"}`, false},
		{`{"id":1,"result":{}}`, false},
	} {
		t.Run(tc.body, func(t *testing.T) {
			fast, fastParams, fastOut, fastErr := readMessage(t, typ, tc.body, false)
			lib, libParams, libOut, libErr := readMessage(t, typ, tc.body, true)
			if (fastErr == nil) != (libErr == nil) || fastOut != libOut || !bytes.Equal(fastParams, libParams) {
				t.Fatalf("fast path: %v, %q, params %q; library: %v, %q, params %q",
					fastErr, fastOut, fastParams, libErr, libOut, libParams)
			}
			if !reflect.DeepEqual(fast, lib) {
				t.Fatalf("fast path read %+v, library %+v", *jsonrpcmsg.Of(fast), *jsonrpcmsg.Of(lib))
			}
			vd := inspect([]byte(tc.body))
			_, took := skeletonRequest(vd.wireID, vd.method)
			took = took && vd.msg != nil && vd.kind != kindResponse
			if took != tc.fast {
				t.Errorf("fast path taken: %v, want %v", took, tc.fast)
			}
			if tc.fast && (fastErr != nil || jsonrpcmsg.Of(fast).Request == nil) {
				t.Errorf("no request read: %v", fastErr)
			}
		})
	}
}

// libraryEncoding is what the library's own codecs write for resp.
func libraryEncoding(typ reflect.Type, resp *jsonrpc2.Response) ([]byte, error) {
	msg := newMessage(typ)
	jsonrpcmsg.Of(msg).Response = resp
	return json.Marshal(msg)
}

func TestMessageWriteMatchesTheLibrary(t *testing.T) {
	typ := libraryMessage(t)
	ids := []struct {
		id   jsonrpc2.ID
		fast bool
	}{
		{jsonrpc2.ID{Num: 0}, true},
		{jsonrpc2.ID{Num: 1<<64 - 1}, true},
		{jsonrpc2.ID{Str: "abc", IsString: true}, true},
		{jsonrpc2.ID{Str: "", IsString: true}, true},
		{jsonrpc2.ID{Str: "a<b", IsString: true}, false},
		{jsonrpc2.ID{Str: "é", IsString: true}, false},
		{jsonrpc2.ID{Str: `a"b`, IsString: true}, false},
		{jsonrpc2.ID{Str: idPrefix + "-1", IsString: true}, false},
	}
	results := []struct {
		raw  string
		fast bool
	}{
		{`{}`, true},
		{`null`, true},
		{`{"outcome":{"decision":"allow"},"a":"b c\td"}`, true},
		{`{"a":"\u003c\"\\"}`, true},
		{`1e3`, true},
		{`"é"`, true},
		{`{"a":"<"}`, false},
		{`{"a":"&"}`, false},
		{"\"\u2028\"", false},
		{"\"\u2029\"", false},
		{`[1, 2]`, false},
		{"{\n}", false},
		{` {}`, false},
		{`{`, false},
		{``, false},
		{"\"\xff\"", true}, // written as it is either way
	}
	for _, id := range ids {
		for _, r := range results {
			raw := json.RawMessage(r.raw)
			resp := &jsonrpc2.Response{ID: id.id, Result: &raw}
			got, ok := jsonrpcmsg.AppendResponse(nil, resp)
			want, err := libraryEncoding(typ, resp)
			if ok != (id.fast && r.fast) {
				t.Errorf("id %+v result %q: fast path %v", id.id, r.raw, ok)
			}
			if ok && (err != nil || !bytes.Equal(got, want)) {
				t.Errorf("id %+v result %q: fast path wrote %q, library %q (%v)", id.id, r.raw, got, want, err)
			}
		}
	}
	// Errors and meta go through the library.
	raw := json.RawMessage(`{}`)
	for _, resp := range []*jsonrpc2.Response{
		{Error: &jsonrpc2.Error{Code: 1, Message: "m"}},
		{Result: &raw, Meta: &raw},
		{},
	} {
		if _, ok := jsonrpcmsg.AppendResponse(nil, resp); ok {
			t.Errorf("fast path taken for %+v", resp)
		}
	}
}

// A stream writes the same frames either way, for every kind of message.
func TestMessageStreamWritesMatchTheLibrary(t *testing.T) {
	typ := libraryMessage(t)
	raw := json.RawMessage(`{"a":"x y","b":[1,2]}`)
	spaced := json.RawMessage(`{ "a" : "<" }`)
	params := json.RawMessage(`{"p":1}`)
	for _, m := range []jsonrpcmsg.Message{
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 3}, Result: &raw}},
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Str: idPrefix + "-1", IsString: true}, Result: &raw}},
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 3}, Result: &spaced}},
		{Response: &jsonrpc2.Response{ID: jsonrpc2.ID{Num: 3}, Error: &jsonrpc2.Error{Code: -32601, Message: "no <such> method"}}},
		{Request: &jsonrpc2.Request{Method: "host/call", ID: jsonrpc2.ID{Num: 1}, Params: &params}},
		{Request: &jsonrpc2.Request{Method: "note", Notif: true}},
		{},
	} {
		var frames [2]string
		var errs [2]error
		for i, library := range []bool{false, true} {
			for _, framing := range []Framing{FramingJSONL, FramingLSP} {
				var w lockedBuffer
				s := NewStream(strings.NewReader(""), &w, nil, StreamOptions{Framing: framing})
				s.libraryCodec = library
				msg := newMessage(typ)
				*jsonrpcmsg.Of(msg) = m
				errs[i] = s.WriteObject(msg)
				frames[i] += w.String()
			}
		}
		if frames[0] != frames[1] || (errs[0] == nil) != (errs[1] == nil) {
			t.Errorf("%+v: fast path wrote %q (%v), library %q (%v)", m, frames[0], errs[0], frames[1], errs[1])
		}
	}
}

func FuzzMessageCodec(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"hooks/run","params":{}}`), []byte(`{"a":"b"}`), "x", uint64(1))
	f.Add([]byte(`{"id":"é","method":"\u00e9"}`), []byte(`"\u2028"`), "é", uint64(0))
	f.Add([]byte(`{"id":-1,"method":"m"}`), []byte(`[1, "<"]`), "", uint64(1<<63))
	typ := libraryMessage(f)
	f.Fuzz(func(t *testing.T, body, result []byte, strID string, numID uint64) {
		// Reading: whenever the stream fills a message itself, the library
		// decodes the same skeleton into the same message.
		vd := inspect(body)
		if vd.msg != nil && vd.kind != kindResponse {
			if req, ok := skeletonRequest(vd.wireID, vd.method); ok {
				sk := skeleton(vd.wireID, vd.method)
				lib := newMessage(typ)
				if err := json.Unmarshal(sk, lib); err != nil {
					t.Fatalf("the library refuses %q, which the fast path read: %v", sk, err)
				}
				fast := newMessage(typ)
				*jsonrpcmsg.Of(fast) = jsonrpcmsg.Message{Request: req}
				if !reflect.DeepEqual(fast, lib) {
					t.Fatalf("%q: fast path %+v, library %+v", sk, *req, *jsonrpcmsg.Of(lib).Request)
				}
			}
		}
		// Writing: whenever the stream encodes a response itself, the
		// library writes the same bytes.
		raw := json.RawMessage(result)
		for _, id := range []jsonrpc2.ID{{Num: numID}, {Str: strID, IsString: true}} {
			resp := &jsonrpc2.Response{ID: id, Result: &raw}
			if got, ok := jsonrpcmsg.AppendResponse(nil, resp); ok {
				want, err := libraryEncoding(typ, resp)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("fast path wrote %q, library %q (%v)", got, want, err)
				}
			}
		}
	})
}
