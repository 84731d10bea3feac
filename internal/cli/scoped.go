package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// Scoped hooks on the command line (docs/scoped-hooks.md): `hookd list`
// shows each agent or skill hook's scope in its SOURCE cell, and
// `hookd run|explain --activate-skill NAME` run or explain the event as
// after the agent invoked that skill. An event inside a subagent is one whose input carries
// agent_type and agent_id (`event -agent TYPE[:ID]` in hookd test scripts).

// activateSkills activates each named skill before the event runs, in the
// agent of the event's input (its agent_id; none: the main agent), and
// says on stderr when a name selects no hooks (a typo is not silent).
func activateSkills(e *hooks.Engine, names []string, input []byte, stderr io.Writer) error {
	agentID := gjson.GetBytes(input, "agent_id").Str
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			return errors.New("--activate-skill: empty skill name")
		}
		if len(e.ActivateSkillIn(n, agentID)) == 0 {
			fmt.Fprintf(stderr, "warning: --activate-skill %s: no discovered skill of that name has hooks\n", n)
		}
	}
	return nil
}

// sourceCell is a hook's SOURCE in `hookd list`: its layer, and for an
// agent or skill hook the scope ("user agent:reviewer", "project
// skill:guard (once)").
func sourceCell(h hooks.HookInfo) string {
	if h.Scope == nil {
		return h.Source.Layer
	}
	cell := h.Source.Layer + " " + h.Scope.Kind + ":" + h.Scope.Name
	var notes []string
	if h.Scope.Active {
		notes = append(notes, "active")
	}
	if h.Scope.Once {
		notes = append(notes, "once")
	}
	if h.Scope.Spent {
		notes = append(notes, "spent")
	}
	if len(notes) > 0 {
		cell += " (" + strings.Join(notes, ", ") + ")"
	}
	return cell
}

// agentSets turns `event -agent TYPE[:ID]` into the -set values of a
// subagent's event.
func agentSets(spec string) []string {
	typ, id, ok := strings.Cut(spec, ":")
	if !ok || id == "" {
		id = typ + "-1"
	}
	return []string{"agent_type=" + jsonString(typ), "agent_id=" + jsonString(id)}
}

// jsonString quotes s as JSON text, so a -set value is read as a string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
