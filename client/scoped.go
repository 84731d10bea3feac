package client

import "context"

// Scoped hooks: Claude Code's agent and skill frontmatter hooks
// (docs/scoped-hooks.md). An agent's hooks run for events whose input
// carries that agent_type and an agent_id; a skill's once ActivateSkill
// named it.

// Scope kinds.
const (
	ScopeAgent = "agent"
	ScopeSkill = "skill"
)

// HookScope is a scoped hook's scope in hooks/list.
type HookScope struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Path is the agent's .md or the skill's SKILL.md.
	Path string `json:"path"`
	// Active: a skill activated in the session; an agent of which a
	// subagent is running.
	Active bool `json:"active"`
	Once   bool `json:"once,omitempty"`
	// Spent: a once-only handler that already ran.
	Spent bool `json:"spent,omitempty"`
}

// RunScope names the scope of a hook that ran, in hooks/run results.
type RunScope struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	Once bool   `json:"once,omitempty"`
}

// ActivateSkillResult is hooks/activateSkill's result.
type ActivateSkillResult struct {
	Name string `json:"name"`
	// Hooks are the keys of the hooks the skill adds.
	Hooks []string `json:"hooks"`
	// Active lists every skill activated in the session.
	Active []string `json:"active"`
}

// ActivateSkill tells hookd the main agent invoked the named skill
// ("<plugin>:<skill>" for a plugin's): its hooks run in the main agent's
// events for the rest of the session.
func (c *Client) ActivateSkill(ctx context.Context, name string) (*ActivateSkillResult, error) {
	return c.ActivateSkillIn(ctx, name, "")
}

// ActivateSkillIn is ActivateSkill for the subagent agentID (its
// agent_id; "" is the main agent): the skill's hooks run in its events.
func (c *Client) ActivateSkillIn(ctx context.Context, name, agentID string) (*ActivateSkillResult, error) {
	params := map[string]any{"name": name}
	if agentID != "" {
		params["agentId"] = agentID
	}
	var res ActivateSkillResult
	if err := c.Call(ctx, "hooks/activateSkill", params, &res); err != nil {
		return nil, err
	}
	return &res, nil
}
