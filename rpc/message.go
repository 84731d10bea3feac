package rpc

import (
	"strconv"
	"unicode/utf8"

	"github.com/sourcegraph/jsonrpc2"
)

// The library hands its object stream one message type to read into and to
// write: an unexported struct holding a *Request or a *Response. Filling it
// with json.Unmarshal and writing it with its MarshalJSON is most of what a
// no-match hooks/run costs: three nested encoding/json passes and a map per
// request to read, three to write. For the two commonest shapes, the stream
// does the same work directly, with a byte-for-byte and field-for-field
// identical result (docs/performance.md):
//
//   - reading a request or notification whose params the stream keeps
//     (StreamOptions.DetachParams), which the library would decode from
//     {"jsonrpc":"2.0","id":ID,"method":M} into a Request with only Method,
//     ID and Notif set;
//   - writing a response with a result and no error or meta, which the
//     library would write as {"id":ID,"result":R,"jsonrpc":"2.0"} with R
//     compacted and HTML-escaped.
//
// Everything else goes through the library's own codec. The message type is
// recognised by its layout (internal/jsonrpcmsg); a library whose message
// differs in any way gets its own codec for every message (and
// TestMessageLayoutRecognised fails, so an upgrade cannot silently lose the
// fast path).

// skeletonRequest is the Request the library decodes from
// skeleton(wireID, method), for the ids and methods whose decoding is a
// plain copy: an integer in [0, 2^63-1] or a string, and a method, without
// escapes and in valid UTF-8. ok is false for the others.
func skeletonRequest(wireID, method string) (req *jsonrpc2.Request, ok bool) {
	m, ok := plainString(method)
	if !ok {
		return nil, false
	}
	req = &jsonrpc2.Request{Method: m}
	switch {
	case wireID == "":
		req.Notif = true
	case wireID[0] == '"':
		s, ok := plainString(wireID)
		if !ok {
			return nil, false
		}
		req.ID = jsonrpc2.ID{Str: s, IsString: true}
	default:
		n, err := strconv.ParseInt(wireID, 10, 64)
		if err != nil || n < 0 {
			return nil, false
		}
		req.ID = jsonrpc2.ID{Num: uint64(n)}
	}
	return req, true
}

// plainString returns the value of the JSON string literal lit when it has
// no escapes and is valid UTF-8, so that its value is its bytes.
func plainString(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	s := lit[1 : len(lit)-1]
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}
	return s, utf8.ValidString(s)
}
