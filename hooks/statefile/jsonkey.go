package statefile

import (
	"errors"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// JSONKey escapes a path component for sjson, whose path syntax gives '.',
// '*', '?' and '|' meanings of their own.
func JSONKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '.', '*', '?', '|', '#', '@', '\\', ':', '!', '=', '<', '>', '%', '"', '(', ')', '[', ']', '{', '}', ',':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// SetJSONEntry sets the top-level key of the JSON object file at path to
// value (an empty or missing file is {}); every other entry and byte stays,
// and a file that already says so is left alone. A file that is not a JSON
// object is an error and is not touched. Gemini CLI's and Qwen Code's
// trustedFolders.json are such files.
func SetJSONEntry(path, key, value string) error {
	return EditFile(path, func(doc []byte) ([]byte, error) {
		if len(strings.TrimSpace(string(doc))) == 0 {
			doc = []byte("{}")
		}
		if !gjson.ValidBytes(doc) || !gjson.ParseBytes(doc).IsObject() {
			return nil, errors.New("not a JSON object; fix it before recording trust")
		}
		if gjson.GetBytes(doc, gjson.Escape(key)).Str == value {
			return doc, nil
		}
		return sjson.SetBytes(doc, JSONKey(key), value)
	})
}
