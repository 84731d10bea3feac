package rpc

import (
	"context"
	"strings"
)

func init() {
	methods["hooks/activateSkill"] = method{handle: hooksActivateSkill, inline: true}
}

type hooksActivateSkillParams struct {
	Name *string `json:"name"`
	// AgentID is the agent that invoked the skill (its agent_id); absent
	// or empty: the main agent.
	AgentID string `json:"agentId"`
}

type hooksActivateSkillResult struct {
	Name string `json:"name"`
	// Hooks are the keys of the hooks the skill adds to the session (empty
	// for a skill hookd found no hooks in, or does not know).
	Hooks []string `json:"hooks"`
	// Active lists every skill activated in the session so far.
	Active []string `json:"active"`
}

// hooksActivateSkill tells hookd that the agent invoked a skill (Claude
// Code's Skill tool or its slash command): the skill's frontmatter hooks run
// from now on in that agent's events, for the rest of the session
// (docs/scoped-hooks.md). It is
// ordered with the runs around it, so the next hooks/run sees the skill.
func hooksActivateSkill(ctx context.Context, s *Server, params []byte) (any, error) {
	var p hooksActivateSkillParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	if p.Name == nil || strings.TrimSpace(*p.Name) == "" {
		return nil, invalidParams("invalid params: field \"name\" is required (the skill's name, \"<plugin>:<skill>\" for a plugin's)")
	}
	e := s.Engine()
	name := strings.TrimSpace(*p.Name)
	keys := e.ActivateSkillIn(name, p.AgentID)
	return hooksActivateSkillResult{Name: name, Hooks: keys, Active: e.ActiveSkills()}, nil
}
