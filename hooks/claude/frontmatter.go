package claude

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
)

// Subagent definitions and skills are Markdown files that open with YAML
// frontmatter between two "---" lines. The YAML is read with
// github.com/goccy/go-yaml: it keeps every node's line and column, so a
// warning about a hook in a frontmatter names its place in the .md file, as
// warnings about settings files do.

// frontmatter is one file's frontmatter, read.
type frontmatter struct {
	path string
	// first is the file line of the YAML's first line.
	first int
	file  *ast.File
	// doc is the frontmatter as a JSON object.
	doc gjson.Result
}

// readFrontmatter reads the frontmatter of the Markdown file at path. A file
// without one gives nil and no warning; a frontmatter that does not parse
// gives nil and a warning with its position.
func readFrontmatter(path string, data []byte) (*frontmatter, string) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := string(data)
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return nil, ""
	}
	var body []string
	closed := false
	for line := range strings.Lines(rest) {
		if strings.TrimRight(line, " \t\r\n") == "---" {
			closed = true
			break
		}
		body = append(body, line)
	}
	if !closed {
		return nil, fmt.Sprintf("ignoring the frontmatter of %s: no closing \"---\" line", path)
	}
	src := []byte(strings.Join(body, ""))
	fm := &frontmatter{path: path, first: 2, doc: gjson.Parse("{}")}
	if !hooksKey.Match(src) {
		// Most agents and skills declare no hooks: their frontmatter is
		// not parsed at all (hookd reads nothing else from it).
		return fm, ""
	}
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		// Claude Code reads a description such as "Use when: ..." although
		// YAML refuses it; so does hookd (quoteLoose).
		if f2, err2 := parser.ParseBytes(quoteLoose(src), 0); err2 == nil {
			f, err = f2, nil
		}
	}
	if err != nil {
		return nil, fmt.Sprintf("ignoring the frontmatter of %s: %s", path, fm.yamlError(err))
	}
	fm.file = f
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return fm, ""
	}
	top, ok := f.Docs[0].Body.(*ast.MappingNode)
	if !ok {
		if mv, one := f.Docs[0].Body.(*ast.MappingValueNode); one {
			top, ok = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}, true
		}
	}
	if !ok {
		return nil, fmt.Sprintf("ignoring the frontmatter of %s: expected a mapping of fields%s", path, fm.at("$"))
	}
	// Only the fields hookd reads are turned into JSON: name and hooks.
	doc := []byte("{}")
	for _, mv := range top.Values {
		key := mv.Key.String()
		if key != "name" && key != "hooks" {
			continue
		}
		var v any
		if err := yaml.NodeToValue(mv.Value, &v, yaml.UseOrderedMap()); err != nil {
			return nil, fmt.Sprintf("ignoring the frontmatter of %s: %s", path, fm.yamlError(err))
		}
		js, err := appendJSON(nil, v)
		if err != nil {
			return nil, fmt.Sprintf("ignoring the frontmatter of %s: %v", path, err)
		}
		if doc, err = sjson.SetRawBytes(doc, key, js); err != nil {
			return nil, fmt.Sprintf("ignoring the frontmatter of %s: %v", path, err)
		}
	}
	fm.doc = gjson.ParseBytes(doc)
	return fm, ""
}

// appendJSON appends v, a value NodeToValue decoded with UseOrderedMap, as
// JSON: mappings keep their key order. go-yaml's own YAML-to-JSON path
// builds a YAML document and re-encodes it, which made discovery of 200
// definitions several times slower (BenchmarkClaudeDiscover_*).
func appendJSON(buf []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case yaml.MapSlice:
		buf = append(buf, '{')
		for i, it := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			k, _ := json.Marshal(fmt.Sprint(it.Key))
			buf = append(append(buf, k...), ':')
			if buf, err = appendJSON(buf, it.Value); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			if buf, err = appendJSON(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return nil, err
		}
		return append(buf, b...), nil
	}
}

// hooksKey finds a top-level "hooks:" key in YAML text.
var hooksKey = lazyre.New(`(?m)^["']?hooks["']?[ \t]*:`)

// looseLine is a top-level "key: value" line.
var looseLine = lazyre.New(`^([A-Za-z0-9_-]+):[ \t]+(\S.*?)[ \t\r]*$`)

// quoteLoose quotes the top-level plain values YAML would refuse (a ": "
// inside, a leading special character), leaving nested blocks such as hooks
// as they are.
func quoteLoose(src []byte) []byte {
	var out []string
	for line := range strings.Lines(string(src)) {
		nl := strings.HasSuffix(line, "\n")
		m := looseLine.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
		if m != nil && loose(m[2]) {
			line = m[1] + ": " + fmt.Sprintf("%q", m[2])
			if nl {
				line += "\n"
			}
		}
		out = append(out, line)
	}
	return []byte(strings.Join(out, ""))
}

func loose(v string) bool {
	switch v[0] {
	case '"', '\'', '[', '{', '|', '>':
		return false
	}
	return strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.ContainsAny(v[:1], "*&!%@`")
}

// yamlError is a parse error with its place in the file.
func (fm *frontmatter) yamlError(err error) string {
	var ye yaml.Error
	if errors.As(err, &ye) {
		msg := ye.GetMessage()
		if tok := ye.GetToken(); tok != nil && tok.Position != nil {
			msg += fmt.Sprintf(" (line %d, column %d)", tok.Position.Line+fm.first-1, tok.Position.Column)
		}
		return msg
	}
	return err.Error()
}

// at is " (line L, column C)" for the node at a YAML path, or "".
func (fm *frontmatter) at(path string) string {
	if fm.file == nil {
		return ""
	}
	p, err := yaml.PathString(path)
	if err != nil {
		return ""
	}
	n, err := p.FilterFile(fm.file)
	if err != nil || n == nil {
		return ""
	}
	// A mapping is placed at its first key, not at the ":" after it.
	for {
		m, ok := n.(*ast.MappingNode)
		if !ok || len(m.Values) == 0 {
			break
		}
		n = m.Values[0].Key
	}
	if n.GetToken() == nil || n.GetToken().Position == nil {
		return ""
	}
	pos := n.GetToken().Position
	return fmt.Sprintf(" (line %d, column %d)", pos.Line+fm.first-1, pos.Column)
}

// atPath matches the " (at hooks.Event[0].hooks[1].field)" the walker ends
// a warning with when it has no JSON text to count lines in.
var atPath = lazyre.New(` \(at ([^()]+)\)$`)

// hooks reads the frontmatter's hooks (settings shape). Warnings name the
// line and column in the .md file.
func (fm *frontmatter) hooks(p *hooks.Profile, src hooks.Source, keySource string) ([]*hooks.Hook, []hooks.Warning) {
	h := fm.doc.Get("hooks")
	if !h.Exists() || h.Type == gjson.Null {
		return nil, nil
	}
	if !h.IsObject() {
		return nil, []hooks.Warning{{Source: fm.path, Message: fmt.Sprintf(
			"ignoring field %q in the frontmatter of %s: expected a mapping of hook events%s", "hooks", fm.path, fm.at("$.hooks"))}}
	}
	found, warns := hooks.ParseHooksValue(p, []byte(h.Raw), src, keySource)
	for i := range warns {
		w := &warns[i]
		w.Source = fm.path
		if m := atPath.FindStringSubmatchIndex(w.Message); m != nil {
			if pos := fm.at("$." + w.Message[m[2]:m[3]]); pos != "" {
				w.Message = w.Message[:m[0]] + pos
			}
		}
	}
	return found, warns
}

// handlerRaw is the handler object of hook h as written, found by the
// group and handler numbers that end its key.
func handlerRaw(doc gjson.Result, event, key string) gjson.Result {
	parts := strings.Split(key, ":")
	if len(parts) < 2 {
		return gjson.Result{}
	}
	g, hi := parts[len(parts)-2], parts[len(parts)-1]
	return doc.Get("hooks." + gjson.Escape(event) + "." + g + ".hooks." + hi)
}
