package client

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// lspCodec is the library's LSP framing (jsonrpc2.VSCodeObjectCodec) with
// a pass of encoding/json fewer per message written, which a host pays on
// every request: a message the library built encodes itself (MarshalJSON;
// json.Marshal would scan the already compact output again to compact it),
// and header and body go out in one write.
type lspCodec struct{}

func (lspCodec) WriteObject(w io.Writer, obj any) error {
	var data []byte
	var err error
	if m, ok := obj.(json.Marshaler); ok {
		data, err = m.MarshalJSON()
	} else {
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
	return json.Unmarshal(body, v)
}
