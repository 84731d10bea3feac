package hooks

import (
	json "github.com/goccy/go-json"
)

// MarshalStdin is how every profile writes JSON that a hook reads: as Node's
// JSON.stringify and Rust's serde_json write it, with <, > and & as
// themselves, never \u003c, \u003e or \u0026 (encoding/json's HTML
// escaping), so a hook's stdin is byte-equal to what its host sends.
func MarshalStdin(v any) ([]byte, error) {
	return json.MarshalWithOption(v, json.DisableHTMLEscape())
}

// AppendJSONString appends s as a JSON string, escaped as MarshalStdin
// escapes it.
func AppendJSONString(dst []byte, s string) []byte {
	b, err := MarshalStdin(s)
	if err != nil {
		// A Go string always encodes; keep the output valid regardless.
		return append(dst, `""`...)
	}
	return append(dst, b...)
}
