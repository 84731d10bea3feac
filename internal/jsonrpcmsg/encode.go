package jsonrpcmsg

import (
	"strconv"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
)

// AppendResponse appends the library's encoding of resp when resp is a
// result response whose encoding is a plain copy (see CanonicalJSON); ok is
// false otherwise, and dst is returned as it was.
func AppendResponse(dst []byte, resp *jsonrpc2.Response) (out []byte, ok bool) {
	if resp.Error != nil || resp.Meta != nil || resp.Result == nil || !CanonicalJSON(*resp.Result) {
		return dst, false
	}
	out, ok = appendID(append(dst, `{"id":`...), resp.ID)
	if !ok {
		return dst, false
	}
	out = append(out, `,"result":`...)
	out = append(out, *resp.Result...)
	return append(out, `,"jsonrpc":"2.0"}`...), true
}

// CanonicalJSON reports whether encoding/json would write the raw value b
// unchanged: valid, with no space outside strings and nothing its HTML
// escaping rewrites (<, >, & and U+2028, U+2029).
func CanonicalJSON(b []byte) bool {
	if len(b) == 0 || !gjson.ValidBytes(b) {
		return false
	}
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '<', '>', '&':
			return false
		case 0xE2:
			if i+2 < len(b) && b[i+1] == 0x80 && b[i+2]&^1 == 0xA8 {
				return false
			}
		case '"':
			in = !in
		case '\\':
			i++ // valid JSON: an escape is inside a string
		case ' ', '\t', '\r', '\n':
			if !in {
				return false
			}
		}
	}
	return true
}

// HTMLSafeString reports whether encoding/json writes s as its bytes between
// quotes: printable ASCII with nothing it escapes.
func HTMLSafeString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// AppendRequest appends the library's encoding of req when it is a plain
// copy: no meta or extra fields, an id and a method HTMLSafeString writes
// as they are, params CanonicalJSON. The library writes a request as a map,
// so its keys come sorted: {"id":ID,"jsonrpc":"2.0","method":M,"params":P},
// without id for a notification and without params when it has none. ok is
// false otherwise, and dst is returned as it was.
func AppendRequest(dst []byte, req *jsonrpc2.Request) (out []byte, ok bool) {
	if req.Meta != nil || len(req.ExtraFields) > 0 || !HTMLSafeString(req.Method) ||
		req.Params != nil && !CanonicalJSON(*req.Params) {
		return dst, false
	}
	out = append(dst, '{')
	if !req.Notif {
		if out, ok = appendID(append(out, `"id":`...), req.ID); !ok {
			return dst, false
		}
		out = append(out, ',')
	}
	out = append(out, `"jsonrpc":"2.0","method":"`...)
	out = append(out, req.Method...)
	out = append(out, '"')
	if req.Params != nil {
		out = append(out, `,"params":`...)
		out = append(out, *req.Params...)
	}
	return append(out, '}'), true
}

// appendID appends id as encoding/json writes it, when that is a plain
// copy: a number, or a string HTMLSafeString writes as it is.
func appendID(dst []byte, id jsonrpc2.ID) ([]byte, bool) {
	if !id.IsString {
		return strconv.AppendUint(dst, id.Num, 10), true
	}
	if !HTMLSafeString(id.Str) {
		return dst, false
	}
	dst = append(dst, '"')
	dst = append(dst, id.Str...)
	return append(dst, '"'), true
}
