package claude

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Handler keys of Claude Code that change how a hook runs
// (reference/claude-hooks.md A.3, A.4), read after the codex walker has built
// the hook:
//
//   - args: exec form. The command and each argument are quoted for the shell,
//     so they reach the program as written, with no shell expansion; plugin
//     placeholders are still replaced in each of them.
//   - shell: "bash" runs the command with bash -c, "powershell" with
//     pwsh -NoProfile -Command (as Claude Code does; pwsh must be installed).
//   - asyncRewake: runs the hook in the background like async. hookd does not
//     wake the agent on its exit code 2; the warning says so.
//   - if: a permission rule that narrows a tool hook further (see claudeIf).
//     On an event that is not a tool event the handler never runs, as in
//     Claude Code.
//   - once (skill frontmatter only), description, rewakeMessage, rewakeSummary
//     and _comment are accepted and have no effect.

// claudeReadHandler is the claude profile's Profile.ReadHandler.
func claudeReadHandler(ev *hooks.EventRules, raw gjson.Result, h *hooks.Hook) (string, bool) {
	var warns []string
	hd := &h.Handler
	if hd.Type == hooks.TypeCommand {
		args := raw.Get("args")
		switch {
		case !args.Exists() || args.Type == gjson.Null:
			if sh := raw.Get("shell"); sh.Exists() && sh.Type != gjson.Null {
				switch sh.String() {
				case "bash":
					hd.Command = "bash -c " + shellQuote(hd.Command)
				case "powershell":
					hd.Command = "pwsh -NoProfile -Command " + shellQuote(hd.Command)
				default:
					warns = append(warns, fmt.Sprintf(`ignoring "shell" %s: expected "bash" or "powershell"`, sh.Raw))
				}
			}
		case !args.IsArray():
			return `skipping command hook: field "args" must be an array of strings`, true
		default:
			parts := []string{shellQuote(hd.Command)}
			bad := false
			args.ForEach(func(_, a gjson.Result) bool {
				bad = a.Type != gjson.String
				parts = append(parts, shellQuote(a.Str))
				return !bad
			})
			if bad {
				return `skipping command hook: field "args" must be an array of strings`, true
			}
			hd.Command = strings.Join(parts, " ")
		}
		if ar := raw.Get("asyncRewake"); ar.Type == gjson.True {
			if ev.ForceSync {
				warns = append(warns, fmt.Sprintf("running asyncRewake %s hook synchronously", ev.Name))
			} else {
				hd.Async, hd.AsyncConfigured = true, true
				warns = append(warns, `"asyncRewake" hook runs in the background like "async"; its exit code 2 does not wake the agent under hookd`)
			}
		}
	}
	if cond := raw.Get("if"); cond.Exists() && cond.Type != gjson.Null {
		switch rule, err := parseClaudeIf(cond); {
		case !ev.ToolEvent:
			h.SetMatcher(claudeNever{})
			warns = append(warns, fmt.Sprintf(`handler has "if" on %s, which is not a tool event: it never runs (as in Claude Code)`, ev.Name))
		case err != nil:
			warns = append(warns, fmt.Sprintf(`ignoring "if" %s: %v; the handler runs whenever its matcher matches`, cond.Raw, err))
		default:
			h.SetMatcher(claudeIfMatcher{group: h.CompiledMatcher(), field: ev.MatchField, rule: rule})
		}
	}
	return strings.Join(warns, "; "), false
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// claudeNever matches no input: a handler whose "if" cannot apply.
type claudeNever struct{}

func (claudeNever) Match([]string) bool    { return false }
func (claudeNever) MatchInput([]byte) bool { return false }

// claudeIfMatcher is a group's matcher narrowed by a handler's "if" rule.
type claudeIfMatcher struct {
	group hooks.Matcher
	field string
	rule  claudeIf
}

func (m claudeIfMatcher) Match(names []string) bool { return m.group.Match(names) }

func (m claudeIfMatcher) MatchInput(input []byte) bool {
	var names []string
	if v := gjson.GetBytes(input, m.field); v.Type == gjson.String {
		names = []string{v.Str}
	}
	group := m.group
	if group == nil {
		group = hooks.MatchAll
	}
	return group.Match(names) && m.rule.match(input)
}

// claudeIf is one permission rule, Tool or Tool(specifier), as Claude Code's
// "if" field holds. hookd evaluates the common forms and fails open (the
// hook runs) where it cannot tell, as Claude Code does for a command it
// cannot parse:
//
//   - the tool part is an exact tool name; "mcp__server" covers every tool of
//     that server, and "*" in it matches any run of characters. Edit also
//     covers Write, MultiEdit and NotebookEdit, and Read covers Grep and
//     Glob, as in Claude Code's permission rules;
//   - Bash and PowerShell: the specifier is matched against each simple
//     command of the command line (split on && || ; | & and newlines, after
//     leading VAR=value assignments), "*" matching any run of characters and
//     the legacy "prefix:*" matching commands that start with the prefix
//     word(s). A command line with quotes, escapes, $( ), backticks or
//     process substitution is not split: the rule is taken as matching;
//   - file tools (Read, Edit, Write, MultiEdit, NotebookEdit, Grep, Glob): a
//     glob on tool_input.file_path (or notebook_path, or path): "*" and "?" stay within a
//     path segment and "**" crosses them; a pattern without "/" is matched
//     against the file's base name, one with "/" against the path's end;
//   - WebFetch(domain:host): the URL's host is host or one of its
//     subdomains;
//   - any other specifier matches.
type claudeIf struct {
	tool  *regexp.Regexp
	spec  string
	whole bool // no specifier, or "*"
}

func parseClaudeIf(v gjson.Result) (claudeIf, error) {
	if v.Type != gjson.String {
		return claudeIf{}, fmt.Errorf("expected a string")
	}
	s := strings.TrimSpace(v.Str)
	name, spec, hasSpec := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	if hasSpec {
		if !strings.HasSuffix(spec, ")") {
			return claudeIf{}, fmt.Errorf("expected Tool or Tool(specifier)")
		}
		spec = strings.TrimSuffix(spec, ")")
	}
	if name == "" || strings.ContainsAny(name, " ()") {
		return claudeIf{}, fmt.Errorf("expected Tool or Tool(specifier)")
	}
	toolRe := globRegexp(name, true)
	if strings.HasPrefix(name, "mcp__") && strings.Count(name, "__") == 1 {
		toolRe = "(?:" + toolRe + ")(?:__.*)?"
	}
	re, err := regexp.Compile("^" + toolRe + "$")
	if err != nil {
		return claudeIf{}, err
	}
	spec = strings.TrimSpace(spec)
	return claudeIf{tool: re, spec: spec, whole: spec == "" || spec == "*"}, nil
}

// globRegexp turns a glob into a regexp source: with flat, "*" matches any
// run of characters; without, "*" and "?" stay within a path segment and
// "**" crosses segments.
func globRegexp(glob string, flat bool) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; {
		case c == '*' && !flat && strings.HasPrefix(glob[i:], "**"):
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

// claudeRuleTools are the tools a rule names on behalf of others: Claude
// Code's Edit rules cover every built-in tool that edits files, its Read
// rules those that read them.
var claudeRuleTools = map[string]string{
	"Write": "Edit", "MultiEdit": "Edit", "NotebookEdit": "Edit",
	"Grep": "Read", "Glob": "Read",
}

func (r claudeIf) match(input []byte) bool {
	in := gjson.ParseBytes(input)
	name := in.Get("tool_name").Str
	if !r.tool.MatchString(name) && !r.tool.MatchString(claudeRuleTools[name]) {
		return false
	}
	if r.whole {
		return true
	}
	ti := in.Get("tool_input")
	switch tool := in.Get("tool_name").Str; tool {
	case "Bash", "PowerShell":
		cmd := ti.Get("command")
		if cmd.Type != gjson.String {
			return true
		}
		return matchCommandRule(cmd.Str, r.spec)
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Grep", "Glob":
		for _, field := range []string{"file_path", "notebook_path", "path"} {
			if p := ti.Get(field); p.Type == gjson.String {
				return matchPathRule(p.Str, r.spec)
			}
		}
		return true
	case "WebFetch":
		host, ok := strings.CutPrefix(r.spec, "domain:")
		u, err := url.Parse(ti.Get("url").Str)
		if !ok || err != nil || u.Hostname() == "" {
			return true
		}
		h := strings.ToLower(u.Hostname())
		host = strings.ToLower(host)
		return h == host || strings.HasSuffix(h, "."+host)
	}
	return true
}

var (
	commandSeparators = regexp.MustCompile(`&&|\|\||[;|&\n]`)
	leadingAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=\S*\s+`)
)

// matchCommandRule reports whether a simple command of cmd matches spec. A
// command line hookd does not split (quotes, escapes, substitutions) is
// taken as matching.
func matchCommandRule(cmd, spec string) bool {
	for _, tok := range []string{"'", `"`, `\`, "`", "$(", "<(", ">("} {
		if strings.Contains(cmd, tok) {
			return true
		}
	}
	var re *regexp.Regexp
	if prefix, legacy := strings.CutSuffix(spec, ":*"); legacy {
		re = regexp.MustCompile("^" + regexp.QuoteMeta(prefix) + `(?:\s.*)?$`)
	} else {
		re = regexp.MustCompile("^" + globRegexp(spec, true) + "$")
	}
	for _, sub := range commandSeparators.Split(cmd, -1) {
		sub = strings.TrimSpace(sub)
		for leadingAssignment.MatchString(sub) {
			sub = strings.TrimSpace(leadingAssignment.ReplaceAllString(sub, ""))
		}
		if sub != "" && re.MatchString(sub) {
			return true
		}
	}
	return false
}

func matchPathRule(p, spec string) bool {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if !strings.Contains(spec, "/") {
		re := regexp.MustCompile("^" + globRegexp(spec, false) + "$")
		return re.MatchString(path.Base(p))
	}
	re := regexp.MustCompile("(?:^|/)" + globRegexp(strings.TrimPrefix(spec, "/"), false) + "$")
	return re.MatchString(p)
}
