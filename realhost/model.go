//go:build realhost

package realhost

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// The scripted model and its turns are rh's; these names keep the cases
// short.
type turn = rh.Turn

var (
	callTool = rh.CallTool
	say      = rh.Say
)

// model is rh's scripted model server, plus side: it answers requests that
// are not the main loop (Claude Code's prompt and agent hooks). It gets the
// body and returns the answer, or ok false to treat the request as a
// main-loop turn.
type model struct {
	*rh.Model
	side func(body string) (turn, bool)
}

// startOpenAI serves the Responses API (wire_api = "responses") as SSE.
func startOpenAI(t *testing.T, script ...turn) *model {
	m := &model{}
	m.Model = rh.StartModel(t, script, func(rm *rh.Model, w http.ResponseWriter, r *http.Request, body []byte) {
		if !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		tn := rm.Next(string(body))
		id := fmt.Sprintf("resp_%d", rm.Seq())
		var item map[string]any
		if tn.Tool != "" {
			item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": "call_" + id, "name": tn.Tool, "arguments": tn.Args, "status": "completed"}
		} else {
			item = map[string]any{"type": "message", "id": "msg_" + id, "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": tn.Text, "annotations": []any{}}}}
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
	})
	return m
}

// startAnthropic serves the Messages API as SSE.
func startAnthropic(t *testing.T, script ...turn) *model {
	m := &model{}
	m.Model = rh.StartModel(t, script, func(rm *rh.Model, w http.ResponseWriter, r *http.Request, body []byte) {
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
				rm.Record(string(body))
			}
		}
		if !side {
			tn = rm.Next(string(body))
		}
		id := fmt.Sprintf("%d", rm.Seq())
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
		if tn.Tool != "" {
			stop = "tool_use"
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{
				"type": "tool_use", "id": "toolu_" + id, "name": tn.Tool, "input": map[string]any{}}})
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{
				"type": "input_json_delta", "partial_json": tn.Args}})
		} else {
			sse("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			sse("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": tn.Text}})
		}
		sse("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		sse("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		sse("message_stop", map[string]any{"type": "message_stop"})
	})
	return m
}
