//go:build realhost

package newhosts

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
type (
	turn  = rh.Turn
	model = rh.Model
)

var (
	callTool = rh.CallTool
	say      = rh.Say
)

// startGemini serves Gemini's API: streamGenerateContent (the turns, as
// SSE) and generateContent (the CLI's routing call, answered with a fixed
// choice and not counted as a turn).
func startGemini(t *testing.T, script ...turn) *model {
	return rh.StartModel(t, script, func(m *rh.Model, w http.ResponseWriter, r *http.Request, body []byte) {
		switch {
		case strings.Contains(r.URL.Path, ":streamGenerateContent"):
			tn := m.Next(string(body))
			var part any = map[string]any{"text": tn.Text}
			if tn.Tool != "" {
				var args any
				json.Unmarshal([]byte(tn.Args), &args)
				part = map[string]any{"functionCall": map[string]any{"name": tn.Tool, "args": args}}
			}
			resp := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
				"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
			b, _ := json.Marshal(resp)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		case strings.Contains(r.URL.Path, ":generateContent"):
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"reasoning\":\"simple\",\"model_choice\":\"flash\"}"}]},"finishReason":"STOP","index":0}]}`)
		case strings.Contains(r.URL.Path, ":countTokens"):
			fmt.Fprint(w, `{"totalTokens":10}`)
		default:
			http.NotFound(w, r)
		}
	})
}

// startChat serves OpenAI chat completions (streamed or not), as Qwen Code
// and Copilot CLI call them.
func startChat(t *testing.T, script ...turn) *model {
	return rh.StartModel(t, script, func(m *rh.Model, w http.ResponseWriter, r *http.Request, body []byte) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			fmt.Fprint(w, `{"object":"list","data":[{"id":"realhost-model","object":"model","owned_by":"realhost"}]}`)
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		tn := m.Next(string(body))
		id := fmt.Sprintf("chatcmpl-%d", m.Seq())
		model := gjson.GetBytes(body, "model").Str
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		msg := map[string]any{"role": "assistant", "content": tn.Text}
		finish := "stop"
		if tn.Tool != "" {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": "call_" + id, "type": "function",
				"function": map[string]any{"name": tn.Tool, "arguments": tn.Args}}}}
			finish = "tool_calls"
		}
		if !gjson.GetBytes(body, "stream").Bool() {
			w.Header().Set("Content-Type", "application/json")
			b, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion", "created": 1, "model": model,
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
			w.Write(b)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := func(delta map[string]any, finish any, u any) {
			c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1, "model": model,
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
			if u != nil {
				c["usage"] = u
			}
			b, _ := json.Marshal(c)
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		delete(msg, "content")
		if tn.Tool == "" {
			msg["content"] = tn.Text
		}
		chunk(msg, nil, nil)
		chunk(map[string]any{}, finish, usage)
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
}
