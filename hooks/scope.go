package hooks

import (
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/tidwall/gjson"
)

// Scoped hooks belong to part of a session rather than to all of it. Claude
// Code's subagent definitions and skills declare hooks in their frontmatter
// (docs/scoped-hooks.md): an agent's hooks run only for events inside that
// subagent, a skill's only once the host says the skill was invoked, and
// from then on for the rest of the session. The profile that reads such
// definitions sets Hook.Scope; the engine keeps the session's side of it:
// the skills invoked, the subagents running and the once-only handlers that
// already ran. A hook without a Scope is the whole session's.

// Scope kinds.
const (
	ScopeAgent = "agent"
	ScopeSkill = "skill"
)

// SkipOnce is the Skip reason of a once-only scoped handler that already ran.
const SkipOnce = "once"

// Scope limits a hook to one subagent or one skill.
type Scope struct {
	// Kind is ScopeAgent or ScopeSkill; Name the agent type or skill name
	// the host uses, and Aliases other names that select the same
	// definition (a skill's folder name and its frontmatter name).
	Kind    string
	Name    string
	Aliases []string
	// Path is the definition file (the agent's .md, the skill's SKILL.md).
	Path string
	// Once: the handler runs the first time it is selected in the session
	// and never again (Claude Code's once: true, honoured in skills).
	Once bool
	// Env are variables the handler's process gets, exported only: the
	// command text is run as written (a skill's CLAUDE_PLUGIN_ROOT).
	Env map[string]string
	// Fail, when not empty, is why the handler cannot run: it fails with
	// this error instead of starting (a placeholder the scope does not
	// provide). The failure does not block.
	Fail string
}

// named reports whether the scope answers to name.
func (s *Scope) named(name string) bool {
	return s.Name == name || slices.Contains(s.Aliases, name)
}

// ScopeInfo is a scoped hook's scope as hooks/list shows it.
type ScopeInfo struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Path string `json:"path"`
	// Active: a skill's hooks after the host invoked it; an agent's while
	// a subagent of that type runs (between its SubagentStart and
	// SubagentStop, as the host reported them).
	Active bool `json:"active"`
	Once   bool `json:"once,omitempty"`
	// Spent: a once-only handler that already ran; it will not run again.
	Spent bool `json:"spent,omitempty"`
}

// ScopeRef names the scope of a hook in hooks/run results.
type ScopeRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Once bool   `json:"once,omitempty"`
}

func (s *Scope) ref() *ScopeRef {
	if s == nil {
		return nil
	}
	return &ScopeRef{Kind: s.Kind, Name: s.Name, Once: s.Once}
}

// scopeState is the session's side of scoped hooks, kept by the engine for
// its lifetime (a reload keeps it: it is by name and key, not by *Hook).
type scopeState struct {
	mu sync.Mutex
	// skills holds the names the host activated, each with the agents it
	// was invoked in (agent_id, "" for the main agent).
	skills map[string]map[string]bool
	// agents maps each running subagent's agent_id to its agent_type, so an
	// event that carries only agent_id is still placed in its agent.
	agents map[string]string
	// spent holds the keys of once-only handlers that ran.
	spent map[string]bool
}

// eventScope is where one event happened: in a subagent (AgentID and
// AgentType both known) or in the main agent.
type eventScope struct{ AgentType, AgentID string }

// ActivateSkill is ActivateSkillIn for the main agent.
func (e *Engine) ActivateSkill(name string) []string { return e.ActivateSkillIn(name, "") }

// ActivateSkillIn adds the hooks of the named skill to the agent that
// invoked it (agentID, "" for the main agent): from now on they run like
// the session's own in that agent's events, as when Claude Code's Skill tool
// or slash command invokes the skill (a skill the main agent invoked does
// not run in its subagents). The name is kept even when no discovered skill
// has it (a skill without hooks, or one that a later reload finds). It
// returns the keys of the hooks the skill now adds, in display order.
func (e *Engine) ActivateSkillIn(name, agentID string) []string {
	e.scope.mu.Lock()
	if e.scope.skills == nil {
		e.scope.skills = map[string]map[string]bool{}
	}
	if e.scope.skills[name] == nil {
		e.scope.skills[name] = map[string]bool{}
	}
	e.scope.skills[name][agentID] = true
	e.scope.mu.Unlock()
	hooks, _ := e.snapshot()
	keys := []string{}
	for _, h := range hooks {
		if h.Scope != nil && h.Scope.Kind == ScopeSkill && h.Scope.named(name) {
			keys = append(keys, h.Key)
		}
	}
	return keys
}

// ActiveSkills lists the skill names the host activated, sorted.
func (e *Engine) ActiveSkills() []string {
	e.scope.mu.Lock()
	defer e.scope.mu.Unlock()
	out := make([]string, 0, len(e.scope.skills))
	for n := range e.scope.skills {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// scopeOf places an event: its input's agent_type and agent_id, the type
// looked up by id when only the id is given. An event that names both
// records the subagent as running; SubagentStop ends it (endScope).
func (e *Engine) scopeOf(input []byte) eventScope {
	return e.placeEvent(input, true)
}

// placeEvent is scopeOf; record false only looks (Explain writes nothing).
func (e *Engine) placeEvent(input []byte, record bool) eventScope {
	// GetBytes, not ParseBytes: the input may be megabytes, and only two
	// short fields are wanted (ParseBytes would copy it all).
	s := eventScope{AgentType: gjson.GetBytes(input, "agent_type").Str, AgentID: gjson.GetBytes(input, "agent_id").Str}
	if s.AgentID == "" {
		return s
	}
	e.scope.mu.Lock()
	defer e.scope.mu.Unlock()
	switch {
	case s.AgentType != "" && record:
		if e.scope.agents == nil {
			e.scope.agents = map[string]string{}
		}
		e.scope.agents[s.AgentID] = s.AgentType
	case s.AgentType == "":
		s.AgentType = e.scope.agents[s.AgentID]
	}
	return s
}

// ExplainScope is Explanation.Reason for a scoped hook the event is outside
// of: another subagent or the main agent, or a skill not activated.
const ExplainScope = "scope"

// scopeDetail says why h's scope leaves out an event placed at s.
func scopeDetail(h *Hook, s eventScope) string {
	sc := h.Scope
	if sc.Kind == ScopeSkill {
		return fmt.Sprintf("a hook of skill %q, which runs only once the skill is invoked (hooks/activateSkill, hookd run --activate-skill %s)", sc.Name, sc.Name)
	}
	where := "the main agent (the input has no agent_id)"
	if s.AgentID != "" {
		where = fmt.Sprintf("subagent %q of type %q", s.AgentID, s.AgentType)
	}
	return fmt.Sprintf("a hook of agent %q, which runs only inside that subagent (input agent_type %q with an agent_id); this event is in %s", sc.Name, sc.Name, where)
}

// onceSpent reports whether h is a once-only hook that already ran.
func (e *Engine) onceSpent(h *Hook) bool {
	if h.Scope == nil || !h.Scope.Once {
		return false
	}
	e.scope.mu.Lock()
	defer e.scope.mu.Unlock()
	return e.scope.spent[h.Key]
}

// endScope forgets a subagent once its SubagentStop ran.
func (e *Engine) endScope(ev *EventRules, s eventScope) {
	if ev.Name != "SubagentStop" || s.AgentID == "" {
		return
	}
	e.scope.mu.Lock()
	delete(e.scope.agents, s.AgentID)
	e.scope.mu.Unlock()
}

// inScope reports whether h applies to an event placed at s: hooks without
// a scope always do; an agent's only inside a subagent of that type; a
// skill's once the skill was activated in the event's agent.
func (e *Engine) inScope(h *Hook, s eventScope) bool {
	sc := h.Scope
	if sc == nil {
		return true
	}
	switch sc.Kind {
	case ScopeAgent:
		return s.AgentID != "" && sc.named(s.AgentType)
	case ScopeSkill:
		e.scope.mu.Lock()
		defer e.scope.mu.Unlock()
		if e.scope.skills[sc.Name][s.AgentID] {
			return true
		}
		for _, a := range sc.Aliases {
			if e.scope.skills[a][s.AgentID] {
				return true
			}
		}
		return false
	}
	return false
}

// claimOnce reports whether a once-only hook may run now, and marks it
// spent: of two runs at once, only one gets it.
func (e *Engine) claimOnce(h *Hook) bool {
	if h.Scope == nil || !h.Scope.Once {
		return true
	}
	e.scope.mu.Lock()
	defer e.scope.mu.Unlock()
	if e.scope.spent[h.Key] {
		return false
	}
	if e.scope.spent == nil {
		e.scope.spent = map[string]bool{}
	}
	e.scope.spent[h.Key] = true
	return true
}

// scopeInfo is h's scope for hooks/list, or nil.
func (e *Engine) scopeInfo(h *Hook) *ScopeInfo {
	sc := h.Scope
	if sc == nil {
		return nil
	}
	info := &ScopeInfo{Kind: sc.Kind, Name: sc.Name, Path: sc.Path, Once: sc.Once}
	switch sc.Kind {
	case ScopeSkill:
		info.Active = e.inScope(h, eventScope{})
	case ScopeAgent:
		e.scope.mu.Lock()
		for _, t := range e.scope.agents {
			if sc.named(t) {
				info.Active = true
				break
			}
		}
		e.scope.mu.Unlock()
	}
	if sc.Once {
		e.scope.mu.Lock()
		info.Spent = e.scope.spent[h.Key]
		e.scope.mu.Unlock()
		info.Active = info.Active && !info.Spent
	}
	return info
}
