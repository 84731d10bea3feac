package spill

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// CharLimit is a spill rule counted in characters rather than estimated
// tokens, with a short preview: Claude Code's rule for hook output (any text
// over 10,000 characters goes to a file and the model gets about 2 KB of it
// and the path). Max is the most characters kept whole; Head is how many
// characters of the text the preview shows.
type CharLimit struct {
	Max  int
	Head int
}

// previewTail closes a CharLimit preview: how much was left out, then the
// line that names the file (the same words as Codex's preview).
const previewTail = "\n\n…%d more characters truncated (%d characters, %d lines in all)…"

// Limit keeps text within Max characters. Longer text is written whole to a
// new spill file of the session and the result is its preview: the first
// Head characters, a marker saying how much was left out, and the file's
// path. If the file cannot be written the preview comes without the path,
// with the error: text is never cut silently.
func (c CharLimit) Limit(session, text string) (Text, error) {
	if c.Max <= 0 || utf8.RuneCountInString(text) <= c.Max {
		return Text{Text: text}, nil
	}
	path, werr := write(session, text)
	p, err := c.Preview(strings.NewReader(text), int64(len(text)), path)
	if err != nil {
		return Text{Text: text}, err
	}
	return Text{Text: p, Path: path, Bytes: int64(len(text))}, werr
}

// Preview lays out the preview of a text of size bytes, read through r, that
// is already in the file at path ("" when there is none). Only the head is
// kept in memory; the rest is streamed once to count characters and lines.
func (c CharLimit) Preview(r io.ReaderAt, size int64, path string) (string, error) {
	// A character is at most 4 bytes: this many bytes hold the head.
	buf := make([]byte, min(int64(c.Head)*utf8.UTFMax, size))
	if _, err := r.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	// Head characters always fit in buf (a character is at most 4 bytes),
	// so the head never ends inside one.
	i := 0
	for n := 0; n < c.Head && i < len(buf); n++ {
		_, w := utf8.DecodeRune(buf[i:])
		i += w
	}
	head := buf[:i]
	chars, lines, err := countChars(r, size)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(len(head) + len(path) + 128)
	sb.Write(head)
	fmt.Fprintf(&sb, previewTail, chars-int64(utf8.RuneCount(head)), chars, lines)
	if path != "" {
		sb.WriteString(footerPrefix + path)
	}
	return sb.String(), nil
}

// countChars counts the characters (runes, an invalid byte counting as one)
// and lines (as countLines does) of the size bytes read through r.
func countChars(r io.ReaderAt, size int64) (chars, lines int64, err error) {
	buf := make([]byte, min(size, 64<<10))
	carry := 0
	var last byte
	for off := int64(0); off < size; {
		n, err := r.ReadAt(buf[carry:min(int64(len(buf)), int64(carry)+size-off)], off)
		if n == 0 && err != nil && !errors.Is(err, io.EOF) {
			return 0, 0, err
		}
		if n == 0 {
			break
		}
		off += int64(n)
		data := buf[:carry+n]
		for _, b := range data[carry:] {
			if b == '\n' {
				lines++
			}
			last = b
		}
		// Count whole characters; keep an incomplete one for the next read
		// unless the text ends there.
		i := 0
		for i < len(data) {
			if off < size && !utf8.FullRune(data[i:]) {
				break
			}
			_, w := utf8.DecodeRune(data[i:])
			i += w
			chars++
		}
		carry = copy(buf, data[i:])
	}
	if size > 0 && last != '\n' {
		lines++
	}
	return chars, lines, nil
}
