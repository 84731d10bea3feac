package hooks

import (
	"sort"
	"strings"
)

// A PortTable is one profile's translation of the vocabulary plugins are
// written in (Claude Code's: PreToolUse, Bash, tool_input.command) into the
// host's own, and the rules where the host's answer to the same hook output
// differs. `hookd test --profiles` translates a plugin's scripts with it and
// `hookd port` writes a plugin's hooks in the host's layout with it. Each
// profile registers its table next to the profile (RegisterPortTable in the
// profile package's init): a new profile adds its own.
type PortTable struct {
	// Profile is the profile's name.
	Profile string
	// Doc is the profile's page, relative to docs/ ("profile-gemini.md").
	Doc string
	// Events maps a Claude Code event to the host's. An event missing here
	// has no counterpart: a test of it is not expressible on the host.
	Events map[string]string
	// Tools maps a Claude Code tool name to the host's. A tool missing here
	// keeps its name when it is a name the host knows (Known), else a test
	// naming it is not expressible.
	Tools map[string]string
	// Known lists further tool names the host takes as they are (Codex's
	// exec_command).
	Known []string
	// Fields maps an input field of the Claude Code event (a gjson path's
	// first element: tool_name, tool_input) to the host's; missing: same.
	Fields map[string]string
	// NoPlugins, when set, says why the host loads no plugin's hooks; the
	// profile's column is then not expressible and hookd port refuses.
	NoPlugins string
	// Layout is how hookd port writes a plugin for the host.
	Layout PortLayout
	// Rules are the host's known differences from Claude Code, each naming
	// the result field it changes.
	Rules []PortRule
}

// PortLayout says where and how a ported plugin's hooks are written.
type PortLayout struct {
	// Manifest is the manifest file written at the plugin's root
	// ("gemini-extension.json", ".codex-plugin/plugin.json"); ManifestHooks
	// puts the hooks in it ("hooks": {...}) instead of HooksFile.
	Manifest string
	// HooksFile is the hooks file, relative to the plugin root.
	HooksFile string
	// Version, when non-zero, is written as the hooks file's "version".
	Version int
	// TimeoutKey is the handler's timeout field; TimeoutScale multiplies
	// Claude Code's seconds (1000: milliseconds).
	TimeoutKey   string
	TimeoutScale int
	// RootVar is how a command names the plugin's folder
	// ("${extensionPath}"); the port rewrites ${CLAUDE_PLUGIN_ROOT} and
	// ${PLUGIN_ROOT} to it. Empty: left as written.
	RootVar string
	// Drop lists handler fields the host does not read; the port leaves
	// them out and says so.
	Drop []string
}

// A PortRule is one host difference: on Event (a Claude Code event, "" for
// any), what the host does to Field (a result field as hookd test's
// assertions name it: decision, reason, context, updated-input, ...).
type PortRule struct {
	Event   string
	Field   string
	Text    string
	Section string // the profile page's section anchor, "#reading-output"
}

// Link is the rule's profile page section, relative to docs/.
func (t *PortTable) Link(r PortRule) string { return t.Doc + r.Section }

// Rule returns the rule that explains a difference in field on event, if
// the table has one.
func (t *PortTable) Rule(event, field string) (PortRule, bool) {
	for _, r := range t.Rules {
		if (r.Event == "" || r.Event == event) && (r.Field == "" || r.Field == field) {
			return r, true
		}
	}
	return PortRule{}, false
}

// Event translates a Claude Code event name.
func (t *PortTable) Event(name string) (string, bool) {
	if t.Events == nil {
		return name, true
	}
	n, ok := t.Events[name]
	return n, ok
}

// Tool translates a Claude Code tool name. mcp__ tools keep their name.
func (t *PortTable) Tool(name string) (string, bool) {
	if n, ok := t.Tools[name]; ok {
		return n, true
	}
	if strings.HasPrefix(name, "mcp__") || t.Tools == nil {
		return name, true
	}
	for _, k := range t.Known {
		if k == name {
			return name, true
		}
	}
	for _, v := range t.Tools {
		if v == name {
			return name, true // already the host's name
		}
	}
	return "", false
}

// Field translates the first element of an input field path.
func (t *PortTable) Field(path string) string {
	head, rest, _ := strings.Cut(path, ".")
	if n, ok := t.Fields[head]; ok {
		head = n
	}
	if rest != "" {
		return head + "." + rest
	}
	return head
}

var portTables = map[string]*PortTable{}

// RegisterPortTable makes a profile's port table available to
// LookupPortTable.
func RegisterPortTable(t *PortTable) { portTables[t.Profile] = t }

// LookupPortTable returns the named profile's table.
func LookupPortTable(name string) (*PortTable, bool) {
	t, ok := portTables[name]
	return t, ok
}

// PortTableNames lists the profiles with a table, sorted.
func PortTableNames() []string {
	var names []string
	for n := range portTables {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ClaudeEvents is the Claude Code event vocabulary the tables translate, in
// a fixed order.
var ClaudeEvents = []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
	"UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "SubagentStart", "SubagentStop",
	"PreCompact", "PostCompact", "Notification"}

// ClaudeTools is the Claude Code tool vocabulary the tables translate.
var ClaudeTools = []string{"Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "WebSearch", "Task"}
