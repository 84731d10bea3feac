package claude

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/hooks/evaluate"
	"github.com/hookd/hookd/hooks/ifrule"
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
//   - asyncRewake: runs the hook in the background like async; when it exits
//     2 its async result carries rewake, the stderr (else stdout) Claude Code
//     gives the model with its next request.
//   - onFailure: "block" (command, http, mcp_tool): a failure blocks like a
//     deny on events that can block (output.go).
//   - if: a permission rule that narrows a tool hook further (package
//     ifrule: quotes removed, every part of a compound command checked,
//     VAR=value prefixes stripped, Edit rules not covering Write). On an
//     event that is not a tool event the handler never runs, as in Claude
//     Code.
//   - once (skill frontmatter only), description, rewakeMessage, rewakeSummary
//     and _comment are accepted and have no effect.

// claudeReadHandler is the claude profile's Profile.ReadHandler.
func claudeReadHandler(ev *hooks.EventRules, raw gjson.Result, h *hooks.Hook) (string, bool) {
	var warns []string
	hd := &h.Handler
	switch hd.Type {
	case TypeHTTP:
		if msg, skip := readHTTP(ev, raw); skip {
			return msg, true
		}
	case evaluate.KindPrompt, evaluate.KindAgent:
		if msg, skip := readEval(ev, hd.Type, raw); skip {
			return msg, true
		}
	}
	if hd.Type == hooks.TypeCommand {
		args := raw.Get("args")
		switch {
		case !args.Exists() || args.Type == gjson.Null:
			if sh := raw.Get("shell"); sh.Exists() && sh.Type != gjson.Null {
				hd.WrittenCommand = hd.Command
				switch sh.String() {
				case "bash":
					hd.Command = "bash -c " + hooks.ShellQuote(hd.Command)
				case "powershell":
					hd.Command = "pwsh -NoProfile -Command " + hooks.ShellQuote(hd.Command)
				default:
					warns = append(warns, fmt.Sprintf(`ignoring "shell" %s: expected "bash" or "powershell"`, sh.Raw))
				}
			}
		case !args.IsArray():
			return `skipping command hook: field "args" must be an array of strings`, true
		default:
			hd.WrittenCommand = hd.Command
			parts := []string{execArg(hd.Command)}
			bad := false
			args.ForEach(func(_, a gjson.Result) bool {
				bad = a.Type != gjson.String
				parts = append(parts, execArg(a.Str))
				return !bad
			})
			if bad {
				return `skipping command hook: field "args" must be an array of strings`, true
			}
			hd.Command = strings.Join(parts, " ")
			if runtime.GOOS != "windows" {
				// Claude Code spawns the program itself, so it gets no PWD
				// (a shell would export one).
				hd.Command = "unset PWD; exec " + hd.Command
			}
		}
		if ar := raw.Get("asyncRewake"); ar.Type == gjson.True {
			if ev.ForceSync {
				warns = append(warns, fmt.Sprintf("running asyncRewake %s hook synchronously", ev.Name))
			} else {
				hd.Async, hd.AsyncConfigured, hd.Rewake = true, true, true
			}
		}
	}
	if of := raw.Get("onFailure"); of.Exists() && of.Type != gjson.Null {
		switch {
		case of.Type == gjson.String && of.Str == "block":
			if hd.Type == hooks.TypeCommand || hd.Type == hooks.TypeMCPTool || hd.Type == TypeHTTP {
				hd.FailClosed = true
			} else {
				warns = append(warns, fmt.Sprintf(`ignoring "onFailure" on a %s hook: only command, http and mcp_tool hooks take it`, hd.Type))
			}
		case of.Type == gjson.String && of.Str == "continue":
		default:
			warns = append(warns, fmt.Sprintf(`ignoring "onFailure" %s: expected "block" or "continue"`, of.Raw))
		}
	}
	if cond := raw.Get("if"); cond.Exists() && cond.Type != gjson.Null {
		switch rule, err := parseIf(cond); {
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

// execPlaceholders are the variables Claude Code replaces in each argument
// of an exec-form hook (measured on 2.1.328).
var execPlaceholders = []string{"${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}", "${CLAUDE_PROJECT_DIR}"}

// execArg quotes one exec-form argument for the shell hookd runs it with:
// everything literal ($HOME, spaces, * reach the program as written) except
// the three placeholders, which become the double-quoted variables hookd
// exports, so each argument stays one word whatever the value holds.
func execArg(s string) string {
	var b strings.Builder
	lit := 0
	for i := 0; i < len(s); i++ {
		for _, ph := range execPlaceholders {
			if strings.HasPrefix(s[i:], ph) {
				if i > lit {
					b.WriteString(hooks.ShellQuote(s[lit:i]))
				}
				b.WriteString(`"$` + ph[2:len(ph)-1] + `"`)
				i += len(ph) - 1
				lit = i + 1
				break
			}
		}
	}
	if lit < len(s) || b.Len() == 0 {
		b.WriteString(hooks.ShellQuote(s[lit:]))
	}
	return b.String()
}

// claudeNever matches no input: a handler whose "if" cannot apply.
type claudeNever struct{}

func (claudeNever) Match([]string) bool    { return false }
func (claudeNever) MatchInput([]byte) bool { return false }

// claudeIfMatcher is a group's matcher narrowed by a handler's "if" rule.
type claudeIfMatcher struct {
	group hooks.Matcher
	field string
	rule  ifrule.Rule
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
	in := gjson.ParseBytes(input)
	return group.Match(names) && m.rule.Match(in.Get("tool_name").Str, []byte(in.Get("tool_input").Raw))
}

// parseIf reads a handler's "if" value: one permission rule (package
// ifrule, which reads Bash commands with a shell parser as Claude Code does).
func parseIf(v gjson.Result) (ifrule.Rule, error) {
	if v.Type != gjson.String {
		return ifrule.Rule{}, fmt.Errorf("expected a string")
	}
	return ifrule.Parse(v.Str)
}
