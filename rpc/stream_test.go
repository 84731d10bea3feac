package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// lsp frames body with exactly the header hookd writes.
func lsp(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// lockedBuffer is a bytes.Buffer safe for the concurrent writes a Conn makes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// logRecorder collects StreamOptions.Log calls.
type logRecorder struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRecorder) log(msgType int, message string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf("%d %s", msgType, message))
}

func (l *logRecorder) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// readAll reads messages (as raw JSON) until ReadObject fails and returns
// them with that error.
func readAll(t *testing.T, s *Stream) ([]string, error) {
	t.Helper()
	var msgs []string
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("ReadObject does not stop")
		}
		var m json.RawMessage
		if err := s.ReadObject(&m); err != nil {
			return msgs, err
		}
		msgs = append(msgs, string(m))
	}
}

// streamCase runs input through a Stream and checks what was delivered, what
// the stream wrote back, and what it logged.
type streamCase struct {
	name    string
	framing Framing
	max     int64
	input   string
	want    []string // messages delivered to the library
	wantOut string   // exact bytes written
	wantLog []string // each must be a substring of one log line, in order
}

func runStreamCases(t *testing.T, cases []streamCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			var logs logRecorder
			var eofs atomic.Int32
			s := NewStream(strings.NewReader(tc.input), &out, nil, StreamOptions{
				Framing:         tc.framing,
				MaxMessageBytes: tc.max,
				Log:             logs.log,
				BeforeEOF:       func() { eofs.Add(1) },
			})
			got, err := readAll(t, s)
			if err != io.EOF {
				t.Fatalf("ReadObject error = %v, want io.EOF", err)
			}
			if eofs.Load() != 1 {
				t.Errorf("BeforeEOF called %d times, want 1", eofs.Load())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("delivered:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if out.String() != tc.wantOut {
				t.Errorf("wrote:\n%q\nwant:\n%q", out.String(), tc.wantOut)
			}
			lines := logs.all()
			i := 0
			for _, l := range lines {
				if i < len(tc.wantLog) && strings.Contains(l, tc.wantLog[i]) {
					i++
				}
			}
			if i < len(tc.wantLog) {
				t.Errorf("log = %q, want lines containing %q", lines, tc.wantLog)
			}
			if len(tc.wantLog) == 0 && len(lines) > 0 {
				t.Errorf("unexpected log lines %q", lines)
			}
		})
	}
}

func TestStreamParseFraming(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Framing
		wantErr bool
	}{
		{"auto", FramingAuto, false},
		{"lsp", FramingLSP, false},
		{"jsonl", FramingJSONL, false},
		{"ndjson", FramingAuto, true},
		{"", FramingAuto, true},
	} {
		got, err := ParseFraming(tc.in)
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("ParseFraming(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}

const (
	msgA = `{"jsonrpc":"2.0","id":1,"method":"a","params":{}}`
	msgB = `{"jsonrpc":"2.0","method":"b"}`
)

func TestStreamFramingDetectionAndHeaders(t *testing.T) {
	runStreamCases(t, []streamCase{
		{name: "auto detects LSP", input: lsp(msgA) + lsp(msgB), want: []string{msgA, msgB}},
		{name: "auto detects lowercase content-length", input: strings.ToLower(lsp(msgA)[:16]) + lsp(msgA)[16:], want: []string{msgA}},
		{name: "header names are case-insensitive", input: "CONTENT-LENGTH:" + lsp(msgA)[15:], want: []string{msgA}},
		{name: "auto detects NDJSON", input: msgA + "\n" + msgB + "\n", want: []string{msgA, msgB}},
		{name: "NDJSON accepts CRLF and skips blank lines", input: "\r\n" + msgA + "\r\n\r\n  \n" + msgB + "\r\n", want: []string{msgA, msgB}},
		{name: "NDJSON last line without newline is a message", input: msgA + "\n" + msgB, want: []string{msgA, msgB}},
		{name: "auto skips leading whitespace and a byte order mark", input: "\xEF\xBB\xBF \r\n\t" + lsp(msgA), want: []string{msgA}},
		{name: "Content-Type before Content-Length is ignored",
			input: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + lsp(msgA), want: []string{msgA}},
		{name: "Content-Type after Content-Length is ignored",
			input: fmt.Sprintf("Content-Length: %d\r\nContent-Type: application/json\r\nX-Other: 1\r\n\r\n%s", len(msgA), msgA), want: []string{msgA}},
		{name: "LSP accepts bare LF line endings",
			input: fmt.Sprintf("Content-Length: %d\n\n%sContent-Length: %d\nContent-Type: x\n\n%s", len(msgA), msgA, len(msgB), msgB), want: []string{msgA, msgB}},
		{name: "LSP tolerates blank lines between frames", input: lsp(msgA) + "\r\n\n" + lsp(msgB), want: []string{msgA, msgB}},
		{name: "forced LSP", framing: FramingLSP, input: "\n" + lsp(msgA), want: []string{msgA}},
		{name: "forced jsonl reads lines even when they start with C",
			framing: FramingJSONL, input: "Content-Length: 3\n" + msgA + "\n",
			want:    []string{msgA},
			wantOut: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid character 'C' looking for beginning of value"}}` + "\n"},
		{name: "empty input is a clean EOF", input: ""},
		{name: "whitespace-only input is a clean EOF", input: " \r\n\n"},
	})
}

func TestStreamWritesUseDetectedFraming(t *testing.T) {
	const note = `{"jsonrpc":"2.0","method":"n"}`
	for _, tc := range []struct {
		name    string
		framing Framing
		input   string
		want    string
	}{
		{"LSP before anything was read", FramingAuto, "", lsp(note)},
		{"LSP after LSP input", FramingAuto, lsp(msgA), lsp(note)},
		{"NDJSON after NDJSON input", FramingAuto, msgA + "\n", note + "\n"},
		{"forced NDJSON before reading", FramingJSONL, "", note + "\n"},
		{"forced LSP whatever the input", FramingLSP, "", lsp(note)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			s := NewStream(strings.NewReader(tc.input), &out, nil, StreamOptions{Framing: tc.framing})
			if tc.input != "" {
				var m json.RawMessage
				if err := s.ReadObject(&m); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.WriteRaw([]byte(note)); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Errorf("wrote %q, want %q", out.String(), tc.want)
			}
		})
	}
}

func TestStreamWriteRawCompactsAndValidates(t *testing.T) {
	var out bytes.Buffer
	s := NewStream(strings.NewReader(""), &out, nil, StreamOptions{Framing: FramingJSONL})
	if err := s.WriteRaw([]byte("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"n\"\n}\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteRaw([]byte(`{"broken"`)); err == nil {
		t.Error("WriteRaw accepted invalid JSON")
	}
	if want := `{"jsonrpc":"2.0","method":"n"}` + "\n"; out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}
}

func errReply(id string, code int, msg string) string {
	m, _ := json.Marshal(msg)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, m) + "\n"
}

func TestStreamRejectsInvalidMessages(t *testing.T) {
	const next = `{"jsonrpc":"2.0","id":9,"method":"next"}`
	cases := []struct {
		name    string
		line    string
		want    []string // delivered before next
		wantOut string
		wantLog []string
	}{
		{name: "bad JSON is a parse error and the next message is still read", line: `{"jsonrpc":"2.0",`,
			wantOut: errReply("null", -32700, "Parse error: unexpected end of JSON input")},
		{name: "garbage is a parse error", line: `{x}`,
			wantOut: errReply("null", -32700, "Parse error: invalid character 'x' looking for beginning of object key string")},
		{name: "batch is an invalid request", line: `[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
			wantOut: errReply("null", -32600, "batch requests are not supported")},
		{name: "string is an invalid request", line: `"hello"`,
			wantOut: errReply("null", -32600, "a message must be a JSON object")},
		{name: "number is an invalid request", line: `42`,
			wantOut: errReply("null", -32600, "a message must be a JSON object")},
		{name: "missing method echoes an integer id", line: `{"jsonrpc":"2.0","id":7}`,
			wantOut: errReply("7", -32600, "missing method")},
		{name: "missing method echoes a string id", line: `{"jsonrpc":"2.0","id":"x-1","params":{}}`,
			wantOut: errReply(`"x-1"`, -32600, "missing method")},
		{name: "missing method echoes a negative id", line: `{"id":-3}`,
			wantOut: errReply("-3", -32600, "missing method")},
		{name: "missing method with an invalid id answers id null", line: `{"id":1.5}`,
			wantOut: errReply("null", -32600, "missing method")},
		{name: "method must be a string", line: `{"jsonrpc":"2.0","id":2,"method":5}`,
			wantOut: errReply("2", -32600, "method must be a string")},
		{name: "null method is not a string", line: `{"id":2,"method":null}`,
			wantOut: errReply("2", -32600, "method must be a string")},
		{name: "method with result is an invalid request", line: `{"id":2,"method":"a","result":null}`,
			wantOut: errReply("2", -32600, "a message cannot have both method and result or error")},
		{name: "params array is invalid params", line: `{"jsonrpc":"2.0","id":3,"method":"a","params":[1,2]}`,
			wantOut: errReply("3", -32602, "params must be an object")},
		{name: "params string is invalid params", line: `{"id":"s","method":"a","params":"x"}`,
			wantOut: errReply(`"s"`, -32602, "params must be an object")},
		{name: "params null is accepted", line: `{"id":3,"method":"a","params":null}`,
			want: []string{`{"id":3,"method":"a","params":null}`}},
		{name: "absent params are accepted", line: `{"id":3,"method":"a"}`,
			want: []string{`{"id":3,"method":"a"}`}},
		{name: "notification with params array is dropped and logged", line: `{"method":"note","params":[1]}`,
			wantLog: []string{`2 dropped notification "note": params must be an object`}},
		{name: "fractional id is an invalid request", line: `{"id":1.5,"method":"a"}`,
			wantOut: errReply("null", -32600, "invalid id: must be a string or an integer")},
		{name: "exponent id is an invalid request", line: `{"id":1e3,"method":"a"}`,
			wantOut: errReply("null", -32600, "invalid id: must be a string or an integer")},
		{name: "boolean id is an invalid request", line: `{"id":true,"method":"a"}`,
			wantOut: errReply("null", -32600, "invalid id: must be a string or an integer")},
		{name: "object id is an invalid request", line: `{"id":{},"method":"a"}`,
			wantOut: errReply("null", -32600, "invalid id: must be a string or an integer")},
		{name: "null id is an invalid request, not a silent notification", line: `{"id":null,"method":"a"}`,
			wantOut: errReply("null", -32600, "invalid request: id is null; use a string or integer id, or leave id out for a notification")},
		{name: "response with a plain id is delivered", line: `{"jsonrpc":"2.0","id":0,"result":{"ok":true}}`,
			want: []string{`{"jsonrpc":"2.0","id":0,"result":{"ok":true}}`}},
		{name: "response with a null id is dropped, not taken for call 0",
			line:    `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
			wantLog: []string{"2 dropped a response with id null"}},
		{name: "response with a negative id is dropped", line: `{"id":-1,"result":1}`,
			wantLog: []string{"2 dropped a response with id -1"}},
		{name: "response with a fractional id is dropped", line: `{"id":0.5,"result":1}`,
			wantLog: []string{"2 dropped a response with id 0.5"}},
		{name: "later duplicate members win as in the library", line: `{"id":1,"method":"a","params":{},"params":[]}`,
			wantOut: errReply("1", -32602, "params must be an object")},
	}
	for _, framing := range []Framing{FramingJSONL, FramingLSP} {
		var sc []streamCase
		for _, tc := range cases {
			in := tc.line + "\n" + next + "\n"
			out := tc.wantOut
			if framing == FramingLSP {
				in = lsp(tc.line) + lsp(next)
				if out != "" {
					out = lsp(strings.TrimSuffix(out, "\n"))
				}
			}
			sc = append(sc, streamCase{
				name:    framing.String() + "/" + tc.name,
				framing: FramingAuto,
				input:   in,
				want:    append(append([]string(nil), tc.want...), next),
				wantOut: out,
				wantLog: tc.wantLog,
			})
		}
		runStreamCases(t, sc)
	}
}

func TestStreamEmptyLSPBodyIsParseError(t *testing.T) {
	runStreamCases(t, []streamCase{{
		name:    "Content-Length 0",
		input:   "Content-Length: 0\r\n\r\n" + lsp(msgA),
		want:    []string{msgA},
		wantOut: lsp(strings.TrimSuffix(errReply("null", -32700, "Parse error: unexpected end of JSON input"), "\n")),
	}})
}

func TestStreamResyncsAfterBadHeader(t *testing.T) {
	long := strings.Repeat("x", 9000)
	runStreamCases(t, []streamCase{
		{name: "no Content-Length", input: "Content-Type: text/plain\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{"1 LSP framing: header block has no Content-Length; skipping"}},
		{name: "garbage length", input: "Content-Length: abc\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`1 LSP framing: Content-Length "abc" is not a number`}},
		{name: "negative length", input: "Content-Length: -5\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`1 LSP framing: negative Content-Length "-5"`}},
		{name: "length beyond int64", input: "Content-Length: 99999999999999999999\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`out of range`}},
		{name: "empty length", input: "Content-Length:\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`empty Content-Length`}},
		{name: "conflicting lengths", input: "Content-Length: 3\r\nContent-Length: 4\r\n\r\n" + msgB + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`conflicting Content-Length headers 3 and 4`}},
		{name: "garbage line", framing: FramingLSP, input: "hello world\r\n" + lsp(msgA) + lsp(msgB),
			want: []string{msgA, msgB}, wantLog: []string{`malformed header line "hello world"`}},
		{name: "garbage with a colon is not taken for a header", framing: FramingLSP, input: `{"a":1}` + "\r\n\r\n" + lsp(msgA),
			want: []string{msgA}, wantLog: []string{`malformed header line`}},
		{name: "header line longer than 8 KiB", input: "Content-Type: " + long + "\r\n" + lsp(msgA),
			want: []string{msgA}, wantLog: []string{"header line longer than 8192 bytes"}},
		{name: "header line without newline followed by a frame", framing: FramingLSP, input: long + lsp(msgA),
			want: []string{msgA}, wantLog: []string{"header line longer than 8192 bytes"}},
		{name: "resync finds a lowercase header", input: "Content-Length: x\r\n\r\n" + strings.ToLower(lsp(msgA)[:15]) + lsp(msgA)[15:],
			want: []string{msgA}, wantLog: []string{"is not a number"}},
		{name: "resync ignores Content-Length text inside a JSON string",
			input: "Content-Length: x\r\n\r\n" + `{"note":"Content-Length: 12\r\n"}` + lsp(msgA),
			want:  []string{msgA}, wantLog: []string{"is not a number"}},
		{name: "body longer than its Content-Length: the next header is recovered from the same line",
			input:   "Content-Length: 5\r\n\r\n" + msgB + lsp(msgA),
			want:    []string{msgA},
			wantOut: lsp(strings.TrimSuffix(errReply("null", -32700, "Parse error: unexpected end of JSON input"), "\n")),
			wantLog: []string{`1 LSP framing: skipped "nrpc\":\"2.0\",\"method\":\"b\"}" before a Content-Length header`}},
		{name: "EOF while resynchronising", input: "Content-Length: x\r\n\r\n{}", wantLog: []string{"is not a number"}},
		{name: "EOF inside a header", input: "Content-Len"},
	})
}

func TestStreamOversizeBodyIsDiscardedExactly(t *testing.T) {
	const max = 32
	big := `{"jsonrpc":"2.0","method":"big","params":{"p":"0123456789"}}` // 61 bytes
	// Its header text is in a JSON string, so it has no raw line break: it
	// must be discarded with the body, not taken for the next frame.
	tricky := `{"x":"` + strings.Repeat("y", 20) + `Content-Length: 5\r\n"}`
	oneOver := `{"jsonrpc":"2.0","method":"abcd"}` // exactly max+1 bytes
	if len(oneOver) != max+1 {
		t.Fatalf("oneOver is %d bytes", len(oneOver))
	}
	small := `{"id":1,"method":"s"}`
	runStreamCases(t, []streamCase{
		{name: "one byte over the limit", max: max, input: lsp(oneOver) + lsp(small),
			want: []string{small}, wantLog: []string{"1 LSP framing: Content-Length 33 exceeds the 32 byte message limit"}},
		{name: "body at the limit is read", max: max + 1, input: lsp(oneOver) + lsp(small), want: []string{oneOver, small}},
		{name: "oversize body", max: max, input: lsp(big) + lsp(small), want: []string{small}, wantLog: []string{"exceeds"}},
		{name: "oversize body with header-like text", max: max, input: lsp(tricky) + lsp(small), want: []string{small}, wantLog: []string{"exceeds"}},
		{name: "two oversize bodies in a row", max: max, input: lsp(big) + lsp(tricky) + lsp(small),
			want: []string{small}, wantLog: []string{"exceeds", "exceeds"}},
		{name: "EOF inside an oversize body", max: max, input: lsp(big)[:40], wantLog: []string{"exceeds"}},
	})
}

func TestStreamHugeContentLengthIsNeverAllocated(t *testing.T) {
	input := "Content-Length: 1099511627776\r\n\r\n" + msgB + lsp(msgA)
	var logs logRecorder
	s := NewStream(strings.NewReader(input), io.Discard, nil, StreamOptions{Log: logs.log})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := readAll(t, s)
	runtime.ReadMemStats(&after)
	if err != io.EOF {
		t.Fatalf("err = %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Errorf("reading allocated %d bytes", grew)
	}
	if len(got) != 1 || got[0] != msgA {
		t.Errorf("delivered %q, want the frame after the huge one", got)
	}
	if l := logs.all(); len(l) != 1 || !strings.Contains(l[0], "Content-Length 1099511627776 exceeds the 67108864 byte message limit") {
		t.Errorf("log = %q", l)
	}
}

func TestStreamLargeBodyWithinLimitIsRead(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"m","params":{"s":"` + strings.Repeat("z", 300<<10) + `"}}`
	runStreamCases(t, []streamCase{
		{name: "LSP", input: lsp(body) + lsp(msgA), want: []string{body, msgA}},
		{name: "NDJSON", input: body + "\n" + msgA + "\n", want: []string{body, msgA}},
	})
}

func TestStreamJSONLLongLineIsDiscarded(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"m","params":{"s":"` + strings.Repeat("z", 20000) + `"}}`
	fits := `{"id":1,"method":"fits","params":{"s":"1234"}}` // 46 bytes
	runStreamCases(t, []streamCase{
		{name: "long line then a valid one", max: 64, input: long + "\n" + msgA + "\n",
			want: []string{msgA}, wantLog: []string{"1 NDJSON: skipped a message line longer than the 64 byte limit"}},
		{name: "limit excludes the CRLF", max: int64(len(fits)), input: fits + "\r\n" + fits + "\n", want: []string{fits, fits}},
		{name: "one byte over", max: int64(len(fits)) - 1, input: fits + "\r\n" + `{"jsonrpc":"2.0"}` + "\n",
			wantOut: errReply("null", -32600, "missing method"), wantLog: []string{"skipped a message line"}},
		{name: "long last line without newline", max: 64, input: msgA + "\n" + long,
			want: []string{msgA}, wantLog: []string{"skipped a message line"}},
	})
}

func TestStreamEOFInsideBodyIsEOF(t *testing.T) {
	for _, tc := range []struct{ name, input string }{
		{"inside an LSP body", lsp(msgA) + "Content-Length: 100\r\n\r\n{\"partial\":"},
		{"inside the header block", lsp(msgA) + "Content-Length: 100\r\n"},
		{"inside a header line", lsp(msgA) + "Content-Len"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			s := NewStream(strings.NewReader(tc.input), io.Discard, nil, StreamOptions{BeforeEOF: func() { calls.Add(1) }})
			got, err := readAll(t, s)
			if err != io.EOF || len(got) != 1 {
				t.Fatalf("got %q, %v; want one message and io.EOF", got, err)
			}
			var m json.RawMessage
			if err := s.ReadObject(&m); err != io.EOF {
				t.Errorf("second read after EOF: %v", err)
			}
			if calls.Load() != 1 {
				t.Errorf("BeforeEOF called %d times, want 1", calls.Load())
			}
		})
	}
}

func TestStreamBeforeEOFRunsOnceBeforeEOFIsReturned(t *testing.T) {
	var out lockedBuffer
	var s *Stream
	var returned atomic.Bool
	calls := 0
	s = NewStream(strings.NewReader(msgA+"\n"), &out, nil, StreamOptions{BeforeEOF: func() {
		calls++
		if returned.Load() {
			t.Error("BeforeEOF ran after ReadObject returned io.EOF")
		}
		// A reply written while draining must still go out.
		time.Sleep(10 * time.Millisecond)
		if err := s.WriteRaw([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`)); err != nil {
			t.Error(err)
		}
	}})
	if _, err := readAll(t, s); err != io.EOF {
		t.Fatal(err)
	}
	returned.Store(true)
	for range 3 {
		var m json.RawMessage
		if err := s.ReadObject(&m); err != io.EOF {
			t.Fatalf("read after EOF: %v", err)
		}
	}
	if calls != 1 {
		t.Errorf("BeforeEOF called %d times, want 1", calls)
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":null}` + "\n"; out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}
}

// errReader fails with a non-EOF error after its data.
type errReader struct {
	data []byte
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestStreamReadErrorsAreReturnedAsIs(t *testing.T) {
	boom := errors.New("boom")
	called := false
	s := NewStream(&errReader{data: []byte(lsp(msgA)), err: boom}, io.Discard, nil, StreamOptions{BeforeEOF: func() { called = true }})
	got, err := readAll(t, s)
	if !errors.Is(err, boom) || len(got) != 1 {
		t.Errorf("got %q, %v; want one message and boom", got, err)
	}
	if called {
		t.Error("BeforeEOF called for a read error that is not EOF")
	}
}

// chunkWriter delivers each Write in small pieces, yielding between them, so
// that two unserialised Writes would interleave.
type chunkWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i += 7 {
		w.mu.Lock()
		w.buf.Write(p[i:min(i+7, len(p))])
		w.mu.Unlock()
		runtime.Gosched()
	}
	return len(p), nil
}

func TestStreamConcurrentWritesNeverInterleave(t *testing.T) {
	for _, framing := range []Framing{FramingLSP, FramingJSONL} {
		t.Run(framing.String(), func(t *testing.T) {
			var w chunkWriter
			s := NewStream(strings.NewReader(""), &w, nil, StreamOptions{Framing: framing})
			const writers, each = 16, 40
			var wg sync.WaitGroup
			for g := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range each {
						id := jsonrpc2.ID{Num: uint64(g*each + i)}
						resp := &jsonrpc2.Response{ID: id}
						_ = resp.SetResult(map[string]string{"pad": strings.Repeat("p", (g*131+i*17)%500)})
						var err error
						if i%2 == 0 {
							err = s.WriteObject(resp)
						} else {
							b, _ := json.Marshal(resp)
							err = s.WriteRaw(b)
						}
						if err != nil {
							t.Error(err)
						}
					}
				}()
			}
			wg.Wait()

			// Parse the output back with the stream itself.
			back := NewStream(bytes.NewReader(w.buf.Bytes()), io.Discard, nil, StreamOptions{Framing: framing})
			seen := map[uint64]bool{}
			for {
				var r jsonrpc2.Response
				err := back.ReadObject(&r)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if seen[r.ID.Num] {
					t.Fatalf("id %d twice", r.ID.Num)
				}
				seen[r.ID.Num] = true
			}
			if len(seen) != writers*each {
				t.Errorf("read back %d messages, want %d", len(seen), writers*each)
			}
		})
	}
}

// pipeRWC joins a reader and a writer into the io.ReadWriteCloser that
// jsonrpc2.NewBufferedStream wants.
type pipeRWC struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeRWC) Close() error {
	for _, c := range p.closers {
		c.Close()
	}
	return nil
}

// echoHandler answers every request with its params and counts
// notifications.
func echoHandler(seen chan<- *jsonrpc2.Request) jsonrpc2.Handler {
	return jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if seen != nil {
			seen <- req
		}
		if req.Params == nil {
			return map[string]any{}, nil
		}
		return req.Params, nil
	}).SuppressErrClosed()
}

func TestStreamEndToEndWithLibraryClients(t *testing.T) {
	for _, tc := range []struct {
		name   string
		client func(io.ReadWriteCloser) jsonrpc2.ObjectStream
	}{
		{"LSP client", func(rwc io.ReadWriteCloser) jsonrpc2.ObjectStream {
			return jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{})
		}},
		{"NDJSON client", jsonrpc2.NewPlainObjectStream},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			toServerR, toServerW := io.Pipe()
			toClientR, toClientW := io.Pipe()

			server := NewStream(toServerR, toClientW, pipeRWC{closers: []io.Closer{toServerR, toClientW}}, StreamOptions{})
			sconn := jsonrpc2.NewConn(ctx, server, echoHandler(nil))
			defer sconn.Close()

			notes := make(chan *jsonrpc2.Request, 1)
			client := tc.client(pipeRWC{toClientR, toServerW, []io.Closer{toClientR, toServerW}})
			cconn := jsonrpc2.NewConn(ctx, client, jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(
				func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
					notes <- req
					return nil, nil
				})))
			defer cconn.Close()

			var got map[string]any
			if err := cconn.Call(ctx, "echo", map[string]any{"x": 1, "s": "<&>"}, &got); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != "map[s:<&> x:1]" {
				t.Errorf("result = %v", got)
			}
			// A string id works too.
			if err := cconn.Call(ctx, "echo", map[string]any{"y": true}, &got, jsonrpc2.PickID(jsonrpc2.ID{Str: "req-1", IsString: true})); err != nil {
				t.Fatal(err)
			}
			// Notifications written outside the Conn reach the client.
			if err := server.WriteRaw([]byte(`{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"hi"}}`)); err != nil {
				t.Fatal(err)
			}
			select {
			case n := <-notes:
				if n.Method != "window/logMessage" || !n.Notif {
					t.Errorf("notification = %+v", n)
				}
			case <-ctx.Done():
				t.Fatal("notification not received")
			}
			// Closing the client ends the server's input: a clean EOF closes
			// the server Conn.
			cconn.Close()
			select {
			case <-sconn.DisconnectNotify():
			case <-ctx.Done():
				t.Fatal("server did not see EOF")
			}
		})
	}
}

// runConn feeds input to a real jsonrpc2 server Conn over a Stream and
// returns what it wrote, what the Conn logged, and the requests it handled.
// It fails if the Conn closes for any reason but the end of the input.
func runConn(t testing.TB, input []byte, opts StreamOptions) (out string, connLog string, reqs []*jsonrpc2.Request) {
	t.Helper()
	var w lockedBuffer
	var lg lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan *jsonrpc2.Request, 1024)
	s := NewStream(bytes.NewReader(input), &w, nil, opts)
	conn := jsonrpc2.NewConn(ctx, s, echoHandler(seen), jsonrpc2.SetLogger(logPrintf{&lg}))
	select {
	case <-conn.DisconnectNotify():
	case <-time.After(20 * time.Second):
		t.Fatalf("the connection did not end on input %q", input)
	}
	close(seen)
	for r := range seen {
		reqs = append(reqs, r)
	}
	if strings.Contains(lg.String(), "protocol error") {
		t.Fatalf("the library closed the connection on input %q: %s", input, lg.String())
	}
	return w.String(), lg.String(), reqs
}

type logPrintf struct{ w io.Writer }

func (l logPrintf) Printf(format string, args ...any) { fmt.Fprintf(l.w, format, args...) }

func TestStreamWrapsIDsTheLibraryCannotCarry(t *testing.T) {
	for _, raw := range []string{
		`-1`,
		`-0`,
		`-9223372036854775808`,
		`9223372036854775808`,  // above int64: the library's request parsing fails
		`18446744073709551616`, // above uint64
		`123456789012345678901234567890`,
		`"\u0000hookd-id:-1"`, // a host string that looks like a wrapped id
		`0`,
		`9223372036854775807`,
		`"plain"`,
	} {
		t.Run(raw, func(t *testing.T) {
			for _, framing := range []Framing{FramingJSONL, FramingLSP} {
				req := `{"jsonrpc":"2.0","id":` + raw + `,"method":"echo","params":{"k":"v"}}`
				in := req + "\n"
				want := `{"id":` + raw + `,"result":{"k":"v"},"jsonrpc":"2.0"}`
				if framing == FramingLSP {
					in, want = lsp(req), lsp(want)
				} else {
					want += "\n"
				}
				out, _, reqs := runConn(t, []byte(in), StreamOptions{})
				if out != want {
					t.Errorf("%v: wrote %q, want %q", framing, out, want)
				}
				if len(reqs) != 1 {
					t.Fatalf("handled %d requests", len(reqs))
				}
				id, err := DecodeID([]byte(raw))
				if err != nil {
					t.Fatal(err)
				}
				if reqs[0].ID != id {
					t.Errorf("handler saw id %v, DecodeID says %v", reqs[0].ID, id)
				}
			}
		})
	}
}

func TestStreamDecodeID(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    jsonrpc2.ID
		wantErr bool
	}{
		{raw: `5`, want: jsonrpc2.ID{Num: 5}},
		{raw: ` "a" `, want: jsonrpc2.ID{Str: "a", IsString: true}},
		{raw: `-1`, want: jsonrpc2.ID{Str: idPrefix + "-1", IsString: true}},
		{raw: `1.5`, wantErr: true},
		{raw: `null`, wantErr: true},
		{raw: `{`, wantErr: true},
	} {
		got, err := DecodeID([]byte(tc.raw))
		if got != tc.want || (err != nil) != tc.wantErr {
			t.Errorf("DecodeID(%s) = %v, %v; want %v, error %v", tc.raw, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestStreamNeverLetsTheLibraryCloseOnBadInput drives a real Conn with input
// that makes the library's own codecs close the connection.
func TestStreamNeverLetsTheLibraryCloseOnBadInput(t *testing.T) {
	const ok = `{"jsonrpc":"2.0","id":100,"method":"echo","params":{"ok":1}}`
	for _, bad := range []string{
		`{"jsonrpc":"2.0","id":1,`,
		`[{"jsonrpc":"2.0","id":1,"method":"a"}]`,
		`[]`,
		`{"id":1.5,"method":"a"}`,
		`{"id":1,"method":"a","Result":1}`,
		`{"id":1,"METHOD":"a"}`,
		`{"id":1,"method":"a","METHOD":2}`,
		`{"id":1,"error":"not an object"}`,
		`{"id":1,"error":{"code":"x"}}`,
		`{"id":null,"result":1}`,
		`{"id":-1,"result":1}`,
		`{"method":"n","params":[1]}`,
		`{"method":"n","id":1,"params":{"a":1},"meta":5}`,
		`{}`,
		`null`,
	} {
		for _, framing := range []Framing{FramingJSONL, FramingLSP} {
			in := bad + "\n" + ok + "\n"
			if framing == FramingLSP {
				in = lsp(bad) + lsp(ok)
			}
			out, _, _ := runConn(t, []byte(in), StreamOptions{Framing: framing})
			if !strings.Contains(out, `{"id":100,"result":{"ok":1},"jsonrpc":"2.0"}`) {
				t.Errorf("%v %s: the valid request after it was not answered; wrote %q", framing, bad, out)
			}
		}
	}
}

type countingCloser struct{ n atomic.Int32 }

func (c *countingCloser) Close() error {
	if c.n.Add(1) > 1 {
		return errors.New("closed twice")
	}
	return nil
}

func TestStreamCloseIsIdempotent(t *testing.T) {
	var c countingCloser
	s := NewStream(strings.NewReader(""), io.Discard, &c, StreamOptions{})
	for range 3 {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if c.n.Load() != 1 {
		t.Errorf("closer called %d times", c.n.Load())
	}
	if err := NewStream(strings.NewReader(""), io.Discard, nil, StreamOptions{}).Close(); err != nil {
		t.Errorf("Close with a nil closer: %v", err)
	}
}

// failingWriter fails every Write and counts the calls.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("broken pipe")
}

// After a failed write nothing more is written: the peer may hold half a frame.
func TestStreamWriteErrorSticks(t *testing.T) {
	var w failingWriter
	s := NewStream(strings.NewReader(""), &w, nil, StreamOptions{})
	for range 3 {
		if err := s.WriteRaw([]byte(`{}`)); err == nil {
			t.Fatal("write succeeded")
		}
	}
	if w.n != 1 {
		t.Errorf("underlying Write called %d times, want 1", w.n)
	}
}

func FuzzStreamRead(f *testing.F) {
	for _, seed := range []string{
		lsp(msgA) + lsp(msgB),
		msgA + "\n" + msgB + "\n",
		"Content-Length: 1099511627776\r\n\r\n" + lsp(msgA),
		"Content-Length: -1\r\n\r\n{}",
		"content-length: 5\n\n{\"a\":1}Content-Length: 2\r\n\r\n{}",
		`{"id":-1,"method":"a","params":[]}` + "\n" + `[1]` + "\n" + `{"id":1e3}`,
		"\xEF\xBB\xBF{}\n",
		"Content-Length:",
		"Content-Length: 3\r\n\r\n[1]",
		`{"id":"\u0000hookd-id:x","method":"m"}` + "\n",
	} {
		f.Add([]byte(seed), uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		opts := StreamOptions{Framing: Framing(mode % 3), MaxMessageBytes: 64, Log: func(int, string) {}}
		var eofs int
		opts.BeforeEOF = func() { eofs++ }
		var out lockedBuffer
		s := NewStream(bytes.NewReader(data), &out, nil, opts)
		// Every delivered message consumes at least one byte.
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("ReadObject keeps returning messages")
			}
			var m json.RawMessage
			err := s.ReadObject(&m)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("ReadObject: %v", err)
			}
			if !json.Valid(m) {
				t.Fatalf("delivered invalid JSON %q", m)
			}
		}
		if eofs != 1 {
			t.Fatalf("BeforeEOF called %d times", eofs)
		}
		// Whatever the stream wrote back must parse as whole frames of
		// valid JSON.
		var backOut bytes.Buffer
		back := NewStream(strings.NewReader(out.String()), &backOut, nil, StreamOptions{Framing: Framing(s.framing.Load())})
		for {
			var m json.RawMessage
			if rerr := back.ReadObject(&m); rerr == io.EOF {
				break
			} else if rerr != nil {
				t.Fatalf("reading back %q: %v", out.String(), rerr)
			}
		}
		if backOut.Len() != 0 {
			t.Fatalf("the stream wrote %q, which reads back as bad messages: %q", out.String(), backOut.String())
		}
		// The same input through the real library never closes it early.
		runConn(t, data, StreamOptions{Framing: opts.Framing, MaxMessageBytes: 64})
	})
}

// probes is n LSP frames, requests with ids 1..n.
func probes(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(lsp(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"probe"}`, i)))
	}
	return b.String()
}

func TestStreamContentLengthLongerThanItsBodyResyncsAtTheNextHeader(t *testing.T) {
	bad := `{"jsonrpc":"2.0","id":0,"method":"bad"}`
	for _, tc := range []struct {
		name    string
		length  int
		wantLog string
	}{
		// The lie ends inside the following frames: they are read again
		// from the first header inside the swallowed bytes.
		{"length ends within later frames", 2000, "ran past its message"},
		// The lie runs past the end of input: same, and the end is logged.
		{"length runs past the end of input", 1 << 20, "ran past its message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs logRecorder
			input := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", tc.length, bad) + probes(100)
			s := NewStream(strings.NewReader(input), io.Discard, nil, StreamOptions{Log: logs.log})
			got, err := readAll(t, s)
			if err != io.EOF {
				t.Fatalf("ReadObject error = %v, want io.EOF", err)
			}
			answered := 0
			for _, m := range got {
				if strings.Contains(m, `"probe"`) {
					answered++
				}
			}
			if answered != 100 {
				t.Errorf("%d of 100 probes after a bad frame were read, want 100", answered)
			}
			if len(got) == 0 || got[0] != bad {
				t.Errorf("the message under the lying length: %q, want it delivered", got[:min(1, len(got))])
			}
			if !strings.Contains(strings.Join(logs.all(), "\n"), tc.wantLog) {
				t.Errorf("log = %q, want %q", logs.all(), tc.wantLog)
			}
		})
	}
}

func TestStreamInputEndingInsideABodyIsLogged(t *testing.T) {
	var logs logRecorder
	s := NewStream(strings.NewReader(lsp(msgA)+"Content-Length: 100\r\n\r\n{\"partial\":"), io.Discard, nil, StreamOptions{Log: logs.log})
	if _, err := readAll(t, s); err != io.EOF {
		t.Fatalf("ReadObject error = %v, want io.EOF", err)
	}
	if !strings.Contains(strings.Join(logs.all(), "\n"), "input ended 11 bytes into a body announced as 100 bytes") {
		t.Errorf("log = %q, want the truncated body named", logs.all())
	}
}
