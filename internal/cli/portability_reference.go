package cli

// docs/portability.md's generated part: the host-difference tables, made
// from the profiles' port tables so the page cannot drift from what
// hookd test --profiles and hookd port use.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hookd/hookd/hooks"
)

const portabilityMarker = "<!-- Generated from the profiles' port tables (hooks.RegisterPortTable): edit the tables, then run `go test -run TestPortabilityReference -update ./internal/cli/`. -->\n"

func writePortability(w io.Writer) {
	names := hooks.ProfileNames()
	sort.Strings(names)
	var tables []*hooks.PortTable
	var cols []string
	for _, n := range names {
		t, ok := hooks.LookupPortTable(n)
		if !ok {
			continue
		}
		tables = append(tables, t)
		cols = append(cols, "`"+n+"`")
	}
	io.WriteString(w, portabilityMarker)
	row := func(cells ...string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	header := func(first string) {
		fmt.Fprintln(w)
		row(append([]string{first}, cols...)...)
		row(strings.Split(strings.Repeat("---,", len(cols)+1), ",")[:len(cols)+1]...)
	}
	name := func(s string, ok bool) string {
		if !ok {
			return "—"
		}
		return "`" + s + "`"
	}

	fmt.Fprintln(w, "\n### Events")
	fmt.Fprintln(w, "\nClaude Code's event, and the host's name for it (—: none; a test of it is not expressible there).")
	header("Claude Code")
	for _, ev := range hooks.ClaudeEvents {
		cells := []string{"`" + ev + "`"}
		for _, t := range tables {
			if t.NoPlugins != "" {
				cells = append(cells, "(no plugins)")
				continue
			}
			cells = append(cells, name(t.Event(ev)))
		}
		row(cells...)
	}

	fmt.Fprintln(w, "\n### Tools")
	fmt.Fprintln(w, "\nThe name a matcher and the input's `tool_name` use for Claude Code's tool.")
	header("Claude Code")
	for _, tool := range hooks.ClaudeTools {
		cells := []string{"`" + tool + "`"}
		for _, t := range tables {
			if t.NoPlugins != "" {
				cells = append(cells, "(no plugins)")
				continue
			}
			cells = append(cells, name(t.Tool(tool)))
		}
		row(cells...)
	}

	fmt.Fprintln(w, "\n### Input fields and layout")
	header("")
	for _, f := range []string{"tool_name", "tool_input", "tool_response", "agent_type"} {
		cells := []string{"field `" + f + "`"}
		for _, t := range tables {
			cells = append(cells, "`"+t.Field(f)+"`")
		}
		row(cells...)
	}
	layout := []struct {
		label string
		get   func(l hooks.PortLayout) string
	}{
		{"manifest", func(l hooks.PortLayout) string { return l.Manifest }},
		{"hooks file", func(l hooks.PortLayout) string { return l.HooksFile }},
		{"timeout", func(l hooks.PortLayout) string {
			if l.TimeoutKey == "" {
				return ""
			}
			unit := "s"
			if l.TimeoutScale == 1000 {
				unit = "ms"
			}
			return l.TimeoutKey + " (" + unit + ")"
		}},
		{"plugin folder in a command", func(l hooks.PortLayout) string { return l.RootVar }},
	}
	for _, lr := range layout {
		cells := []string{lr.label}
		for _, t := range tables {
			v := lr.get(t.Layout)
			switch {
			case t.NoPlugins != "":
				v = "(no plugins)"
			case v == "":
				v = "—"
			default:
				v = "`" + v + "`"
			}
			cells = append(cells, v)
		}
		row(cells...)
	}

	fmt.Fprintln(w, "\n### Rules that change an outcome")
	fmt.Fprintln(w, "\nWhat `hookd test --profiles` names in a different cell, by the result field a test checks.")
	for _, t := range tables {
		fmt.Fprintf(w, "\n**%s** ([page](%s))", t.Profile, t.Doc)
		switch {
		case t.NoPlugins != "":
			fmt.Fprintf(w, ": loads no plugin's hooks (%s).\n", t.NoPlugins)
			continue
		case len(t.Rules) == 0:
			fmt.Fprintln(w, ": none; the reference.")
			continue
		}
		fmt.Fprintln(w)
		fmt.Fprintln(w)
		for _, r := range t.Rules {
			ev := r.Event
			if ev == "" {
				ev = "any event"
			}
			fmt.Fprintf(w, "- %s, `%s`: [%s](%s)\n", ev, r.Field, r.Text, t.Link(r))
		}
	}
}
