package mind

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hookd/hookd/hooks"
)

// Profile is the profile of the Mind agent (spec 000, SEMANTICS.md section 3):
// the codex rules with Mind's own folders (~/.mind, a trusted project's
// .mind/), a config-profile layer and a CLI layer, no plugin or managed
// hooks, a literal matcher dialect, PostToolUse only after a tool succeeded,
// coverage labels for tools the server runs, and transcript paths under the
// Mind home.
var Profile = &hooks.Profile{
	Name:           "mind",
	HomeEnv:        "MIND_HOME",
	HomeDir:        ".mind",
	ProjectDir:     ".mind",
	Events:         mindEvents(),
	CompileMatcher: Matcher,
	ToolNames:      mindToolNames,
	CanonicalTool:  mindCanonicalTool,
	Tools:          mindTools,
	Trust:          true,
	KillGrace:      time.Second,
	Discover:       discoverMind,
	PrepareInput:   mindPrepareInput,
	NewSessionID:   newMindSessionID,
	Coverage:       mindCoverage,
}

func init() { hooks.Register(Profile) }

// mindRegexControl are the characters that make a Mind matcher a regular
// expression (spec 000). '|' is among them, but a '|' list of literals is
// still a literal set.
const mindRegexControl = `.^$*+?()[]{}\`

// Matcher compiles a matcher the way spec 000 words it: "", "*" match
// all; a value with no regex control character is an exact, case-sensitive
// name (so "my-tool" and "Bash Output" are exact, unlike in Codex); a '|'
// list of such literals is a set; anything else is an unanchored RE2
// search. A list with an empty candidate ("Edit|") is not a list of
// literals, so it is a regex, and matches what that regex matches.
func Matcher(pattern string) (hooks.Matcher, error) {
	if pattern == "" || pattern == "*" {
		return hooks.MatchAll, nil
	}
	if !strings.ContainsAny(pattern, mindRegexControl) {
		parts := strings.Split(pattern, "|")
		literal := true
		for _, p := range parts {
			literal = literal && p != ""
		}
		if literal {
			return hooks.ExactSet(parts), nil
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid matcher %q: %w", pattern, err)
	}
	return hooks.RegexMatcher{Re: re}, nil
}

// mindToolAliases are spec 000's fixed compatibility aliases: each local
// tool name and the names hooks written for other hosts use for it.
var mindToolAliases = map[string][]string{
	"shell_command": {"Bash"},
	"exec_command":  {"Bash"},
	"write_stdin":   {"Bash"},
	"apply_patch":   {"Edit", "Write"},
	"spawn_agent":   {"Agent"},
}

// mindToolNames returns the names a tool call matches by: the name the host
// sent, then its aliases. A host that sends an alias itself (Bash, Edit)
// matches the local names that alias stands for too. Unlike the codex
// profile, the three shell tools are not aliases of each other: a matcher
// "exec_command" does not match a write_stdin call.
func mindToolNames(name string) []string {
	names := []string{name}
	if aliases, ok := mindToolAliases[name]; ok {
		return append(names, aliases...)
	}
	for _, local := range []string{"shell_command", "exec_command", "write_stdin", "apply_patch", "spawn_agent"} {
		for _, a := range mindToolAliases[local] {
			if a == name {
				names = append(names, local)
			}
		}
	}
	return names
}

// mindCanonicalTool is the tool_name hooks read: spec 000 names the shell
// tools Bash and the patch tool apply_patch; everything else keeps the name
// the host sent.
func mindCanonicalTool(name string) string {
	switch name {
	case "shell_command", "exec_command", "write_stdin":
		return "Bash"
	}
	return name
}

// newMindSessionID returns "sid_" and a version 7 UUID: Mind's session ids
// start with sid_ (spec 000's transcript example) and carry their creation
// time, which names the transcript's date folder.
func newMindSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(time.Now().UnixMilli()))
	copy(b[0:6], ms[2:8])
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("sid_%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
