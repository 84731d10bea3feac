//go:build realhost

package realhost

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// turn is one scripted model answer: a tool call (tool and its JSON
// arguments) or, when tool is empty, a final text.
type turn struct {
	tool string
	args string
	text string
}

func callTool(tool, args string) turn { return turn{tool: tool, args: args} }
func say(text string) turn            { return turn{text: text} }

// model is a scripted model server. Each main-loop request takes the next
// turn; when the script is used up it answers "done". It records every
// request body so a case can read what reached the model.
type model struct {
	mu       sync.Mutex
	script   []turn
	requests []string
	srv      *httptest.Server
	// side answers requests that are not the main loop (Claude Code's
	// prompt and agent hooks). It gets the body and returns the answer, or
	// ok false to treat the request as a main-loop turn.
	side func(body string) (turn, bool)
}

func (m *model) next(body string) turn {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, body)
	if len(m.script) == 0 {
		return say("done")
	}
	t := m.script[0]
	m.script = m.script[1:]
	return t
}

// Requests returns the recorded request bodies.
func (m *model) Requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.requests...)
}

// startOpenAI serves the Responses API (wire_api = "responses") as SSE.
func startOpenAI(t *testing.T, script ...turn) *model {
	m := &model{script: script}
	n := 0
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		tn := m.next(string(body))
		m.mu.Lock()
		n++
		id := fmt.Sprintf("resp_%d", n)
		m.mu.Unlock()
		var item map[string]any
		if tn.tool != "" {
			item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "name": tn.tool, "arguments": tn.args, "status": "completed"}
		} else {
			item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": tn.text, "annotations": []any{}}}}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		sse := func(ev string, data any) {
			b, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, b)
		}
		sse("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
		sse("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		sse("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
				"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}}})
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// startAnthropic serves the Messages API as SSE.
func startAnthropic(t *testing.T, script ...turn) *model {
	m := &model{script: script}
	n := 0
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/count_tokens") {
			fmt.Fprint(w, `{"input_tokens": 10}`)
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/messages") {
			http.NotFound(w, r)
			return
		}
		var tn turn
		side := false
		if m.side != nil {
			if tn, side = m.side(string(body)); side {
				m.mu.Lock()
				m.requests = append(m.requests, string(body))
				m.mu.Unlock()
			}
		}
		if !side {
			tn = m.next(string(body))
		}
		m.mu.Lock()
		n++
		id := fmt.Sprintf("%d", n)
		m.mu.Unlock()
		model := gjson.Get(string(body), "model").Str
		w.Header().Set("Content-Type", "text/event-stream")
		sse := func(ev string, data any) {
			b, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, b)
		}
		usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
		sse("message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": "msg_" + id, "type": "message", "role": "assistant", "model": model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": usage}})
		stop := "end_turn"
		if tn.tool != "" {
			stop = "tool_use"
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{
				"type": "tool_use", "id": "toolu_" + id, "name": tn.tool, "input": map[string]any{}}})
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{
				"type": "input_json_delta", "partial_json": tn.args}})
		} else {
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": tn.text}})
		}
		sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		sse("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		sse("message_stop", map[string]any{"type": "message_stop"})
	}))
	t.Cleanup(m.srv.Close)
	return m
}
