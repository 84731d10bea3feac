package cli

// Where text stops being JSON, for the errors about --input and --hook-state.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// jsonErrorPosition is " (line L, column C: MESSAGE)" for text that is not
// JSON, or "" when it is.
func jsonErrorPosition(data []byte) string {
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		return ""
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return ": " + err.Error()
	}
	// Offset counts the bytes read, the bad one included: point at that one.
	off := min(int(se.Offset), len(data))
	if off > 0 {
		off--
	}
	line, col := lineCol(data, off)
	msg := se.Error()
	if i := strings.Index(msg, "json: "); i >= 0 {
		msg = msg[i+len("json: "):]
	}
	return fmt.Sprintf(" (line %d, column %d: %s)", line, col, msg)
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (line, col int) {
	line, col = 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
