package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/internal/jsonrpcmsg"
)

// lspCodec is the library's LSP framing (jsonrpc2.VSCodeObjectCodec) with
// less encoding/json per message, which a host pays on every request: a
// plain request or result is written directly, another message the library
// built encodes itself (MarshalJSON; json.Marshal would scan the already
// compact output again to compact it), header and body go out in one
// write, and a response is read in one decoding (readResponse).
type lspCodec struct{}

func (lspCodec) WriteObject(w io.Writer, obj any) error {
	var data []byte
	var err error
	ok := false
	// A request or a result the library would write as a plain copy of its
	// parts is written directly, byte for byte as the library writes it
	// (internal/jsonrpcmsg): the library builds a map for every request and
	// encodes it, and its message's MarshalJSON encodes that again.
	if m := jsonrpcmsg.Of(obj); m != nil {
		switch {
		case m.Request != nil && m.Response == nil:
			data, ok = jsonrpcmsg.AppendRequest(nil, m.Request)
		case m.Request == nil && m.Response != nil:
			data, ok = jsonrpcmsg.AppendResponse(nil, m.Response)
		}
	}
	switch mj, isMarshaler := obj.(json.Marshaler); {
	case ok:
	case isMarshaler:
		data, err = mj.MarshalJSON()
	default:
		data, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	frame := make([]byte, 0, len(data)+32)
	frame = append(frame, "Content-Length: "...)
	frame = strconv.AppendInt(frame, int64(len(data)), 10)
	frame = append(frame, "\r\n\r\n"...)
	frame = append(frame, data...)
	_, err = w.Write(frame)
	return err
}

// ReadObject reads one frame as the library's codec does: header lines end
// in \r\n, Content-Length is required, other headers are ignored.
func (lspCodec) ReadObject(r *bufio.Reader, v any) error {
	n := uint64(0)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return err
		}
		if !strings.HasSuffix(line, "\r\n") {
			return errors.New(`jsonrpc2: line endings must be \r\n`)
		}
		line = line[:len(line)-2]
		if line == "" {
			break
		}
		if rest, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			if n, err = strconv.ParseUint(strings.TrimSpace(rest), 10, 32); err != nil {
				return err
			}
		}
	}
	if n == 0 {
		return fmt.Errorf("jsonrpc2: no Content-Length header found")
	}
	// Read as it comes, not into n bytes made at once: a length that lies
	// costs what arrives, not what it claims.
	body, err := io.ReadAll(io.LimitReader(r, int64(n)))
	if err != nil {
		return err
	}
	if uint64(len(body)) < n {
		return io.ErrUnexpectedEOF
	}
	if m := jsonrpcmsg.Of(v); m != nil {
		if resp, ok := readResponse(body); ok {
			*m = jsonrpcmsg.Message{Response: resp}
			return nil
		}
	}
	return json.Unmarshal(body, v)
}

// readResponse decodes body as the library decodes a response into its
// message, when body is one: the library first decodes the whole message,
// its result into a map and slices, only to tell a response from a request,
// and then again into a Response. A response is told here by its keys
// (no method; a result, or an error that is not null), with no decoding,
// and decoded once. ok is false for anything else, and for a body the
// decoding refuses, which the library then reads (or refuses) itself. Keys
// are matched as encoding/json matches them, without regard to case; a body
// with a key twice is left to the library, which keeps the last.
func readResponse(body []byte) (resp *jsonrpc2.Response, ok bool) {
	doc := gjson.ParseBytes(body)
	if !doc.IsObject() {
		return nil, false
	}
	seen := map[string]bool{}
	var method, result, errored, twice bool
	doc.ForEach(func(k, v gjson.Result) bool {
		key := strings.ToLower(k.String())
		if seen[key] {
			twice = true
			return false
		}
		seen[key] = true
		switch key {
		case "method":
			method = v.Type != gjson.Null
		case "result":
			result = true
		case "error":
			errored = v.Type != gjson.Null
		}
		return true
	})
	if twice || method || !result && !errored {
		return nil, false
	}
	resp = &jsonrpc2.Response{}
	if err := json.Unmarshal(body, resp); err != nil {
		return nil, false
	}
	if resp.Error == nil && resp.Result == nil {
		null := json.RawMessage("null")
		resp.Result = &null
	}
	return resp, true
}
