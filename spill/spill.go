package spill

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultLimit is the additionalContextLimit, in estimated tokens, of a
// handler that sets none. PostToolUse feedback and each Stop continuation
// fragment always use it.
const DefaultLimit = 2500

// folderName is the folder under the temp dir that holds every session's
// spill folder, as in Codex.
const folderName = "hook_outputs"

// footerPrefix starts the line that tells the model where the whole text is.
const footerPrefix = "\n\nFull hook output saved to: "

// Tokens estimates how many model tokens n bytes of text take, as Codex
// does: ceil(n / 4). It counts bytes, not characters.
func Tokens(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return n/4 + min(n%4, 1)
}

// Over reports whether a text of size bytes is above limit tokens. A limit
// of 0 (or less) means no limit.
func Over(size int64, limit int) bool {
	return limit > 0 && Tokens(size) > int64(limit)
}

// Dir returns the spill folder of a session:
// <os.TempDir()>/hook_outputs/<session id>. A session id that is not a plain
// file name (it is empty, holds a path separator or is "." or "..") is
// replaced by a hash of it, so that no id can point the folder, or Remove,
// anywhere else.
func Dir(session string) string {
	return filepath.Join(os.TempDir(), folderName, sessionFolder(session))
}

func sessionFolder(session string) string {
	if session != "." && len(session) <= 128 && filepath.IsLocal(session) &&
		!strings.ContainsAny(session, "/\\\x00") {
		return session
	}
	sum := sha256.Sum256([]byte(session))
	return "session-" + hex.EncodeToString(sum[:16])
}

// Remove deletes a session's spill folder and everything in it, through a
// handle of the checked spill root. A folder that does not exist is not an
// error; a spill root that cannot be trusted is not touched.
func Remove(session string) error {
	root, err := openRoot(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove spill folder: %w", err)
	}
	defer root.Close()
	if err := root.RemoveAll(sessionFolder(session)); err != nil {
		return fmt.Errorf("remove spill folder: %w", err)
	}
	_ = root.Remove(sessionFolder(session) + ownerSuffix) // stale.go
	return nil
}

// Create makes a new, empty spill file <uuid>.txt (mode 0600) in the
// session's spill folder, creating the folder (mode 0700) when needed. The
// caller writes and closes it; its Name is the path to report. The file is
// created through handles of the checked folders (see root.go), so nothing
// planted in the shared temp dir can redirect it.
func Create(session string) (*os.File, error) {
	dir, err := openSession(session, true)
	if err != nil {
		return nil, fmt.Errorf("create spill file: %w", err)
	}
	defer dir.Close()
	f, err := dir.OpenFile(newUUID()+".txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create spill file: %w", err)
	}
	return f, nil
}

// Text is the result of Limit.
type Text struct {
	// Text is what the model gets: the text itself, or its preview.
	Text string
	// Path is the file that holds the whole text. It is empty when the text
	// was not cut, or was cut but could not be written (then Text is a
	// preview without the footer).
	Path string
	// Bytes is the size of the whole text when it was cut, else 0.
	Bytes int64
}

// Limit keeps text for the model within limit estimated tokens. Text within
// the limit (or any text when limit is 0) comes back unchanged. Longer text
// is written whole to a new spill file of the session, and the result is its
// preview. If the file cannot be written the preview is still returned, with
// the error: text is never cut silently.
func Limit(session, text string, limit int) (Text, error) {
	size := int64(len(text))
	if !Over(size, limit) {
		return Text{Text: text}, nil
	}
	path, werr := write(session, text)
	p, err := Preview(strings.NewReader(text), size, limit, path)
	if err != nil {
		// A strings.Reader cannot fail; keep the contract anyway.
		return Text{Text: text}, err
	}
	return Text{Text: p, Path: path, Bytes: size}, werr
}

// Save writes text whole to a new spill file of the session and returns its
// path. A file that cannot be written is removed and the error returned.
func Save(session, text string) (string, error) { return write(session, text) }

func write(session, text string) (string, error) {
	f, err := Create(session)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		Discard(session, f)
		return "", fmt.Errorf("write spill file: %w", err)
	}
	return f.Name(), nil
}

// Preview lays out the preview of a text of size bytes, read through r, for a
// limit in tokens, as Codex does (reference/codex-hooks.md 2.9). path is the
// file that holds the whole text; empty means none (no footer, and the whole
// limit goes to the body).
//
// The footer "\n\nFull hook output saved to: <path>" takes its share of the
// limit; B = 4 × the tokens left is the byte budget of the body. A text of at
// most B bytes is kept whole. Otherwise the body is a two-line warning (the
// text's token estimate and line count), the first ⌊B/2⌋ bytes cut back to a
// character boundary, the marker "…R tokens truncated…" (R = ceil((size−B)/4))
// and the last B−⌊B/2⌋ bytes, moved forward to a character boundary.
// Only the two ends and a line count are read, so a preview of a huge file
// costs little memory.
func Preview(r io.ReaderAt, size int64, limit int, path string) (string, error) {
	footer := ""
	if path != "" {
		footer = footerPrefix + path
	}
	budget := max(int64(limit)-Tokens(int64(len(footer))), 0)
	if budget >= Tokens(size) {
		whole := make([]byte, size)
		if _, err := r.ReadAt(whole, 0); err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return string(whole) + footer, nil
	}
	b := 4 * budget
	headLen := b / 2
	head, err := readHead(r, size, headLen)
	if err != nil {
		return "", err
	}
	tail, err := readTail(r, size, b-headLen)
	if err != nil {
		return "", err
	}
	lines, err := countLines(r, size)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.Grow(len(head) + len(tail) + len(footer) + 128)
	fmt.Fprintf(&sb, "Warning: truncated output (original token count: %d)\nTotal output lines: %d\n\n", Tokens(size), lines)
	sb.Write(head)
	fmt.Fprintf(&sb, "…%d tokens truncated…", Tokens(size-b))
	sb.Write(tail)
	sb.WriteString(footer)
	return sb.String(), nil
}

// isContinuation reports whether c is inside a UTF-8 sequence (not a
// character's first byte).
func isContinuation(c byte) bool { return !utf8.RuneStart(c) }

// readHead returns the first n bytes, shortened so that no character is cut.
// One byte more is read to see whether byte n starts a character.
func readHead(r io.ReaderAt, size, n int64) ([]byte, error) {
	buf := make([]byte, min(n+1, size))
	if _, err := r.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	cut := n
	for steps := 0; cut > 0 && cut < int64(len(buf)) && isContinuation(buf[cut]) && steps < utf8.UTFMax-1; steps++ {
		cut--
	}
	return buf[:cut], nil
}

// readTail returns the last n bytes, without the continuation bytes of a
// character that starts before them.
func readTail(r io.ReaderAt, size, n int64) ([]byte, error) {
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, size-n); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	skip := 0
	for skip < len(buf) && isContinuation(buf[skip]) && skip < utf8.UTFMax-1 {
		skip++
	}
	return buf[skip:], nil
}

// countLines counts lines as Rust's str::lines does: every "\n" ends one, and
// a last line without "\n" counts too; a final "\n" adds no empty line.
func countLines(r io.ReaderAt, size int64) (int64, error) {
	var lines int64
	var last byte
	buf := make([]byte, min(size, 64<<10))
	for off := int64(0); off < size; {
		n, err := r.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		for _, c := range buf[:n] {
			if c == '\n' {
				lines++
			}
		}
		if n > 0 {
			last = buf[n-1]
		}
		off += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if n == 0 {
			break
		}
	}
	if size > 0 && last != '\n' {
		lines++
	}
	return lines, nil
}

// newUUID returns a random UUID (version 4) for a spill file name.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
