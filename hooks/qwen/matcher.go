package qwen

import (
	"regexp"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
)

// Qwen Code's hook matcher (hook-matcher.ts), tried in order:
//
//  1. "", "*" and ".*" match everything (the text is trimmed first);
//  2. the text equal to the target, or on tool events to one of the tool's
//     aliases (Bash and Shell for run_shell_command, Write for write_file,
//     ...), matches;
//  3. a top-level a|b list that does not start with "^" or "(" matches when
//     one entry is "*", ".*", the target or an alias;
//  4. otherwise the text (a list's entries joined again) is an unanchored
//     regex tested against the Qwen name only; one that does not compile
//     matches nothing.
//
// hookd runs the regex with Go's RE2; JavaScript-only syntax (lookaround,
// backreferences) does not compile and so matches nothing, as an invalid
// regex does in Qwen Code.

type matcher struct {
	all     bool
	exact   []string
	re      *regexp.Regexp
	invalid bool
}

func compileMatcher(pattern string) (hooks.Matcher, error) {
	p := strings.TrimSpace(pattern)
	if p == "" || p == "*" || p == ".*" {
		return hooks.MatchAll, nil
	}
	m := matcher{exact: []string{p}}
	expr := p
	if strings.Contains(p, "|") && !strings.HasPrefix(p, "^") && !strings.HasPrefix(p, "(") {
		var entries []string
		for _, e := range splitList(p) {
			if e = strings.TrimSpace(e); e == "" {
				continue
			}
			if e == "*" || e == ".*" {
				return hooks.MatchAll, nil
			}
			entries = append(entries, e)
		}
		if len(entries) == 0 {
			return matcher{}, nil
		}
		m.exact = append(m.exact, entries...)
		expr = strings.Join(entries, "|")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		m.invalid = true
	} else {
		m.re = re
	}
	return m, nil
}

// Match tests names: the target first, then its aliases (tool events).
func (m matcher) Match(names []string) bool {
	if len(names) == 0 || names[0] == "" {
		// Qwen Code runs every hook of an event whose target is empty.
		return true
	}
	for _, n := range names {
		for _, e := range m.exact {
			if n == e {
				return true
			}
		}
	}
	return m.re != nil && m.re.MatchString(names[0])
}

// splitList splits a matcher on the | outside brackets and groups.
func splitList(p string) []string {
	var out []string
	var cur strings.Builder
	escaped, class, depth := false, false, 0
	for _, c := range p {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(':
			depth++
		case c == ')':
			depth = max(0, depth-1)
		case c == '|' && depth == 0:
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(c)
	}
	return append(out, cur.String())
}

// toolNames is the profile's ToolNames: the Qwen name first, then every
// name Qwen Code takes for it (TOOL_NAME_ALIASES in its permission rules).
func toolNames(name string) []string {
	canon := name
	if c, ok := aliasOf[name]; ok {
		canon = c
	}
	return append([]string{canon}, aliases[canon]...)
}

// canonicalTool maps an alias (a Claude Code name) to the Qwen name that
// stdin carries.
func canonicalTool(name string) string {
	if c, ok := aliasOf[name]; ok {
		return c
	}
	return name
}

// aliases lists the other names of each Qwen tool.
var aliases = map[string][]string{
	"agent":             {"Agent", "AgentTool", "Task", "TaskTool", "task"},
	"ask_user_question": {"AskUserQuestion", "AskUserQuestionTool"},
	"edit":              {"Edit", "EditTool", "replace"},
	"enter_plan_mode":   {"EnterPlanMode", "EnterPlanModeTool"},
	"exit_plan_mode":    {"ExitPlanMode", "ExitPlanModeTool"},
	"glob":              {"FindFiles", "Glob", "GlobTool"},
	"grep_search":       {"Grep", "GrepTool", "SearchFiles", "search_file_content"},
	"list_directory":    {"ListFiles", "ListFilesTool", "ReadFolder"},
	"lsp":               {"Lsp", "LspTool"},
	"notebook_edit":     {"NotebookEdit", "NotebookEditTool"},
	"read_file":         {"Read", "ReadFile", "ReadFileTool"},
	"run_shell_command": {"Bash", "Shell", "ShellTool"},
	"save_memory":       {"SaveMemory", "SaveMemoryTool"},
	"skill":             {"Skill", "SkillTool"},
	"todo_write":        {"TodoList", "TodoWrite", "TodoWriteTool"},
	"web_fetch":         {"WebFetch", "WebFetchTool"},
	"web_search":        {"WebSearch", "WebSearchTool"},
	"write_file":        {"Write", "WriteFile", "WriteFileTool"},
}

// qwenTools are Qwen Code's tool names (the profile's Tools); a matcher is
// also tried on each one's aliases (toolNames).
func qwenTools() []string {
	out := make([]string, 0, len(aliases))
	for t := range aliases {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// aliasOf maps each alias to its Qwen name.
var aliasOf = func() map[string]string {
	m := map[string]string{}
	for canon, as := range aliases {
		for _, a := range as {
			m[a] = canon
		}
	}
	return m
}()
