package statefile

import "strings"

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
