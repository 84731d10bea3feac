package droid

import (
	"fmt"
	"regexp"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Droid's matcher (cF in its hook engine, read from the binary): "" and
// "*" match everything, so does a call with no match target (every event
// but PreToolUse, PostToolUse and SessionStart); the exact name matches;
// anything else is a regex tested unanchored and case-sensitively against
// Droid's own tool name (Execute, Create, Edit, ...: Claude Code's Bash
// does not match Execute). A regex that does not compile matches only the
// tool of exactly that name.

// tools are Droid's built-in tool names a matcher may name, its shell
// first (hookd event's default tool).
var tools = []string{"Execute", "Read", "LS", "Edit", "MultiEdit", "Create", "ApplyPatch", "Glob", "Grep",
	"FetchUrl", "WebSearch", "TodoWrite", "Task", "ExitSpecMode", "AskUser", "Skill", "GenerateDroid"}

type exactOrRegex struct {
	text string
	re   *regexp.Regexp
}

func (m exactOrRegex) Match(names []string) bool {
	if len(names) == 0 {
		return true
	}
	return names[0] == m.text || m.re != nil && m.re.MatchString(names[0])
}

func compileMatcher(pattern string) (hooks.Matcher, error) {
	if pattern == "" || pattern == "*" {
		return hooks.MatchAll, nil
	}
	// A pattern that is no regex still matches the tool of that exact
	// name: Droid compares before it compiles.
	re, _ := regexp.Compile(pattern)
	return exactOrRegex{text: pattern, re: re}, nil
}

// commandMatcher is a group with a commandRegex: its matcher must match
// and, besides, the call must be an Execute call whose tool_input.command
// is a string the regex finds (unanchored). Any other call skips the group,
// and so does a commandRegex that does not compile.
type commandMatcher struct {
	base hooks.Matcher
	re   *regexp.Regexp
}

func withCommand(base hooks.Matcher, v gjson.Result) hooks.Matcher {
	if base == nil {
		base = hooks.MatchAll
	}
	m := commandMatcher{base: base}
	if v.Type == gjson.String {
		m.re, _ = regexp.Compile(v.Str)
	}
	return m
}

func (m commandMatcher) Match(names []string) bool { return false }

// Condition names the group's extra condition for hookd explain.
func (m commandMatcher) Condition() string {
	if m.re == nil {
		return "the group's commandRegex (which does not compile)"
	}
	return fmt.Sprintf("the group's commandRegex %q (tested on an Execute call's command)", m.re.String())
}

func (m commandMatcher) MatchInput(input []byte) bool {
	if m.re == nil {
		return false
	}
	r := gjson.GetManyBytes(input, "tool_name", "tool_input.command")
	target := r[0]
	names := []string{}
	if target.Type == gjson.String {
		names = []string{target.Str}
	}
	if !m.base.Match(names) {
		return false
	}
	return target.Str == "Execute" && r[1].Type == gjson.String && m.re.MatchString(r[1].Str)
}
