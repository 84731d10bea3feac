package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/lazyre"
)

// The command lints read the command as the shell will (mvdan.cc/sh's
// parser: quoting, words and parameter expansions are its business, not a
// pattern's).

// pathVars are the variables hookd substitutes into a command's text before
// the shell reads it: a value with a space splits an unquoted word.
var pathVars = map[string]bool{
	"CLAUDE_PLUGIN_ROOT": true, "PLUGIN_ROOT": true,
	"CLAUDE_PLUGIN_DATA": true, "PLUGIN_DATA": true,
	"CLAUDE_PROJECT_DIR": true,
}

// interpreters run the script their first operand names.
var interpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "python": true, "python3": true,
	"node": true, "bun": true, "deno": true, "ruby": true, "perl": true, "tsx": true,
}

// canBlock spots a Stop hook's way to keep the agent going: a "block"
// decision (quoted: the word in a comment is not one) or exit code 2.
var canBlock = lazyre.New(`["']block["']|\bexit\s+2\b|exit\(2\)`)

func (l *fileLinter) command(ev *hooks.EventRules, at gjson.Result) {
	f, err := syntax.NewParser().Parse(strings.NewReader(at.Str), "")
	if err != nil {
		return // the shell will say; hookd check is not a shell linter
	}
	if v := unquotedPathVar(f); v != "" {
		l.report(at, hooks.SeverityWarning, RuleUnquotedVar,
			"${%s} is not quoted: hookd puts the path into the command text, so a path with a space splits the word; write \"${%s}/...\"", v, v)
	}
	script, direct := l.scriptPath(f)
	readable := false
	if script != "" {
		fi, err := os.Stat(script)
		switch {
		case err != nil:
			l.report(at, hooks.SeverityError, RuleScriptMissing, "%s does not exist: the hook fails every time it runs", script)
		case direct && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 == 0:
			l.report(at, hooks.SeverityError, RuleScriptNotExec,
				"%s is not executable: chmod +x it, or run it through its interpreter (sh %s)", script, filepath.Base(script))
		}
		// Only a regular file of a sensible size is read: /dev/zero or a
		// FIFO would never end.
		readable = err == nil && fi.Mode().IsRegular() && fi.Size() < 1<<20
	}
	// Only where the host tells the hook it is already continuing (Letta's
	// Stop input has no stop_hook_active to read).
	if (ev.Name == "Stop" || ev.Name == "SubagentStop") && slices.Contains(ev.InputFields, "stop_hook_active") {
		text := at.Str
		if readable {
			if data, err := hooks.ReadConfigFile(script); err == nil {
				text += "\n" + string(data)
			}
		}
		if canBlock.MatchString(text) && !strings.Contains(text, "stop_hook_active") {
			l.report(at, hooks.SeverityWarning, RuleStopLoop,
				"this %s hook can block but never reads stop_hook_active: if it blocks every time, the agent loops until the host gives up; let it stop when stop_hook_active is true", ev.Name)
		}
	}
}

// unquotedPathVar returns the first of pathVars expanded outside quotes:
// quoted text is not entered, nor the inside of an expansion (the default
// of ${A:-${B}} is the expansion's business).
func unquotedPathVar(f *syntax.File) string {
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if found != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.DblQuoted, *syntax.SglQuoted:
			return false
		case *syntax.ParamExp:
			if pathVars[n.Param.Value] {
				found = n.Param.Value
			}
			return false
		}
		return true
	})
	return found
}

// scriptPath is the absolute path of the script the command's first simple
// command runs, with direct true when it runs the file itself (not through
// an interpreter). "" when there is none or it cannot be known offline.
func (l *fileLinter) scriptPath(f *syntax.File) (path string, direct bool) {
	if len(f.Stmts) == 0 {
		return "", false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	prog, ok := l.literal(call.Args[0])
	if !ok {
		return "", false
	}
	if interpreters[filepath.Base(prog)] {
		for _, a := range call.Args[1:] {
			s, ok := l.literal(a)
			if !ok {
				return "", false
			}
			if strings.HasPrefix(s, "-") {
				if s == "-c" || s == "-e" || s == "-m" {
					return "", false // inline code or a module, not a file
				}
				continue
			}
			if filepath.IsAbs(s) {
				return s, false
			}
			return "", false
		}
		return "", false
	}
	if filepath.IsAbs(prog) {
		return prog, true
	}
	return "", false
}

// literal evaluates a word made of literals, quotes and the plugin root
// variables hookd substitutes; ok is false for anything else.
func (l *fileLinter) literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	var add func(parts []syntax.WordPart) bool
	add = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.Lit:
				b.WriteString(p.Value)
			case *syntax.SglQuoted:
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				if !add(p.Parts) {
					return false
				}
			case *syntax.ParamExp:
				v := p.Param.Value
				if l.plugin == "" || (v != "CLAUDE_PLUGIN_ROOT" && v != "PLUGIN_ROOT") || p.Exp != nil || p.Slice != nil || p.Repl != nil {
					return false
				}
				b.WriteString(l.plugin)
			default:
				return false
			}
		}
		return true
	}
	if !add(w.Parts) {
		return "", false
	}
	return b.String(), true
}
