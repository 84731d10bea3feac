package soong

import (
	"path/filepath"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"
)

// Soong matchers (spec 002, "Hook Config"): the first version matches only
// the event type exactly (the key a rule sits under in hooks.json), the
// canonical tool name exactly, a tag exactly and a path by prefix; no regex,
// glob or expression. The document leaves the form open; hookd's is one JSON
// object whose fields must all match:
//
//	"matcher": {"tool": "Bash", "tag": "write", "pathPrefix": "src/"}
//
// An absent, null or empty matcher matches every event of its type.
//
// What each field is compared with, in the event input the host sends:
//
//	tool        tool_name, exactly (case-sensitive, no aliases: the host
//	            sends the canonical name)
//	tag         tags: an array of strings (or one string), the labels the
//	            host gives the event or tool ("readonly", "write",
//	            "dangerous", ...); matches when one equals the tag exactly
//	pathPrefix  paths: an array of strings (or one string), the files the
//	            event is about; when the input has no paths, the tool's
//	            tool_input.file_path and tool_input.path. Matches when one
//	            of them is the prefix or lies under it
//
// Paths compare by whole components after cleaning ("src" covers "src" and
// "src/a.go", not "srcs/a.go"; "src/../lib" is "lib"). A relative path, in the
// input or in the matcher, is taken from the project root, so "src/" also
// covers "/abs/project/src/a.go"; symlinks are not resolved.

// soongMatcher is one compiled matcher. It is an InputMatcher: the engine
// hands it the whole event input.
type soongMatcher struct {
	tool, tag, pathPrefix string
	hasTool, hasTag       bool
	hasPath               bool
	// root is the project root relative paths are taken from ("" when
	// unknown: then the input's cwd is used).
	root string
}

// Match is the plain Matcher form: the tool field against names.
func (m *soongMatcher) Match(names []string) bool {
	if !m.hasTool {
		return !m.hasTag && !m.hasPath
	}
	for _, n := range names {
		if n == m.tool {
			return !m.hasTag && !m.hasPath
		}
	}
	return false
}

// MatchInput reports whether every field of the matcher matches the input.
func (m *soongMatcher) MatchInput(input []byte) bool {
	in := gjson.ParseBytes(input)
	if m.hasTool {
		if v := in.Get("tool_name"); v.Type != gjson.String || v.Str != m.tool {
			return false
		}
	}
	if m.hasTag && !containsString(soongStrings(in.Get("tags")), m.tag) {
		return false
	}
	if m.hasPath {
		root := m.root
		if root == "" {
			root = in.Get("cwd").Str
		}
		prefix := soongResolve(root, m.pathPrefix)
		for _, p := range soongPaths(in) {
			if pathUnder(soongResolve(root, p), prefix) {
				return true
			}
		}
		return false
	}
	return true
}

// text is the matcher as hooks/list shows it: compact JSON, fields in the
// fixed order tool, tag, pathPrefix.
func (m *soongMatcher) text() string {
	var b strings.Builder
	b.WriteByte('{')
	add := func(k, v string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	if m.hasTool {
		add("tool", m.tool)
	}
	if m.hasTag {
		add("tag", m.tag)
	}
	if m.hasPath {
		add("pathPrefix", m.pathPrefix)
	}
	b.WriteByte('}')
	return b.String()
}

// soongStrings reads an array of strings or a single string; other values
// in the array are not names and are skipped.
func soongStrings(v gjson.Result) []string {
	switch {
	case v.Type == gjson.String:
		return []string{v.Str}
	case v.IsArray():
		var out []string
		v.ForEach(func(_, x gjson.Result) bool {
			if x.Type == gjson.String {
				out = append(out, x.Str)
			}
			return true
		})
		return out
	}
	return nil
}

// soongPaths returns the paths an event is about: its paths field, else the
// tool input's file_path and path.
func soongPaths(in gjson.Result) []string {
	if v := in.Get("paths"); v.Exists() && v.Type != gjson.Null {
		return soongStrings(v)
	}
	var out []string
	for _, f := range []string{"tool_input.file_path", "tool_input.path"} {
		if v := in.Get(f); v.Type == gjson.String && v.Str != "" {
			out = append(out, v.Str)
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// soongResolve makes p absolute against root (when p is relative and root is
// known) and clean.
func soongResolve(root, p string) string {
	if !filepath.IsAbs(p) && root != "" {
		return filepath.Join(root, p)
	}
	return filepath.Clean(p)
}

// pathUnder reports whether path is prefix or lies inside it, comparing whole
// components of clean paths.
func pathUnder(path, prefix string) bool {
	if path == prefix {
		return true
	}
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(path, prefix)
}
