package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestLSPCodec_FramesAsTheLibraryDoes(t *testing.T) {
	var buf bytes.Buffer
	if err := (lspCodec{}).WriteObject(&buf, json.RawMessage(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "Content-Length: 7\r\n\r\n{\"a\":1}" {
		t.Fatalf("frame %q", got)
	}
	if err := (lspCodec{}).WriteObject(&buf, map[string]int{"b": 2}); err != nil {
		t.Fatal(err)
	}
	// Another header is ignored; the body may carry spaces around it.
	buf.WriteString("Content-Type: application/vscode-jsonrpc\r\nContent-Length: 9\r\n\r\n {\"c\":3} ")
	r := bufio.NewReader(&buf)
	var raw json.RawMessage
	if err := (lspCodec{}).ReadObject(r, &raw); err != nil || string(raw) != `{"a":1}` {
		t.Fatalf("first: %s, %v", raw, err)
	}
	var m map[string]int
	if err := (lspCodec{}).ReadObject(r, &m); err != nil || m["b"] != 2 {
		t.Fatalf("second: %v, %v", m, err)
	}
	if err := (lspCodec{}).ReadObject(r, &raw); err != nil || string(raw) != `{"c":3}` {
		t.Fatalf("third: %s, %v", raw, err)
	}
	// A length that claims 4 GB of a body that is not there costs only
	// what arrives.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := (lspCodec{}).ReadObject(bufio.NewReader(strings.NewReader("Content-Length: 4000000000\r\n\r\n{}")), &raw)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("a body shorter than its length: no error")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("a lying length made %d bytes", grew)
	}
	for _, bad := range []string{
		"Content-Length: 2\n\n{}",          // bare \n
		"Content-Type: x\r\n\r\n{}",        // no length
		"Content-Length: x\r\n\r\n{}",      // not a number
		"Content-Length: 5\r\n\r\n{\"a\":", // cut short
		"Content-Length: 3\r\n\r\n{x}",     // not JSON
	} {
		if err := (lspCodec{}).ReadObject(bufio.NewReader(strings.NewReader(bad)), &raw); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
