//go:build realhost

package newhosts

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

// turn is one scripted model answer: a tool call (name and JSON
// arguments) or, when tool is empty, a final text.
type turn struct{ tool, args, text string }

func callTool(tool, args string) turn { return turn{tool: tool, args: args} }
func say(text string) turn            { return turn{text: text} }

// model scripts the main loop's turns; when the script is used up it
// answers "done". It records every main-loop request body.
type model struct {
	mu       sync.Mutex
	script   []turn
	requests []string
	srv      *httptest.Server
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

func (m *model) Requests() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.requests...)
}

// startGemini serves Gemini's API: streamGenerateContent (the turns, as
// SSE) and generateContent (the CLI's routing call, answered with a fixed
// choice and not counted as a turn).
func startGemini(t *testing.T, script ...turn) *model {
	m := &model{script: script}
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch {
		case strings.Contains(r.URL.Path, ":streamGenerateContent"):
			tn := m.next(string(body))
			var part any = map[string]any{"text": tn.text}
			if tn.tool != "" {
				var args any
				json.Unmarshal([]byte(tn.args), &args)
				part = map[string]any{"functionCall": map[string]any{"name": tn.tool, "args": args}}
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
	}))
	t.Cleanup(m.srv.Close)
	return m
}

// startChat serves OpenAI chat completions (streamed or not), as Qwen Code
// and Copilot CLI call them.
func startChat(t *testing.T, script ...turn) *model {
	m := &model{script: script}
	n := 0
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/models") {
			fmt.Fprint(w, `{"object":"list","data":[{"id":"realhost-model","object":"model","owned_by":"realhost"}]}`)
			return
		}
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.NotFound(w, r)
			return
		}
		tn := m.next(string(body))
		m.mu.Lock()
		n++
		id := fmt.Sprintf("chatcmpl-%d", n)
		m.mu.Unlock()
		model := gjson.GetBytes(body, "model").Str
		usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		msg := map[string]any{"role": "assistant", "content": tn.text}
		finish := "stop"
		if tn.tool != "" {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"index": 0, "id": "call_" + id, "type": "function",
				"function": map[string]any{"name": tn.tool, "arguments": tn.args}}}}
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
		if tn.tool == "" {
			msg["content"] = tn.text
		}
		chunk(msg, nil, nil)
		chunk(map[string]any{}, finish, usage)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(m.srv.Close)
	return m
}
