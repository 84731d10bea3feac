package rpc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/internal/jsonrpcmsg"
	"github.com/hookd/hookd/internal/rawio"
)

// Framing is how JSON-RPC messages are delimited on the byte stream.
type Framing int

const (
	// FramingAuto picks LSP or NDJSON from the first non-whitespace input byte.
	FramingAuto Framing = iota
	// FramingLSP is the LSP base protocol: "Content-Length: N\r\n\r\n" + N bytes.
	FramingLSP
	// FramingJSONL is newline-delimited JSON: one message per line.
	FramingJSONL
)

// String returns the --framing spelling of f.
func (f Framing) String() string {
	switch f {
	case FramingAuto:
		return "auto"
	case FramingLSP:
		return "lsp"
	case FramingJSONL:
		return "jsonl"
	}
	return "Framing(" + strconv.Itoa(int(f)) + ")"
}

// ParseFraming parses a --framing value: "auto", "lsp" or "jsonl".
func ParseFraming(s string) (Framing, error) {
	switch s {
	case "auto":
		return FramingAuto, nil
	case "lsp":
		return FramingLSP, nil
	case "jsonl":
		return FramingJSONL, nil
	}
	return FramingAuto, fmt.Errorf("invalid framing %q: want auto, lsp or jsonl", s)
}

// DefaultMaxMessageBytes is the message size limit used when
// StreamOptions.MaxMessageBytes is not positive.
const DefaultMaxMessageBytes = 64 << 20

const (
	// maxHeaderLine bounds an LSP header line. It is also the read buffer size,
	// so bufio itself refuses to hold a longer line and a stream that never
	// sends a newline cannot make us buffer more than this.
	maxHeaderLine = 8 << 10
	// initialBodyCap is all we allocate up front for a body, whatever length
	// the header announces; the rest grows only as bytes arrive.
	initialBodyCap = 64 << 10
	// logSnippet bounds how much of a bad input is quoted in a log message.
	logSnippet = 80

	// idPrefix marks a string id that stands for an id the library cannot
	// carry (a negative or too large integer). The NUL makes a collision with a
	// host's own string id implausible; a host string id that starts with it
	// anyway is wrapped the same way, so it too comes back byte for byte.
	idPrefix = "\x00hookd-id:"
)

// escapedIDPrefix is idPrefix as encoding/json writes it inside a string; it
// lets WriteObject skip the id lookup for almost every message.
var escapedIDPrefix = []byte(`"\u0000hookd-id:`)

// StreamOptions configure NewStream.
type StreamOptions struct {
	Framing Framing
	// MaxMessageBytes bounds one message body; DefaultMaxMessageBytes when 0
	// (or negative).
	MaxMessageBytes int64
	// Log is called for frame-level problems (bad header, oversize) and for
	// dropped messages that cannot be answered; the server turns it into a
	// window/logMessage notification. msgType is 1 (error) or 2 (warning).
	// It is never called with a lock held, so it may write to the stream.
	// May be nil.
	Log func(msgType int, message string)
	// BeforeEOF is called (and waited for) when the reader hits EOF, before
	// ReadObject returns io.EOF; the server uses it to drain in-flight
	// requests so their replies are written before the connection closes.
	// May be nil.
	BeforeEOF func()
	// DetachParams hands the library requests and notifications without
	// their params, which Params then returns, sliced from the message as
	// read: the library would otherwise parse and copy them twice, and a
	// 60 MB request would be held three times over.
	DetachParams bool
	// WriteTimeout bounds the write of one frame: a host that has not taken a
	// frame within it has stopped reading stdout. The write is abandoned,
	// every later write fails with ErrWriteStuck, and OnWriteStuck is called.
	// 0 (or negative): no bound, only Abandon ends a blocked write.
	WriteTimeout time.Duration
	// OnWriteStuck is called once, on its own goroutine, when a write times
	// out (not when it is abandoned). May be nil.
	OnWriteStuck func()
	// OnWriteFailed is called once, on its own goroutine, when a write
	// fails (the host closed stdout: EPIPE). Nothing can be written after
	// it. May be nil.
	OnWriteFailed func(err error)
}

// ErrWriteStuck is the error of every write after one that timed out or was
// abandoned: the host stopped reading, and a frame may have been cut.
var ErrWriteStuck = errors.New("rpc: the host stopped reading stdout; no more messages can be written")

// Stream is a jsonrpc2.ObjectStream over a byte reader and writer, with LSP or
// NDJSON framing. Unlike the library's codecs it never gives up on a bad
// frame or message: it answers what can be answered with a JSON-RPC error,
// logs the rest through StreamOptions.Log, and reads on. Only a clean end of
// input (io.EOF) or a real I/O error ends ReadObject.
type Stream struct {
	br     *bufio.Reader
	src    *pushback // what br reads from: the input, after any bytes put back
	w      io.Writer
	closer io.Closer
	opts   StreamOptions
	max    int64
	mode   Framing

	// framing is what writes use: FramingAuto until the reader has detected
	// the input's framing, which writes then treat as LSP.
	framing atomic.Int32

	readMu  sync.Mutex
	started bool // the byte order mark and, in auto mode, the framing are settled
	resync  bool // the last LSP header was bad: seek the next Content-Length
	lastEOF bool // NDJSON: the final, unterminated line was returned; EOF is next
	atEOF   bool
	eofOnce sync.Once

	// params is the raw "params" of the message last handed to the
	// library, which re-encodes params through a map (sorting keys and
	// escaping <, > and &). See Params.
	params atomic.Pointer[[]byte]

	writeMu sync.Mutex
	werr    error
	// abandon is closed by Abandon: a blocked write returns at once.
	abandon     chan struct{}
	abandonOnce sync.Once
	stuckOnce   sync.Once
	// dw is w when it is a file the network poller waits on (a pipe or
	// socket in non-blocking mode): its writes block no thread and take a
	// deadline, so they are made on the writer's own goroutine (see write).
	// dlMu orders the deadline a write sets with Abandon's.
	dw   deadlineWriter
	dlMu sync.Mutex

	closeOnce sync.Once
	closeErr  error

	// libraryCodec makes every message go through the library's own
	// encoding and decoding (see message.go); tests compare the two.
	libraryCodec bool

	// calls are hookd's own requests to the host that await an answer, by
	// id (Expect). Their answers never reach the library, so nothing of a
	// call outlives the wait for it.
	callsMu sync.Mutex
	calls   map[uint64]chan []byte
}

// Expect registers a call to the host with id (a request hookd writes
// itself, WriteRaw): the response with that id is sent on answer, once,
// instead of reaching the library. forget, which the caller defers,
// unregisters the call: after it an answer is dropped as one to no request.
// The library keeps each call it sends, params included, until an answer
// arrives, however long after its caller gave up; a host that never answers
// would make hookd hold every call of the session.
func (s *Stream) Expect(id uint64) (answer <-chan []byte, forget func()) {
	ch := make(chan []byte, 1)
	s.callsMu.Lock()
	if s.calls == nil {
		s.calls = map[uint64]chan []byte{}
	}
	s.calls[id] = ch
	s.callsMu.Unlock()
	return ch, func() {
		s.callsMu.Lock()
		delete(s.calls, id)
		s.callsMu.Unlock()
	}
}

// answerCall hands a response to the call that Expect registered for its
// id, and reports whether there was one.
func (s *Stream) answerCall(body []byte) bool {
	id := gjson.GetBytes(body, "id")
	if id.Type != gjson.Number {
		return false
	}
	n, err := strconv.ParseUint(id.Raw, 10, 64)
	if err != nil {
		return false
	}
	s.callsMu.Lock()
	ch := s.calls[n]
	delete(s.calls, n)
	s.callsMu.Unlock()
	if ch == nil {
		return false
	}
	ch <- body
	return true
}

// NewStream returns a Stream that reads messages from r and writes them to w.
// Close closes closer (typically stdin and stdout) when it is not nil.
func NewStream(r io.Reader, w io.Writer, closer io.Closer, opts StreamOptions) *Stream {
	if f := rawio.Of(r); f != nil {
		r = f
	}
	if f := rawio.Of(w); f != nil {
		w = f
	}
	src := &pushback{r: r}
	s := &Stream{
		src:    src,
		br:     bufio.NewReaderSize(src, maxHeaderLine),
		w:      w,
		closer: closer,
		opts:   opts,
		max:    opts.MaxMessageBytes,
		mode:   opts.Framing,

		abandon: make(chan struct{}),
	}
	if s.max <= 0 {
		s.max = DefaultMaxMessageBytes
	}
	s.framing.Store(int32(opts.Framing))
	// SetWriteDeadline fails (os.ErrNoDeadline) on a file the poller does
	// not wait on; the zero time clears nothing that was set.
	if dw, ok := w.(deadlineWriter); ok && dw.SetWriteDeadline(time.Time{}) == nil {
		s.dw = dw
	}
	return s
}

// deadlineWriter is a writer whose blocked Write a deadline ends.
type deadlineWriter interface {
	io.Writer
	SetWriteDeadline(t time.Time) error
}

// Close closes the closer given to NewStream. Only the first call closes; the
// later ones return the first one's result.
func (s *Stream) Close() error {
	s.closeOnce.Do(func() {
		if s.closer != nil {
			s.closeErr = s.closer.Close()
		}
	})
	return s.closeErr
}

func (s *Stream) logf(msgType int, format string, args ...any) {
	if s.opts.Log != nil {
		s.opts.Log(msgType, fmt.Sprintf(format, args...))
	}
}

// ---------------------------------------------------------------- writing

// WriteObject marshals obj with encoding/json and writes it as one frame.
// An id the reader had to wrap (see DecodeID) is written back as the host sent
// it, so a reply to id -1 says -1.
//
// The library's messages marshal themselves with encoding/json, so their
// MarshalJSON is called directly: json.Marshal would only scan its output
// again to compact and escape what is already compact and escaped (a tenth
// of the CPU of a no-match hooks/run). Output with a line break, which
// NDJSON cannot carry, is still compacted. A plain result response is
// written directly (message.go).
func (s *Stream) WriteObject(obj any) error {
	if m := s.view(obj); m != nil && m.Request == nil && m.Response != nil {
		if data, ok := jsonrpcmsg.AppendResponse(nil, m.Response); ok {
			return s.writeFrame(restoreID(data))
		}
	}
	var (
		data []byte
		err  error
	)
	if m, ok := obj.(json.Marshaler); ok && !isNilPointer(obj) {
		data, err = m.MarshalJSON()
		if err == nil && (len(data) == 0 || bytes.ContainsAny(data, "\r\n")) {
			var buf bytes.Buffer
			if err = json.Compact(&buf, data); err == nil {
				data = buf.Bytes()
			}
		}
	} else {
		data, err = json.Marshal(obj)
	}
	if err != nil {
		return err
	}
	return s.writeFrame(restoreID(data))
}

// view is jsonrpcmsg.Of, unless the stream is set to use the library's codec
// for everything.
func (s *Stream) view(v any) *jsonrpcmsg.Message {
	if s.libraryCodec {
		return nil
	}
	return jsonrpcmsg.Of(v)
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// WriteRaw writes msg, one already-encoded JSON message, as one frame. It is
// for notifications written outside the jsonrpc2.Conn. msg is compacted if it
// contains line breaks, because NDJSON cannot carry them.
func (s *Stream) WriteRaw(msg []byte) error {
	if !json.Valid(msg) {
		return errors.New("rpc: WriteRaw: message is not valid JSON")
	}
	if bytes.ContainsAny(msg, "\r\n") {
		var buf bytes.Buffer
		if err := json.Compact(&buf, msg); err != nil {
			return err
		}
		msg = buf.Bytes()
	} else {
		msg = bytes.TrimSpace(msg)
	}
	return s.writeFrame(restoreID(msg))
}

// writeFrame writes body framed, in a single Write call under writeMu: the
// Conn, WriteRaw callers and the reader's own error replies all write
// concurrently, and a frame split across calls could interleave with another.
func (s *Stream) writeFrame(body []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	// After a failed write the peer may have received part of a frame; anything
	// written after it would be misread, so the first error sticks.
	if s.werr != nil {
		return s.werr
	}
	var frame []byte
	if Framing(s.framing.Load()) == FramingJSONL {
		frame = make([]byte, 0, len(body)+1)
		frame = append(frame, body...)
		frame = append(frame, '\n')
	} else {
		frame = make([]byte, 0, len(body)+40)
		frame = append(frame, "Content-Length: "...)
		frame = strconv.AppendInt(frame, int64(len(body)), 10)
		frame = append(frame, "\r\n\r\n"...)
		frame = append(frame, body...)
	}
	if err := s.write(frame); err != nil {
		s.werr = err
		return err
	}
	return nil
}

// write hands frame to the writer on a goroutine of its own, so that a host
// that stops reading stdout (a full pipe) can never hold writeMu, and with it
// every handler and the reader, for ever. A write that times out or is
// abandoned leaves that goroutine blocked in Write: it owns nothing but the
// frame, and the process ends soon after, as the session does.
func (s *Stream) write(frame []byte) error {
	select {
	case <-s.abandon:
		return ErrWriteStuck
	default:
	}
	if s.dw != nil {
		return s.writeDeadline(frame)
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.w.Write(frame)
		done <- err
	}()
	var timeout <-chan time.Time
	if s.opts.WriteTimeout > 0 {
		t := time.NewTimer(s.opts.WriteTimeout)
		defer t.Stop()
		timeout = t.C
	}
	select {
	case err := <-done:
		if err != nil && s.opts.OnWriteFailed != nil {
			s.stuckOnce.Do(func() { go s.opts.OnWriteFailed(err) })
		}
		return err
	case <-s.abandon:
		return ErrWriteStuck
	case <-timeout:
		s.stuckOnce.Do(func() {
			if s.opts.OnWriteStuck != nil {
				go s.opts.OnWriteStuck()
			}
		})
		return fmt.Errorf("%w (a frame waited %v)", ErrWriteStuck, s.opts.WriteTimeout)
	}
}

// writeDeadline is write on a writer the poller waits on: the frame is
// written on the caller's goroutine, with no goroutine started and woken per
// frame, and WriteTimeout and Abandon end a blocked write through its
// deadline instead of leaving it behind.
func (s *Stream) writeDeadline(frame []byte) error {
	if s.opts.WriteTimeout > 0 {
		s.dlMu.Lock()
		select {
		case <-s.abandon:
			s.dlMu.Unlock()
			return ErrWriteStuck
		default:
		}
		err := s.dw.SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
		s.dlMu.Unlock()
		if err != nil {
			return err
		}
	}
	_, err := s.dw.Write(frame)
	if err == nil {
		return nil
	}
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		if s.opts.OnWriteFailed != nil {
			s.stuckOnce.Do(func() { go s.opts.OnWriteFailed(err) })
		}
		return err
	}
	select {
	case <-s.abandon:
		return ErrWriteStuck
	default:
	}
	s.stuckOnce.Do(func() {
		if s.opts.OnWriteStuck != nil {
			go s.opts.OnWriteStuck()
		}
	})
	return fmt.Errorf("%w (a frame waited %v)", ErrWriteStuck, s.opts.WriteTimeout)
}

// Abandon makes a write blocked on a host that does not read return at once,
// and every later write fail with ErrWriteStuck. The server calls it when a
// session that is ending has given its last replies their chance.
func (s *Stream) Abandon() {
	s.abandonOnce.Do(func() {
		close(s.abandon)
		if s.dw != nil {
			// A deadline in the past ends a blocked write; under dlMu, so
			// that no write sets a later one after it.
			s.dlMu.Lock()
			_ = s.dw.SetWriteDeadline(time.Unix(1, 0))
			s.dlMu.Unlock()
		}
	})
}

// restoreID puts back the host's original id in a message whose top-level id
// is one the reader wrapped.
func restoreID(data []byte) []byte {
	if !bytes.Contains(data, escapedIDPrefix) {
		return data
	}
	id := gjson.GetBytes(data, "id")
	if id.Type != gjson.String || !strings.HasPrefix(id.Str, idPrefix) {
		return data
	}
	orig := []byte(id.Str[len(idPrefix):])
	// Only the reader makes these ids, but a handler could forge one; never
	// let it put invalid JSON on stdout.
	if !json.Valid(orig) {
		return data
	}
	out, err := sjson.SetRawBytes(data, "id", orig)
	if err != nil {
		return data
	}
	return out
}

// DecodeID converts an id as it appears on the wire (for example the id in
// $/cancelRequest params) into the jsonrpc2.ID that a request carrying that
// id has once it reaches a handler. Most ids map as jsonrpc2.ID's own decoding
// does; integers the library cannot hold (negative, or above 2^63-1) and
// strings that start with the stream's reserved prefix map to the wrapped
// string the stream gives the library instead.
func DecodeID(raw []byte) (jsonrpc2.ID, error) {
	raw = bytes.TrimSpace(raw)
	if !json.Valid(raw) {
		return jsonrpc2.ID{}, errors.New("id is not valid JSON")
	}
	v := gjson.ParseBytes(raw)
	switch classifyID(v) {
	case idPlain:
		if v.Type == gjson.String {
			return jsonrpc2.ID{Str: v.Str, IsString: true}, nil
		}
		n, err := strconv.ParseUint(v.Raw, 10, 64)
		if err != nil {
			return jsonrpc2.ID{}, err
		}
		return jsonrpc2.ID{Num: n}, nil
	case idWrapped:
		return jsonrpc2.ID{Str: idPrefix + v.Raw, IsString: true}, nil
	}
	return jsonrpc2.ID{}, errors.New("id must be a string or an integer")
}

// ---------------------------------------------------------------- reading

// ReadObject reads the next message that passes validation into v (the
// library's own message type: it is filled with json.Unmarshal). Messages
// that fail are answered with a JSON-RPC error or logged, and skipped. It
// returns io.EOF only at the end of input, after StreamOptions.BeforeEOF has
// returned; other read errors are returned as they are.
func (s *Stream) ReadObject(v any) error {
	s.readMu.Lock()
	defer s.readMu.Unlock()
	for {
		body, err := s.nextBody()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return s.eof()
			}
			return err
		}
		ok, err := s.deliver(body, v)
		if ok || err != nil {
			return err
		}
	}
}

// Params returns the params of the message most recently handed to the
// library, byte for byte as the host sent them (nil when it had none). The
// library calls the handler on its reader goroutine right after ReadObject
// returns, before it reads again, so a handler that calls Params first thing
// gets its own message's params: hooks then see the host's bytes, not the
// library's re-encoding with sorted keys and \u0026 for &.
//
// The stream forgets them once returned, so that they are freed with the
// request that took them rather than when the next message arrives.
func (s *Stream) Params() []byte {
	if p := s.params.Swap(nil); p != nil && len(*p) > 0 {
		return *p
	}
	return nil
}

// eof runs BeforeEOF once and makes every later read report io.EOF.
func (s *Stream) eof() error {
	s.atEOF = true
	s.eofOnce.Do(func() {
		if s.opts.BeforeEOF != nil {
			s.opts.BeforeEOF()
		}
	})
	return io.EOF
}

// deliver validates one message body and either fills v with it (true) or
// deals with it itself: an error reply, a log line, or both.
func (s *Stream) deliver(body []byte, v any) (bool, error) {
	vd := inspect(body)
	if vd.warn != "" {
		s.logf(2, "%s", vd.warn)
	}
	if vd.reply != nil {
		if err := s.writeFrame(vd.reply); err != nil {
			return false, fmt.Errorf("rpc: writing an error reply: %w", err)
		}
		return false, nil
	}
	if vd.msg == nil {
		return false, nil
	}
	if vd.kind == kindResponse && s.answerCall(vd.msg) {
		return false, nil
	}
	err := s.fill(vd, v)
	if err == nil {
		raw := vd.params
		s.params.Store(&raw)
		return true, nil
	}
	var invalid *json.InvalidUnmarshalError
	if errors.As(err, &invalid) {
		return false, err // a caller bug, not an input problem
	}
	// Whatever our checks missed, the library refuses: answer or log it
	// instead of letting the library close the connection.
	switch vd.kind {
	case kindRequest:
		if err := s.writeFrame(errorReply(vd.id, jsonrpc2.CodeInvalidRequest, "invalid request: "+err.Error())); err != nil {
			return false, fmt.Errorf("rpc: writing an error reply: %w", err)
		}
	case kindNotification:
		s.logf(2, "dropped an invalid notification: %v", err)
	default:
		s.logf(2, "dropped an invalid response: %v", err)
	}
	return false, nil
}

// fill puts the message vd delivers into v: for a request whose params the
// stream keeps, the skeleton, filled directly when it can be (message.go).
func (s *Stream) fill(vd verdict, v any) error {
	if !s.opts.DetachParams || vd.kind == kindResponse {
		return decodeInto(vd.msg, v)
	}
	if m := s.view(v); m != nil {
		if req, ok := skeletonRequest(vd.wireID, vd.method); ok {
			*m = jsonrpcmsg.Message{Request: req}
			return nil
		}
	}
	return decodeInto(skeleton(vd.wireID, vd.method), v)
}

// decodeInto unmarshals into a fresh value and only then copies it to v: a
// failed json.Unmarshal can leave the library's message half filled (its
// request pointer already set), and the next message read into it would be
// misclassified.
func decodeInto(body []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return json.Unmarshal(body, v) // reports the InvalidUnmarshalError
	}
	tmp := reflect.New(rv.Type().Elem())
	if err := json.Unmarshal(body, tmp.Interface()); err != nil {
		return err
	}
	rv.Elem().Set(tmp.Elem())
	return nil
}

// nextBody returns the next complete message body, whatever the framing.
func (s *Stream) nextBody() ([]byte, error) {
	if s.atEOF {
		return nil, io.EOF
	}
	if !s.started {
		if err := s.start(); err != nil {
			return nil, err
		}
		s.started = true
	}
	if Framing(s.framing.Load()) == FramingJSONL {
		return s.nextLine()
	}
	return s.nextFrame()
}

// start drops a UTF-8 byte order mark (invisible in editors, fatal to both
// framings) and, in auto mode, detects the framing from the first
// non-whitespace byte.
func (s *Stream) start() error {
	if p, err := s.br.Peek(1); err != nil {
		return err
	} else if p[0] == 0xEF {
		if p, _ := s.br.Peek(3); bytes.Equal(p, []byte{0xEF, 0xBB, 0xBF}) {
			_, _ = s.br.Discard(3)
		}
	}
	if s.mode != FramingAuto {
		return nil
	}
	for {
		p, err := s.br.Peek(1)
		if err != nil {
			return err
		}
		switch c := p[0]; c {
		case ' ', '\t', '\r', '\n':
			_, _ = s.br.Discard(1)
			continue
		case 'C', 'c':
			s.framing.Store(int32(FramingLSP))
		case '{', '[':
			s.framing.Store(int32(FramingJSONL))
		case '"', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			// Not a message, but a JSON value: NDJSON is the better guess,
			// and it gets the sender a -32600 reply rather than a resync.
			s.framing.Store(int32(FramingJSONL))
		default:
			s.framing.Store(int32(FramingLSP))
			// A letter may start some other header; anything else is a
			// guess worth reporting.
			if !isTokenChar(c) {
				s.logf(1, "cannot detect the framing: input starts with %q; assuming Content-Length (LSP) framing", c)
			}
		}
		return nil
	}
}

// nextLine returns the next non-blank NDJSON line.
func (s *Stream) nextLine() ([]byte, error) {
	for {
		if s.lastEOF {
			return nil, io.EOF
		}
		line, tooLong, err := s.readLine()
		if tooLong {
			s.logf(1, "NDJSON: skipped a message line longer than the %d byte limit", s.max)
		} else if len(bytes.TrimSpace(line)) > 0 {
			// A last line without its newline is still a whole message:
			// `printf '{...}' | hookd` should work.
			if err == io.EOF {
				s.lastEOF = true
				err = nil
			}
			if err == nil {
				return line, nil
			}
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine reads one line of at most s.max bytes (terminator excluded) and
// returns it without its "\n" or "\r\n". A longer line is consumed up to its
// newline but not kept: tooLong reports it.
func (s *Stream) readLine() (line []byte, tooLong bool, err error) {
	// Bytes collect in blocks that double up to maxBlock and are joined
	// once at the end: appending to one slice would leave every outgrown
	// copy behind as garbage, several times the line in all.
	const maxBlock = 4 << 20
	var blocks [][]byte
	var cur []byte
	total := int64(0)
	for {
		chunk, err := s.br.ReadSlice('\n')
		if !tooLong {
			// +2 leaves room for the "\r\n" that does not count.
			if total+int64(len(chunk)) > s.max+2 {
				tooLong, blocks, cur = true, nil, nil
			} else {
				total += int64(len(chunk))
				for len(chunk) > 0 {
					if len(cur) == cap(cur) {
						if cur != nil {
							blocks = append(blocks, cur)
						}
						cur = make([]byte, 0, min(max(2*cap(cur), 4<<10), maxBlock))
					}
					n := copy(cur[len(cur):cap(cur)], chunk)
					cur = cur[:len(cur)+n]
					chunk = chunk[n:]
				}
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return nil, true, err
		}
		line = cur
		if len(blocks) > 0 {
			line = make([]byte, 0, total)
			for _, b := range blocks {
				line = append(line, b...)
			}
			line = append(line, cur...)
		}
		line = trimEOL(line)
		if int64(len(line)) > s.max {
			return nil, true, err
		}
		return line, false, err
	}
}

func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'})
}

// frameError is an LSP header that cannot be used; the reader logs it and
// resynchronises.
type frameError string

func (e frameError) Error() string { return string(e) }

// nextFrame returns the next LSP frame's body, resynchronising past bad
// headers and skipping oversized bodies.
func (s *Stream) nextFrame() ([]byte, error) {
	for {
		n := int64(-1)
		if s.resync {
			k, err := s.seekHeader(-1)
			if err != nil {
				return nil, err
			}
			s.resync = false
			n = k
		}
		n, err := s.readHeaders(n)
		for err == nil && n > s.max {
			s.logf(1, "LSP framing: Content-Length %d exceeds the %d byte message limit; the message was skipped", n, s.max)
			// An honest peer sends n bytes, which are discarded unread. A
			// JSON body never holds a raw header line (raw line breaks
			// cannot occur inside JSON strings), so meeting one means the
			// length lied and the next frame has begun: go on from there.
			k, serr := s.seekHeader(n)
			if serr != nil {
				return nil, serr
			}
			n, err = s.readHeaders(k)
		}
		var fe frameError
		if errors.As(err, &fe) {
			s.logf(1, "LSP framing: %s; skipping to the next Content-Length header", fe)
			s.resync = true
			continue
		}
		if err != nil {
			return nil, err
		}
		body, err := s.readBody(n)
		if err != nil {
			// Input ended inside the body: the length lied, or the peer died
			// mid-message. Frames it swallowed are still read.
			if swallowedHeader(body) >= 0 {
				return s.splitSwallowed(body, n), nil
			}
			s.logf(1, "LSP framing: input ended %d bytes into a body announced as %d bytes; that message is dropped", len(body), n)
			return nil, err
		}
		if swallowedHeader(body) >= 0 && !json.Valid(body) {
			return s.splitSwallowed(body, n), nil
		}
		return body, nil
	}
}

// readHeaders reads one header block up to its blank line and returns its
// Content-Length. n >= 0 means the block's Content-Length line has already
// been consumed (by seekHeader).
func (s *Stream) readHeaders(n int64) (int64, error) {
	inBlock := n >= 0
	for {
		chunk, err := s.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return -1, frameError(fmt.Sprintf("header line longer than %d bytes", maxHeaderLine))
		}
		if err != nil {
			// Input ended inside a header (or between frames): either way
			// there is no message left to read.
			return -1, err
		}
		line := trimEOL(chunk)
		if len(bytes.TrimSpace(line)) == 0 {
			if !inBlock {
				// Blank lines between frames: some clients count a trailing
				// newline outside Content-Length.
				continue
			}
			if n < 0 {
				return -1, frameError("header block has no Content-Length")
			}
			return n, nil
		}
		inBlock = true
		name, value, ok := splitHeader(line)
		if !ok {
			// A body shorter than its Content-Length leaves its tail in front
			// of the next header, on the same line: recover that header.
			if k, at, found := embeddedLength(line); found {
				s.logf(1, "LSP framing: skipped %q before a Content-Length header", snippet(line[:at]))
				n = k
				continue
			}
			return -1, frameError(fmt.Sprintf("malformed header line %q", snippet(line)))
		}
		if !strings.EqualFold(name, "Content-Length") {
			continue // Content-Type and any other header: ignored
		}
		k, err := parseLength(value)
		if err != nil {
			return -1, err
		}
		if n >= 0 && k != n {
			return -1, frameError(fmt.Sprintf("conflicting Content-Length headers %d and %d", n, k))
		}
		n = k
	}
}

// splitHeader splits "Name: value". The name must be an HTTP token, so a line
// of JSON or other garbage is not mistaken for an ignorable header.
func splitHeader(line []byte) (name, value string, ok bool) {
	i := bytes.IndexByte(line, ':')
	if i < 0 {
		return "", "", false
	}
	name = strings.TrimSpace(string(line[:i]))
	if name == "" {
		return "", "", false
	}
	for j := 0; j < len(name); j++ {
		if !isTokenChar(name[j]) {
			return "", "", false
		}
	}
	return name, strings.TrimSpace(string(line[i+1:])), true
}

func isTokenChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// parseLength parses a Content-Length value: decimal digits only.
func parseLength(v string) (int64, error) {
	if v == "" {
		return -1, frameError("empty Content-Length")
	}
	if v[0] == '-' {
		return -1, frameError(fmt.Sprintf("negative Content-Length %q", snippet([]byte(v))))
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return -1, frameError(fmt.Sprintf("Content-Length %q is not a number", snippet([]byte(v))))
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return -1, frameError(fmt.Sprintf("Content-Length %q is out of range", snippet([]byte(v))))
	}
	return n, nil
}

// embeddedLength finds a "Content-Length: N" header that starts inside line
// and runs to its end; at is where it starts.
func embeddedLength(line []byte) (n int64, at int, found bool) {
	const token = "content-length:"
	lower := asciiLower(line)
	for at = bytes.LastIndex(lower, []byte(token)); at > 0; at = bytes.LastIndex(lower[:at], []byte(token)) {
		v := strings.TrimSpace(string(line[at+len(token):]))
		if k, err := parseLength(v); err == nil {
			return k, at, true
		}
	}
	return -1, 0, false
}

// asciiLower lower-cases ASCII letters only, keeping every byte offset.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// seekHeader consumes input up to and including the next "Content-Length: N"
// header line (case-insensitive, wherever it starts: after a body there is no
// newline before the next header) and returns N. With limit >= 0 it consumes
// at most limit bytes, unless a header starts within them, and then returns
// -1. It scans in place and keeps nothing, so a stream of any size
// costs no memory.
func (s *Stream) seekHeader(limit int64) (int64, error) {
	const token = "content-length:"
	matched := 0
	for limit != 0 {
		if _, err := s.br.Peek(1); err != nil {
			return -1, err
		}
		chunk, _ := s.br.Peek(s.br.Buffered())
		if limit > 0 && int64(len(chunk)) > limit {
			chunk = chunk[:limit]
		}
		hit := -1
		for i, c := range chunk {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			switch {
			case c == token[matched]:
				matched++
			case c == token[0]: // the token's first letter does not recur in it
				matched = 1
			default:
				matched = 0
			}
			if matched == len(token) {
				hit = i
				break
			}
		}
		used := len(chunk)
		if hit >= 0 {
			used = hit + 1
		}
		_, _ = s.br.Discard(used)
		if limit > 0 {
			limit -= int64(used)
		}
		if hit >= 0 {
			matched = 0
			if n, ok := s.takeLengthValue(); ok {
				return n, nil
			}
		}
	}
	return -1, nil
}

// takeLengthValue consumes ` N\r\n` after a Content-Length token if that is
// what follows, and nothing otherwise, so the caller's scan goes on from the
// first byte that did not fit. It peeks one byte at a time so that it never
// waits for input the peer has no reason to send yet.
func (s *Stream) takeLengthValue() (int64, bool) {
	i := 0
	at := func() (byte, bool) {
		p, _ := s.br.Peek(i + 1)
		if len(p) <= i {
			return 0, false
		}
		return p[i], true
	}
	c, ok := at()
	for ok && (c == ' ' || c == '\t') {
		i++
		c, ok = at()
	}
	start := i
	for ok && '0' <= c && c <= '9' && i-start < 19 {
		i++
		c, ok = at()
	}
	end := i
	if end == start {
		return -1, false
	}
	for ok && (c == ' ' || c == '\t') {
		i++
		c, ok = at()
	}
	if ok && c == '\r' {
		i++
		c, ok = at()
	}
	if !ok || c != '\n' {
		return -1, false
	}
	p, _ := s.br.Peek(end)
	n, err := strconv.ParseInt(string(p[start:end]), 10, 64)
	if err != nil {
		return -1, false
	}
	_, _ = s.br.Discard(i + 1)
	return n, true
}

// readBody reads an n-byte body. The buffer starts small and doubles only as
// bytes arrive, so a peer announcing a large length without sending it costs
// nothing.
func (s *Stream) readBody(n int64) ([]byte, error) {
	body := make([]byte, 0, min(n, initialBodyCap))
	for int64(len(body)) < n {
		if len(body) == cap(body) {
			body = slices.Grow(body, int(min(n-int64(len(body)), int64(len(body)))))
		}
		room := body[len(body):cap(body)]
		if int64(len(room)) > n-int64(len(body)) {
			room = room[:n-int64(len(body))]
		}
		k, err := s.br.Read(room)
		body = body[:len(body)+k]
		if err != nil && int64(len(body)) < n {
			return body, err // EOF inside a body is the end of input
		}
	}
	return body, nil
}

// splitSwallowed looks in a body for the start of a frame that the body's
// Content-Length swallowed: a "Content-Length: N" header line, which raw
// line breaks keep out of any JSON text. It returns the body up to there,
// and puts the rest back in front of the input to be read as frames again.
// A body without such a header is returned whole.
func (s *Stream) splitSwallowed(body []byte, announced int64) []byte {
	at := swallowedHeader(body)
	if at < 0 {
		return body
	}
	s.logf(1, "LSP framing: Content-Length %d ran past its message into the next frame; reading on from the Content-Length header found %d bytes in", announced, at)
	s.unread(body[at:])
	return body[:at]
}

// swallowedHeader returns the offset of the first "Content-Length: N" line
// (case-insensitive, ending in "\n") inside body, or -1. Offset 0 does not
// count: that would be a body that is only a header.
func swallowedHeader(body []byte) int {
	const token = "content-length:"
	for i := 1; i+len(token) < len(body); i++ {
		c := body[i]
		if c != 'c' && c != 'C' {
			continue
		}
		j := 0
		for ; j < len(token); j++ {
			c := body[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != token[j] {
				break
			}
		}
		if j < len(token) {
			continue
		}
		k := i + len(token)
		for k < len(body) && (body[k] == ' ' || body[k] == '\t') {
			k++
		}
		digits := k
		for k < len(body) && '0' <= body[k] && body[k] <= '9' {
			k++
		}
		if k == digits {
			continue
		}
		if k < len(body) && body[k] == '\r' {
			k++
		}
		if k < len(body) && body[k] == '\n' {
			return i
		}
	}
	return -1
}

// unread puts p back in front of the input, ahead of what br has buffered.
func (s *Stream) unread(p []byte) {
	buffered, _ := s.br.Peek(s.br.Buffered())
	pre := make([]byte, 0, len(p)+len(buffered)+len(s.src.pre))
	pre = append(append(append(pre, p...), buffered...), s.src.pre...)
	s.src.pre = pre
	s.br.Reset(s.src)
}

// pushback reads pre, then r.
type pushback struct {
	pre []byte
	r   io.Reader
}

func (p *pushback) Read(b []byte) (int, error) {
	if len(p.pre) > 0 {
		n := copy(b, p.pre)
		p.pre = p.pre[n:]
		return n, nil
	}
	return p.r.Read(b)
}

// ---------------------------------------------------------------- validation

type msgKind int

const (
	kindRequest msgKind = iota
	kindNotification
	kindResponse
)

// verdict is what inspect decided about one message.
type verdict struct {
	msg   []byte  // the message to hand to the library, or nil
	kind  msgKind // what msg is
	id    []byte  // the raw id to echo in an error reply; nil means null
	reply []byte  // an error reply to write instead of delivering
	warn  string  // a warning to log
	// params is the message's params as read (a slice of its body, nil
	// when absent); wireID ("" for a notification) and method, both as
	// JSON, make the request or notification without them (skeleton).
	params []byte
	wireID string
	method string
}

type idClass int

const (
	idNone    idClass = iota // absent or null: a notification
	idPlain                  // a string or an integer the library carries as is
	idWrapped                // valid, but the library would mangle or refuse it
	idBad                    // fractional, exponent, bool, object, array
)

// classifyID decides how an id travels through the library, whose request
// parsing keeps integers only in [0, 2^63-1] (it parses int64 into a uint64,
// so -1 would come back as 18446744073709551615, and larger ones fail).
func classifyID(v gjson.Result) idClass {
	switch v.Type {
	case gjson.Null:
		return idNone
	case gjson.String:
		if strings.HasPrefix(v.Str, idPrefix) {
			return idWrapped
		}
		return idPlain
	case gjson.Number:
		if strings.ContainsAny(v.Raw, ".eE") {
			return idBad
		}
		if _, err := strconv.ParseInt(v.Raw, 10, 64); err != nil || v.Raw[0] == '-' {
			return idWrapped // negative (including -0) or beyond int64
		}
		return idPlain
	}
	return idBad
}

// bytesView lets gjson scan a body without copying it. Bodies are freshly
// allocated per message and never modified, which is what makes this safe.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// inspect applies hookd's message rules before the library sees a message,
// because the library reacts to any message it cannot parse by closing the
// connection, without a reply.
func inspect(body []byte) verdict {
	if !json.Valid(body) {
		var probe struct{}
		err := json.Unmarshal(body, &probe) // only to describe the syntax error
		return verdict{reply: errorReply(nil, jsonrpc2.CodeParseError, "Parse error: "+err.Error())}
	}
	switch bytes.TrimLeft(body, " \t\r\n")[0] {
	case '{':
	case '[':
		return verdict{reply: errorReply(nil, jsonrpc2.CodeInvalidRequest, "batch requests are not supported")}
	default:
		return verdict{reply: errorReply(nil, jsonrpc2.CodeInvalidRequest, "a message must be a JSON object")}
	}

	// Later members win over earlier ones with the same name, as they do in
	// the library's own decoding.
	var id, method, params, rpcErr gjson.Result
	var hasID, hasMethod, hasParams, hasResult, hasError bool
	obj := gjson.Parse(bytesView(body))
	obj.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			id, hasID = v, true
		case "method":
			method, hasMethod = v, true
		case "params":
			params, hasParams = v, true
		case "result":
			hasResult = true
		case "error":
			rpcErr, hasError = v, true
		}
		return true
	})

	idc := idNone
	if hasID {
		idc = classifyID(id)
	}
	var echo []byte
	if idc == idPlain || idc == idWrapped {
		echo = []byte(id.Raw)
	}
	// As in the library: a present result (even null) makes a response, an
	// error only when it is not null.
	isResponse := hasResult || (hasError && rpcErr.Type != gjson.Null)

	switch {
	case !hasMethod && !isResponse:
		return verdict{reply: errorReply(echo, jsonrpc2.CodeInvalidRequest, "missing method")}
	case hasMethod && isResponse:
		return verdict{reply: errorReply(echo, jsonrpc2.CodeInvalidRequest, "a message cannot have both method and result or error")}
	case isResponse:
		// Never answer a response. Only ids the library can carry can match
		// one of our calls (ours are small integers); drop the others here,
		// where a null id would otherwise be taken for call 0.
		if idc != idPlain {
			return verdict{warn: fmt.Sprintf("dropped a response with id %s: it matches no request", snippetOr(id.Raw, "null"))}
		}
		return verdict{msg: body, kind: kindResponse}
	}

	if idc == idBad {
		return verdict{reply: errorReply(nil, jsonrpc2.CodeInvalidRequest, "invalid id: must be a string or an integer")}
	}
	if hasID && id.Type == gjson.Null {
		// JSON-RPC 2.0: a request with an id gets a response, yet a reply
		// to id null could not be told from a reply to an unparsable
		// message. Refused, never run.
		return verdict{reply: errorReply(nil, jsonrpc2.CodeInvalidRequest, "invalid request: id is null; use a string or integer id, or leave id out for a notification")}
	}
	if method.Type != gjson.String {
		return verdict{reply: errorReply(echo, jsonrpc2.CodeInvalidRequest, "method must be a string")}
	}
	kind := kindRequest
	if idc == idNone {
		kind = kindNotification
	}
	if hasParams && !params.IsObject() && params.Type != gjson.Null {
		if kind == kindNotification {
			return verdict{warn: fmt.Sprintf("dropped notification %q: params must be an object", snippet([]byte(method.Str)))}
		}
		return verdict{reply: errorReply(echo, jsonrpc2.CodeInvalidParams, "params must be an object")}
	}
	msg := body
	wireID := id.Raw
	if idc == idWrapped {
		msg = withID(obj, idPrefix+id.Raw)
		quoted, _ := json.Marshal(idPrefix + id.Raw) // a string always marshals
		wireID = string(quoted)
	}
	var raw []byte
	if hasParams {
		// params.Index is its offset in body, which obj was parsed from in
		// place: a slice, not a copy.
		if end := params.Index + len(params.Raw); params.Index > 0 && end <= len(body) && string(body[params.Index:end]) == params.Raw {
			raw = body[params.Index:end]
		} else {
			raw = []byte(params.Raw)
		}
	}
	return verdict{msg: msg, kind: kind, id: echo, params: raw, wireID: wireID, method: method.Raw}
}

// skeleton is a request (or, with id "", a notification) without params.
func skeleton(id, method string) []byte {
	b := make([]byte, 0, 40+len(id)+len(method))
	b = append(b, `{"jsonrpc":"2.0"`...)
	if id != "" {
		b = append(b, `,"id":`...)
		b = append(b, id...)
	}
	b = append(b, `,"method":`...)
	b = append(b, method...)
	return append(b, '}')
}

// withID re-encodes obj with its id replaced by the string id, dropping every
// earlier "id" member so no duplicate can shadow the new one.
func withID(obj gjson.Result, id string) []byte {
	quoted, _ := json.Marshal(id) // a string always marshals
	var b bytes.Buffer
	b.Grow(len(obj.Raw) + len(quoted) + 8)
	b.WriteByte('{')
	obj.ForEach(func(k, v gjson.Result) bool {
		if k.Str != "id" {
			b.WriteString(k.Raw)
			b.WriteByte(':')
			b.WriteString(v.Raw)
			b.WriteByte(',')
		}
		return true
	})
	b.WriteString(`"id":`)
	b.Write(quoted)
	b.WriteByte('}')
	return b.Bytes()
}

// errorReply builds an error response. id is the raw id to echo, nil for null.
func errorReply(id []byte, code int, message string) []byte {
	msg, _ := json.Marshal(message) // a string always marshals
	b := make([]byte, 0, 64+len(id)+len(msg))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	if id == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, id...)
	}
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = append(b, msg...)
	b = append(b, "}}"...)
	return b
}

// snippet shortens input quoted in a log message (always with %q, which
// copes with any bytes).
func snippet(b []byte) string {
	if len(b) <= logSnippet {
		return string(b)
	}
	cut := logSnippet
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut]) + "…"
}

func snippetOr(raw, empty string) string {
	if raw == "" {
		return empty
	}
	return snippet([]byte(raw))
}
