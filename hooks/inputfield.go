package hooks

import (
	"time"

	"github.com/tidwall/gjson"
)

// InsertFieldAfter returns the JSON object input with "name": raw added right
// after the member named after (at the end when input has none), keeping
// every other member's bytes and order: hosts write some fields at a fixed
// place (Gemini CLI and Qwen Code put timestamp after hook_event_name), and
// sjson can only append. raw must be valid JSON.
func InsertFieldAfter(input []byte, after, name string, raw []byte) []byte {
	in := gjson.ParseBytes(input)
	key := AppendJSONString(nil, name)
	out := make([]byte, 0, len(input)+len(key)+len(raw)+2)
	out = append(out, '{')
	placed := false
	in.ForEach(func(k, v gjson.Result) bool {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, k.Raw...), ':'), v.Raw...)
		if !placed && k.Str == after {
			out = append(append(append(append(out, ','), key...), ':'), raw...)
			placed = true
		}
		return true
	})
	if !placed {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, key...), ':'), raw...)
	}
	return append(out, '}')
}

// TimestampAfter returns a Profile.PrepareInput that adds the ISO 8601 UTC
// time as "timestamp" right after the member named after, unless the host
// gave one (Gemini CLI and Qwen Code write it after hook_event_name).
func TimestampAfter(after string) func(*EventRules, []byte, Session) []byte {
	return func(_ *EventRules, input []byte, _ Session) []byte {
		if gjson.GetBytes(input, "timestamp").Exists() {
			return input
		}
		ts := AppendJSONString(nil, time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
		return InsertFieldAfter(input, after, "timestamp", ts)
	}
}
