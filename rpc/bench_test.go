package rpc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/hookd/hookd/internal/cputime"
)

// The pipelined benchmarks keep benchWindow requests in flight over real OS
// pipes, with a raw client that writes pre-framed requests and only counts
// reply frames, so the figure is the server's cost. Both servers run in this
// process, so -cpuprofile and -memprofile see the real server path:
//
//	go test ./rpc -run '^$' -bench Pipelined -cpuprofile cpu.out -memprofile mem.out
//	go tool pprof -top -focus 'rpc\.|hooks\.' rpc.test cpu.out

const benchWindow = 64

// benchBatch is how many requests the client writes at once.
const benchBatch = 16

// noMatchRun is the hooks/run of every tool call a host makes when no hook
// is configured for it.
const noMatchRun = `{"event":"PreToolUse","turnId":"t1","input":{"tool_name":"Read","tool_use_id":"call_1","tool_input":{"path":"src/main.go"}}}`

// benchPipes is one server on two OS pipes: requests go to in, replies come
// out of out.
type benchPipes struct {
	in  *os.File
	out *bufio.Reader
}

func newBenchPipes(b *testing.B, serve func(r io.Reader, w io.WriteCloser)) *benchPipes {
	b.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(inR, outW)
		outW.Close()
	}()
	b.Cleanup(func() {
		inW.Close() // EOF ends the server
		<-done
		inR.Close()
		outR.Close()
	})
	return &benchPipes{in: inW, out: bufio.NewReaderSize(outR, 64<<10)}
}

func frame(buf []byte, body string) []byte {
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	return append(buf, body...)
}

// readFrame returns the next reply body, skipping notifications.
func (p *benchPipes) readFrame(keep bool) ([]byte, error) {
	for {
		n := -1
		for {
			line, err := p.out.ReadSlice('\n')
			if err != nil {
				return nil, err
			}
			s := strings.TrimRight(string(line), "\r\n")
			if s == "" {
				break
			}
			if v, ok := strings.CutPrefix(s, "Content-Length: "); ok {
				if n, err = strconv.Atoi(v); err != nil {
					return nil, err
				}
			}
		}
		if n < 0 {
			return nil, fmt.Errorf("frame without Content-Length")
		}
		if !keep {
			if _, err := p.out.Discard(n); err != nil {
				return nil, err
			}
			return nil, nil
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(p.out, body); err != nil {
			return nil, err
		}
		if bytes.Contains(body, []byte(`"method"`)) && !bytes.Contains(body, []byte(`"result"`)) {
			continue
		}
		return body, nil
	}
}

// call sends one request and returns its reply body.
func (p *benchPipes) call(b *testing.B, id int, method, params string) []byte {
	b.Helper()
	if _, err := p.in.Write(frame(nil, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))); err != nil {
		b.Fatal(err)
	}
	body, err := p.readFrame(true)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// pipeline sends b.N requests with params, at most benchWindow unanswered,
// and reads b.N replies; the first reply must contain want.
func (p *benchPipes) pipeline(b *testing.B, method, params, want string) {
	b.Helper()
	first := p.call(b, 1_000_000_000, method, params)
	if !bytes.Contains(first, []byte(want)) {
		b.Fatalf("reply %s does not contain %s", first, want)
	}
	// Frames are built before the clock starts, in one buffer: the client
	// writes them in batches of benchBatch, so its cost is not the server's.
	var all []byte
	ends := make([]int, b.N)
	for i := range ends {
		all = frame(all, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"`+method+`","params":`+params+`}`)
		ends[i] = len(all)
	}
	slots := make(chan struct{}, benchWindow)
	errc := make(chan error, 1)
	cpu0 := cpuTime()
	b.ResetTimer()
	go func() {
		for range b.N {
			if _, err := p.readFrame(false); err != nil {
				errc <- err
				return
			}
			<-slots
		}
		errc <- nil
	}()
	for i, start := 0, 0; i < b.N; {
		k := min(benchBatch, b.N-i)
		for range k {
			slots <- struct{}{}
		}
		i += k
		if _, err := p.in.Write(all[start:ends[i-1]]); err != nil {
			b.Fatal(err)
		}
		start = ends[i-1]
	}
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	// CPU time (this process: server and client) per request is steadier
	// than the rate on a machine shared with other work.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkServe_NoMatchPipelined is hooks/run through Serve, the stream, the
// library and the engine, for an event no hook matches (the session has one
// Stop hook).
func BenchmarkServe_NoMatchPipelined(b *testing.B) {
	p := benchServeOneStopHook(b)
	p.pipeline(b, "hooks/run", noMatchRun, `"decision":"none"`)
}

// BenchmarkEcho_Pipelined is the baseline: a bare server on the same library
// and framing whose one method answers with its params.
func BenchmarkEcho_Pipelined(b *testing.B) {
	p := benchEchoServer(b)
	p.pipeline(b, "echo", noMatchRun, `"event":"PreToolUse"`)
}

// benchServeOneStopHook is Serve over bench pipes, initialized with a
// session whose one hook is on Stop: a PreToolUse matches nothing.
func benchServeOneStopHook(b *testing.B) *benchPipes {
	home := b.TempDir()
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	if err := os.WriteFile(home+"/hooks.json", []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Setenv("TMPDIR", b.TempDir())
	p := newBenchPipes(b, func(r io.Reader, w io.WriteCloser) {
		Serve(r, w, nil, Options{Version: "bench"})
	})
	init := fmt.Sprintf(`{"session":{"id":"s1","cwd":%q},"config":{"home":%q,"bypassTrust":true}}`, b.TempDir(), home)
	if reply := p.call(b, 0, "initialize", init); !bytes.Contains(reply, []byte(`"installed":1`)) {
		b.Fatalf("initialize: %s", reply)
	}
	return p
}

// benchEchoServer is a bare jsonrpc2 server on the same library and framing
// whose one method answers with its params.
func benchEchoServer(b *testing.B) *benchPipes {
	p := newBenchPipes(b, func(r io.Reader, w io.WriteCloser) {
		conn := jsonrpc2.NewConn(context.Background(),
			jsonrpc2.NewBufferedStream(rw{r, w}, jsonrpc2.VSCodeObjectCodec{}), benchEcho{})
		<-conn.DisconnectNotify()
	})
	return p
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration { return cputime.Self() }

type benchEcho struct{}

func (benchEcho) Handle(ctx context.Context, c *jsonrpc2.Conn, r *jsonrpc2.Request) {
	_ = c.Reply(ctx, r.ID, r.Params)
}

// BenchmarkServe_TrivialCommand is one hooks/run at a time that runs one
// command hook (true): with -cpuprofile, what hookd itself spends around
// the process it spawns.
func BenchmarkServe_TrivialCommand(b *testing.B) {
	home := b.TempDir()
	doc := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	if err := os.WriteFile(home+"/hooks.json", []byte(doc), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Setenv("TMPDIR", b.TempDir())
	b.Setenv("SHELL", "/bin/sh")
	b.Setenv("HOME", b.TempDir()) // no user profile for the login shell
	p := newBenchPipes(b, func(r io.Reader, w io.WriteCloser) {
		Serve(r, w, nil, Options{Version: "bench"})
	})
	init := fmt.Sprintf(`{"session":{"id":"s1","cwd":%q},"config":{"home":%q,"bypassTrust":true}}`, b.TempDir(), home)
	p.call(b, 0, "initialize", init)
	cpu0 := cpuTime()
	for i := 0; b.Loop(); i++ {
		if reply := p.call(b, i+1, "hooks/run", `{"event":"Stop","input":{}}`); !bytes.Contains(reply, []byte(`"status":"succeeded"`)) {
			b.Fatalf("reply %s", reply)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkServe_Initialize200Plugins is initialize of a fresh session with
// 200 plugins installed (two hooks each, none trusted), in process, for
// -cpuprofile: the part of BenchmarkStartup_Initialize200Plugins that is
// hookd's own work rather than the process start.
func BenchmarkServe_Initialize200Plugins(b *testing.B) {
	dir := b.TempDir()
	doc := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${PLUGIN_ROOT}/check.sh"}]}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}`
	for i := range 200 {
		root := fmt.Sprintf("%s/market/plugin%03d/1.0.0", dir, i)
		for _, f := range [][2]string{
			{"/.codex-plugin/plugin.json", fmt.Sprintf(`{"name": "plugin%03d", "version": "1.0.0"}`, i)},
			{"/hooks/hooks.json", doc},
		} {
			if err := os.MkdirAll(root+f[0][:strings.LastIndex(f[0], "/")], 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(root+f[0], []byte(f[1]), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Setenv("TMPDIR", b.TempDir())
	home, cwd := b.TempDir(), b.TempDir()
	init := fmt.Sprintf(`{"session":{"id":"s1","cwd":%q},"config":{"home":%q,"pluginDirs":[%q]}}`, cwd, home, dir)
	for b.Loop() {
		p := newBenchPipes(b, func(r io.Reader, w io.WriteCloser) {
			Serve(r, w, nil, Options{Version: "bench"})
		})
		if reply := p.call(b, 0, "initialize", init); !bytes.Contains(reply, []byte(`"installed":400`)) {
			b.Fatalf("initialize: %s", reply)
		}
		p.in.Close()
	}
}

// roundTrips sends b.N requests one at a time, each written only once the
// reply to the one before it has been read: the latency of one round trip,
// the host's write to its read of the reply.
func (p *benchPipes) roundTrips(b *testing.B, method, params, want string) {
	b.Helper()
	first := p.call(b, 1_000_000_000, method, params)
	if !bytes.Contains(first, []byte(want)) {
		b.Fatalf("reply %s does not contain %s", first, want)
	}
	var buf []byte
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		buf = frame(buf[:0], `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"`+method+`","params":`+params+`}`)
		if _, err := p.in.Write(buf); err != nil {
			b.Fatal(err)
		}
		if _, err := p.readFrame(false); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkServe_NoMatchRoundTrip is BenchmarkServe_NoMatchPipelined one
// request at a time.
func BenchmarkServe_NoMatchRoundTrip(b *testing.B) {
	p := benchServeOneStopHook(b)
	p.roundTrips(b, "hooks/run", noMatchRun, `"decision":"none"`)
}

// BenchmarkEcho_RoundTrip is its baseline: the bare jsonrpc2 echo of
// BenchmarkEcho_Pipelined, one request at a time.
func BenchmarkEcho_RoundTrip(b *testing.B) {
	p := benchEchoServer(b)
	p.roundTrips(b, "echo", noMatchRun, `"event":"PreToolUse"`)
}
