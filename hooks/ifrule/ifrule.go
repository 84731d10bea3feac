// Package ifrule evaluates the "if" field of a Claude Code hook handler: one
// permission rule, Tool or Tool(specifier), checked against a tool call's
// name and input. It knows nothing about profiles or hook files; the claude
// profile parses each handler's rule once with Parse and asks Match per
// call.
//
// Bash and PowerShell commands are read with a real shell parser
// (mvdan.cc/sh), the way Claude Code reads them (measured against Claude Code
// 2.1.328, SEMANTICS section 6):
//
//   - quotes are removed before matching: Bash(echo hello) matches
//     echo "hello", and a rule written with quotes matches no command;
//   - every simple command of a compound command (&&, ||, ;, |, &, and the
//     commands inside $( ), backticks and subshells) is checked, and the rule
//     matches when any of them does;
//   - leading VAR=value assignments are not part of the command;
//   - a command the parser rejects fails open: the rule matches and the hook
//     runs, as Claude Code runs it.
package ifrule

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"
	"mvdan.cc/sh/v3/syntax"
)

// Rule is one parsed permission rule.
type Rule struct {
	raw   string
	tool  *regexp.Regexp
	spec  string
	whole bool           // no specifier, or "*"
	cmd   *regexp.Regexp // the specifier as a command pattern
}

// Parse reads a rule such as "Bash(git commit *)", "Edit(*.ts)",
// "WebFetch(domain:example.com)", "mcp__memory" or "Read". The tool part is
// an exact name in which "*" matches any run of characters; "mcp__server"
// alone covers every tool of that server.
func Parse(rule string) (Rule, error) {
	s := strings.TrimSpace(rule)
	name, spec, hasSpec := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	if hasSpec {
		var ok bool
		if spec, ok = strings.CutSuffix(strings.TrimSpace(spec), ")"); !ok {
			return Rule{}, fmt.Errorf("rule %q: expected Tool or Tool(specifier)", rule)
		}
	}
	if name == "" || strings.ContainsAny(name, " ()") {
		return Rule{}, fmt.Errorf("rule %q: expected Tool or Tool(specifier)", rule)
	}
	toolRe := glob(name, true)
	if strings.HasPrefix(name, "mcp__") && strings.Count(name, "__") == 1 {
		toolRe = "(?:" + toolRe + ")(?:__.*)?"
	}
	r := Rule{raw: s, spec: strings.TrimSpace(spec)}
	r.tool = regexp.MustCompile("^" + toolRe + "$")
	r.whole = r.spec == "" || r.spec == "*"
	if prefix, legacy := strings.CutSuffix(r.spec, ":*"); legacy {
		r.cmd = regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + `(?:\s.*)?$`)
	} else {
		r.cmd = regexp.MustCompile("^" + glob(r.spec, true) + "$")
	}
	return r, nil
}

// String returns the rule as written (trimmed).
func (r Rule) String() string { return r.raw }

// coveredBy names the tool whose rules also cover a tool. Claude Code's Edit
// rules do not cover Write (measured), so Write is absent; the others follow
// Claude Code's documented permission rules.
var coveredBy = map[string]string{
	"MultiEdit": "Edit", "NotebookEdit": "Edit",
	"Grep": "Read", "Glob": "Read",
}

// Match reports whether the rule covers a call of tool with the given
// tool_input (a JSON object). Where the specifier cannot be checked (a field
// is missing, a specifier form hookd does not know), the rule matches: the
// hook runs rather than silently not running.
func (r Rule) Match(tool string, input []byte) bool {
	if !r.tool.MatchString(tool) {
		if alias, ok := coveredBy[tool]; !ok || !r.tool.MatchString(alias) {
			return false
		}
	}
	if r.whole {
		return true
	}
	in := gjson.ParseBytes(input)
	switch tool {
	case "Bash", "PowerShell":
		cmd := in.Get("command")
		if cmd.Type != gjson.String {
			return true
		}
		return r.matchCommand(cmd.Str)
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Grep", "Glob":
		for _, field := range []string{"file_path", "notebook_path", "path"} {
			if p := in.Get(field); p.Type == gjson.String {
				return matchPath(p.Str, r.spec)
			}
		}
		return true
	case "WebFetch":
		host, ok := strings.CutPrefix(r.spec, "domain:")
		u, err := url.Parse(in.Get("url").Str)
		if !ok || err != nil || u.Hostname() == "" {
			return true
		}
		h, host := strings.ToLower(u.Hostname()), strings.ToLower(host)
		return h == host || strings.HasSuffix(h, "."+host)
	}
	return true
}

// matchCommand reports whether any simple command of line matches.
func (r Rule) matchCommand(line string) bool {
	cmds, err := Commands(line)
	if err != nil {
		return true
	}
	for _, c := range cmds {
		if r.cmd.MatchString(c) {
			return true
		}
	}
	return false
}

// Commands splits a shell command line into its simple commands, each as
// its words with quotes removed, joined by single spaces, without leading
// VAR=value assignments. Commands nested in $( ), backticks, process
// substitutions and subshells are listed after the command around them. A
// word part that is not literal ($VAR, ${x}, $((1+1))) is kept as written.
func Commands(line string) ([]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("parse command: %w", err)
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		words := make([]string, 0, len(call.Args))
		for _, w := range call.Args {
			words = append(words, unquote(line, w.Parts, false))
		}
		out = append(out, strings.Join(words, " "))
		return true
	})
	return out, nil
}

// unquote renders word parts with the quoting removed.
func unquote(src string, parts []syntax.WordPart, inDouble bool) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, inDouble))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			b.WriteString(unquote(src, p.Parts, true))
		default:
			b.WriteString(src[p.Pos().Offset():p.End().Offset()])
		}
	}
	return b.String()
}

// unescape removes the backslashes the shell removes: before any character
// outside double quotes, before $ ` " \ and newline inside them.
func unescape(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (!inDouble || strings.IndexByte("$`\"\\\n", s[i+1]) >= 0) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// glob turns a glob into a regexp source: with flat, "*" matches any run of
// characters; without, "*" and "?" stay within a path segment and "**"
// crosses segments.
func glob(g string, flat bool) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		switch c := g[i]; {
		case c == '*' && !flat && strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*' && flat:
			b.WriteString(".*")
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?' && !flat:
			b.WriteString("[^/]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// matchPath matches a file path against a path glob: a glob without "/" is
// matched against the base name, one with "/" against the path's end.
func matchPath(p, spec string) bool {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if !strings.Contains(spec, "/") {
		return regexp.MustCompile("^" + glob(spec, false) + "$").MatchString(path.Base(p))
	}
	return regexp.MustCompile("(?:^|/)" + glob(strings.TrimPrefix(spec, "/"), false) + "$").MatchString(p)
}
