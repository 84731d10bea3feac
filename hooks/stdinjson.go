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
// escapes it. A string of printable ASCII without quote or backslash, which
// is what most are (ids, paths, event and tool names), is the same bytes in
// every encoding and is appended as it is; any other goes through
// MarshalStdin.
func AppendJSONString(dst []byte, s string) []byte {
	if plainJSONString(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	b, err := MarshalStdin(s)
	if err != nil {
		// A Go string always encodes; keep the output valid regardless.
		return append(dst, `""`...)
	}
	return append(dst, b...)
}

// plainJSONString reports whether s needs no escaping in JSON at all.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
