// Package statefile records hook trust and enablement in a user's config.toml
// the way a careful person would edit it by hand: only the
// [hooks.state."<key>"] entries that change are touched, every other byte of
// the file (comments, tables, key order, formatting) stays as it was.
//
// The file is never re-serialised. The go-toml/v2 unstable parser gives the
// byte positions of each table header and key/value; an edit replaces one
// value's bytes, inserts one line into the entry's table, or appends a new
// table at the end. The result must parse and read back with the wanted
// values before it replaces the file.
//
// Writers are serialised with an advisory lock on a file next to config.toml
// (config.toml.lock), waited for at most LockWait, and the new content replaces the old atomically: a temp
// file in the same folder, fsync, rename, with the old file's mode. Two hookd
// processes recording trust at once therefore never lose each other's update.
package statefile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/hookd/hookd/internal/regfile"
)

// maxFileSize bounds what is read of the config.toml to edit.
const maxFileSize = 16 << 20

// Change is what to record for one hook key. A nil Enabled and an empty
// TrustedHash leave that field as it is.
type Change struct {
	Key         string
	Enabled     *bool
	TrustedHash string
}

// Update applies changes to the TOML file at path (created when missing) under
// the file's lock, and replaces it atomically. It waits for the lock at most
// LockWait (then the error wraps ErrLocked) and no longer than ctx lasts.
// When path is a symlink the file it points to is edited, so a config.toml
// kept in a dotfiles repository stays a link. Nothing is written when the file already says what changes ask for.
func Update(ctx context.Context, path string, changes []Change) error {
	return update(ctx, path, func(doc []byte) ([]byte, error) { return Edit(doc, changes) })
}

// SetProjectTrust records [projects."<dir>"] trust_level = level in the TOML
// file at path ("trusted" or "untrusted", as Codex writes them), with the
// same lock, atomic replace and byte-for-byte care as Update. The lock wait
// is LockWait (these writes come from the CLI, which has no request to
// cancel).
func SetProjectTrust(path, dir, level string) error {
	return update(context.Background(), path, func(doc []byte) ([]byte, error) { return EditProjectTrust(doc, dir, level) })
}

// EditProjectTrust returns doc with [projects."<dir>"] trust_level = level.
func EditProjectTrust(doc []byte, dir, level string) ([]byte, error) {
	if err := checkTOML(doc); err != nil {
		return nil, err
	}
	if !utf8.ValidString(dir) {
		return nil, fmt.Errorf("folder %q is not valid UTF-8, which TOML cannot hold", dir)
	}
	prefix := []string{"projects", dir}
	out, err := setEntryField(doc, prefix, "trust_level", level)
	if err != nil {
		return nil, err
	}
	if err := checkTOML(out); err != nil {
		return nil, fmt.Errorf("recording project trust would make the file invalid (%v); is [projects] written as an inline table? Write it as [projects.\"<dir>\"] tables", err)
	}
	if entry, ok := entryAt(out, prefix); !ok || entry["trust_level"] != level {
		return nil, fmt.Errorf("projects entry %q: trust_level did not read back as %q", dir, level)
	}
	return out, nil
}

// EditFile runs edit on the file at path (any format; empty when missing)
// under the same lock as Update and replaces the file atomically when the
// content changed, keeping its mode (0600 for a new file).
func EditFile(path string, edit func(doc []byte) ([]byte, error)) error {
	return update(context.Background(), path, edit)
}

// update runs edit on the file at path under its lock and replaces the file
// atomically when the content changed.
func update(ctx context.Context, path string, edit func(doc []byte) ([]byte, error)) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return fmt.Errorf("create the folder of %s: %w", target, err)
	}
	unlock, err := lockFile(ctx, target+".lock")
	if err != nil {
		return fmt.Errorf("lock %s: %w", target, err)
	}
	defer unlock()

	mode := fs.FileMode(0o600)
	// A FIFO swapped in for config.toml must not hang us with the lock held.
	data, err := regfile.ReadFile(target, maxFileSize)
	exists := err == nil
	switch {
	case exists:
		if fi, err := os.Stat(target); err == nil {
			mode = fi.Mode().Perm()
		}
	case errors.Is(err, fs.ErrNotExist):
	default:
		return fmt.Errorf("read %s: %w", target, err)
	}
	out, err := edit(data)
	if err != nil {
		return fmt.Errorf("%s: %w", target, err)
	}
	if exists && bytes.Equal(out, data) {
		return nil
	}
	return writeAtomic(target, out, mode)
}

// resolve follows symlinks to the file that holds the content. A missing file
// is fine (it will be created); a link that points nowhere is an error rather
// than something to replace.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("%s is a symlink that cannot be followed (%w); fix the link or replace it with a file", path, err)
	}
	return target, nil
}

// writeAtomic replaces path with data: a temp file in the same folder (so the
// rename never crosses file systems), synced, given mode, renamed over path,
// and the folder synced so the rename itself survives a crash.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if d, derr := os.Open(dir); derr == nil {
		// Not every platform can sync a folder; the rename is done either way.
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// Edit returns doc with changes applied, or an error when doc is not valid
// TOML or the state cannot be recorded without rewriting a part of the file
// the user wrote in a form hookd does not edit (the error says what to fix).
func Edit(doc []byte, changes []Change) ([]byte, error) {
	if err := checkTOML(doc); err != nil {
		return nil, err
	}
	out := doc
	for _, c := range changes {
		key := strings.TrimSpace(c.Key)
		if key == "" {
			return nil, errors.New("empty hook key")
		}
		if !utf8.ValidString(key) {
			return nil, fmt.Errorf("hook key %q is not valid UTF-8, which TOML cannot hold", key)
		}
		var err error
		if c.Enabled != nil {
			if out, err = setField(out, key, "enabled", *c.Enabled); err != nil {
				return nil, err
			}
		}
		if c.TrustedHash != "" {
			if out, err = setField(out, key, "trusted_hash", c.TrustedHash); err != nil {
				return nil, err
			}
		}
	}
	if err := checkTOML(out); err != nil {
		return nil, fmt.Errorf("recording hook state would make the file invalid (%v); is [hooks] or [hooks.state] written as an inline table? Write it as [hooks.state.\"<key>\"] tables", err)
	}
	for _, c := range changes {
		if err := checkEntry(out, c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkTOML reports a syntax or structure error with its position.
func checkTOML(doc []byte) error {
	var v map[string]any
	err := toml.Unmarshal(doc, &v)
	if err == nil {
		return nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return fmt.Errorf("not valid TOML (line %d, column %d): %s; fix it before recording hook state", line, col, de.Error())
	}
	return fmt.Errorf("not valid TOML: %w; fix it before recording hook state", err)
}

// checkEntry reads the edited document back and makes sure the entry for c's
// key is well-formed and holds what c asked for: a malformed entry would be
// ignored by every reader, and the trust just recorded with it.
func checkEntry(doc []byte, c Change) error {
	key := strings.TrimSpace(c.Key)
	entry, ok := StateEntry(doc, key)
	if !ok {
		return fmt.Errorf("hooks.state entry %q did not read back after the edit", key)
	}
	en, hasEn := entry["enabled"]
	if hasEn {
		if _, ok := en.(bool); !ok {
			return fmt.Errorf("hooks.state entry %q: field \"enabled\" must be true or false, found %v; fix or remove it", key, en)
		}
	}
	th, hasTH := entry["trusted_hash"]
	if hasTH {
		if _, ok := th.(string); !ok {
			return fmt.Errorf("hooks.state entry %q: field \"trusted_hash\" must be a string, found %v; fix or remove it", key, th)
		}
	}
	if c.Enabled != nil && (!hasEn || en != *c.Enabled) {
		return fmt.Errorf("hooks.state entry %q: enabled did not read back as %v", key, *c.Enabled)
	}
	if c.TrustedHash != "" && th != c.TrustedHash {
		return fmt.Errorf("hooks.state entry %q: trusted_hash did not read back as %s", key, c.TrustedHash)
	}
	return nil
}

// StateEntry returns the decoded [hooks.state."<key>"] table of doc. Keys are
// compared trimmed, as readers of the state compare them.
func StateEntry(doc []byte, key string) (map[string]any, bool) {
	return entryAt(doc, statePrefix(key))
}

// entryAt returns the decoded table at prefix, its last part compared
// trimmed.
func entryAt(doc []byte, prefix []string) (map[string]any, bool) {
	var v map[string]any
	if toml.Unmarshal(doc, &v) != nil {
		return nil, false
	}
	cur := v
	for i, p := range prefix {
		if i == len(prefix)-1 {
			for k, e := range cur {
				if strings.TrimSpace(k) == strings.TrimSpace(p) {
					m, ok := e.(map[string]any)
					return m, ok
				}
			}
			return nil, false
		}
		next, ok := cur[p].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return nil, false
}

// docMap is where things are in a TOML document.
type docMap struct {
	headers []header
	kvs     []keyValue
}

type header struct {
	path  []string
	array bool
	// lineEnd is just past the header line (its newline included).
	lineEnd int
	// lastKV is the index in kvs of the section's last key/value, -1 if none.
	lastKV int
}

type keyValue struct {
	path  []string // the full path: the table's path, then the dotted key
	table []string // the path of the table the line sits in
	// valStart, valEnd delimit the value's bytes; lineEnd is just past the
	// line the value ends on.
	valStart, valEnd, lineEnd int
}

func mapDoc(doc []byte) (*docMap, error) {
	var p unstable.Parser
	p.Reset(doc)
	m := &docMap{}
	var table []string
	cur := -1
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, last := keyParts(e.Key())
			table = parts
			m.headers = append(m.headers, header{path: parts, array: e.Kind == unstable.ArrayTable,
				lineEnd: lineEnd(doc, last), lastKV: -1})
			cur = len(m.headers) - 1
		case unstable.KeyValue:
			parts, last := keyParts(e.Key())
			end := int(e.Raw.Offset + e.Raw.Length)
			kv := keyValue{
				path:     append(append([]string(nil), table...), parts...),
				table:    table,
				valStart: valueStart(doc, last),
				valEnd:   end,
				lineEnd:  lineEnd(doc, end),
			}
			m.kvs = append(m.kvs, kv)
			if cur >= 0 {
				m.headers[cur].lastKV = len(m.kvs) - 1
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return m, nil
}

// keyParts decodes a dotted key and returns the offset just past its last part.
func keyParts(it unstable.Iterator) ([]string, int) {
	var parts []string
	end := 0
	for it.Next() {
		n := it.Node()
		parts = append(parts, string(n.Data))
		end = int(n.Raw.Offset + n.Raw.Length)
	}
	return parts, end
}

// valueStart skips from the end of a key over "=" and blanks to the value.
func valueStart(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '=') {
		i++
	}
	return i
}

// lineEnd returns the offset just past the newline that ends the line holding
// offset i, or len(doc) on the last line.
func lineEnd(doc []byte, i int) int {
	if j := bytes.IndexByte(doc[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(doc)
}

func samePath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// statePath matches a path against hooks.state.<key>.<rest...>, comparing the
// hook key trimmed, and returns rest.
func statePath(path []string, key string) ([]string, bool) {
	return entryRest(path, statePrefix(key))
}

// statePrefix is the table path of one hook's state entry.
func statePrefix(key string) []string { return []string{"hooks", "state", key} }

// entryRest returns what follows prefix in path. The entry's own name (the
// prefix's last part) is compared trimmed, as readers compare keys.
func entryRest(path, prefix []string) ([]string, bool) {
	if len(path) < len(prefix) {
		return nil, false
	}
	for i, p := range prefix {
		got := path[i]
		if i == len(prefix)-1 {
			got, p = strings.TrimSpace(got), strings.TrimSpace(p)
		}
		if got != p {
			return nil, false
		}
	}
	return path[len(prefix):], true
}

// setField records one field of one hook's state entry.
func setField(doc []byte, key, field string, v any) ([]byte, error) {
	return setEntryField(doc, statePrefix(key), field, v)
}

// setEntryField records one field of the table at prefix, choosing the
// smallest edit:
//  1. the field exists: replace its value;
//  2. the entry is an inline table ("<key>" = {...}): rewrite that value;
//  3. the entry has its own [<prefix>] table: add a line to it;
//  4. the entry is made of dotted keys (state."<key>".enabled = ...): add a
//     sibling line after the last of them;
//  5. otherwise append a new [<prefix>] table at the end.
func setEntryField(doc []byte, prefix []string, field string, v any) ([]byte, error) {
	if entry, ok := entryAt(doc, prefix); ok && entry[field] == v {
		// Already recorded: leave the bytes (and their quoting) alone.
		return doc, nil
	}
	value := renderValue(v)
	m, err := mapDoc(doc)
	if err != nil {
		return nil, err
	}
	nl := "\n"
	if bytes.Contains(doc, []byte("\r\n")) {
		nl = "\r\n"
	}
	for _, kv := range m.kvs {
		if rest, ok := entryRest(kv.path, prefix); ok && len(rest) == 1 && rest[0] == field {
			return splice(doc, kv.valStart, kv.valEnd, value), nil
		}
	}
	for _, kv := range m.kvs {
		if rest, ok := entryRest(kv.path, prefix); ok && len(rest) == 0 {
			inline, err := inlineEntry(doc, prefix, field, v)
			if err != nil {
				return nil, err
			}
			return splice(doc, kv.valStart, kv.valEnd, inline), nil
		}
	}
	for _, h := range m.headers {
		if rest, ok := entryRest(h.path, prefix); ok && len(rest) == 0 && !h.array {
			at := h.lineEnd
			if h.lastKV >= 0 {
				at = m.kvs[h.lastKV].lineEnd
			}
			return insertLine(doc, at, field+" = "+value, nl), nil
		}
	}
	dotted := -1
	for i, kv := range m.kvs {
		if _, ok := entryRest(kv.path, prefix); ok && len(kv.table) <= len(prefix) {
			dotted = i
		}
	}
	if dotted >= 0 {
		kv := m.kvs[dotted]
		full := append(append([]string(nil), prefix...), field)
		var parts []string
		for _, p := range full[len(kv.table):] {
			parts = append(parts, tomlKey(p))
		}
		return insertLine(doc, kv.lineEnd, strings.Join(parts, ".")+" = "+value, nl), nil
	}
	var b bytes.Buffer
	b.Write(doc)
	if len(doc) > 0 {
		if doc[len(doc)-1] != '\n' {
			b.WriteString(nl)
		}
		b.WriteString(nl)
	}
	var head []string
	for _, p := range prefix {
		head = append(head, tomlKey(p))
	}
	b.WriteString("[" + strings.Join(head, ".") + "]" + nl + field + " = " + value + nl)
	return b.Bytes(), nil
}

// inlineEntry re-renders an entry written as an inline table with field set,
// keeping its other fields.
func inlineEntry(doc []byte, prefix []string, field string, v any) (string, error) {
	entry, ok := entryAt(doc, prefix)
	if !ok {
		return "", fmt.Errorf("%s entry %q is not a table; fix or remove it", strings.Join(prefix[:len(prefix)-1], "."), prefix[len(prefix)-1])
	}
	entry[field] = v
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.SetTablesInline(true)
	if err := enc.Encode(map[string]any{"v": entry}); err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimPrefix(buf.String(), "v = "), "\n"), nil
}

func splice(doc []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(doc)-(end-start)+len(text))
	out = append(out, doc[:start]...)
	out = append(out, text...)
	return append(out, doc[end:]...)
}

// insertLine inserts line at offset at, which is the start of a line or the
// end of a document that may lack its final newline.
func insertLine(doc []byte, at int, line, nl string) []byte {
	text := line + nl
	if at == len(doc) && len(doc) > 0 && doc[len(doc)-1] != '\n' {
		text = nl + line + nl
	}
	return splice(doc, at, at, text)
}

// tomlKey renders one key part: bare when it can be, quoted by go-toml
// otherwise.
func tomlKey(k string) string {
	b, err := toml.Marshal(map[string]bool{k: true})
	if err != nil {
		return strconv.Quote(k)
	}
	return strings.TrimSuffix(string(b), " = true\n")
}

// renderValue renders a bool or string value as go-toml writes it.
func renderValue(v any) string {
	b, err := toml.Marshal(map[string]any{"v": v})
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(strings.TrimPrefix(string(b), "v = "), "\n")
}
