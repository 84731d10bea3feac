// Package envfile reads the file a Claude Code SessionStart hook finds in
// CLAUDE_ENV_FILE. Hooks write shell lines there (export NAME=value, or a
// plain NAME=value) and Claude Code applies them to the environment of its
// later Bash tool calls. hookd does not run tools, so it reads the file and
// hands the host the variables it sets.
//
// The file is parsed, never run (mvdan.cc/sh): an assignment's value is
// expanded as the shell would ($VAR and ${VAR} from the variables set so far
// and then the given environment, quotes removed); a line that would need
// running a program (a command substitution, any command other than export,
// declare -x or a bare assignment) is skipped with a warning.
package envfile

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Var is one variable the file sets.
type Var struct {
	Name, Value string
}

// Parse reads script and returns the variables it sets, in the order they
// were first set (a later assignment replaces the value in place), and a
// warning for each statement it skipped. environ ("NAME=value" strings) is
// the environment the values expand against. A script the shell cannot
// parse is an error.
func Parse(script []byte, environ []string) ([]Var, []string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(script)), "CLAUDE_ENV_FILE")
	if err != nil {
		return nil, nil, fmt.Errorf("parse env file: %w", err)
	}
	base := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			base[k] = v
		}
	}
	var (
		vars  []Var
		index = map[string]int{}
		warns []string
	)
	set := func(name, value string) {
		if i, ok := index[name]; ok {
			vars[i].Value = value
			return
		}
		index[name] = len(vars)
		vars = append(vars, Var{name, value})
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(func(name string) string {
		if i, ok := index[name]; ok {
			return vars[i].Value
		}
		return base[name]
	})}
	for _, st := range f.Stmts {
		line := st.Pos().Line()
		assigns, ok := assignments(st)
		if !ok {
			warns = append(warns, fmt.Sprintf("line %d: skipped: only export and NAME=value lines are read", line))
			continue
		}
		for _, as := range assigns {
			if as.Append || as.Index != nil || as.Array != nil {
				warns = append(warns, fmt.Sprintf("line %d: skipped %s: arrays and += are not read", line, as.Name.Value))
				continue
			}
			if as.Naked || as.Value == nil {
				continue // "export NAME" marks an existing variable: no new value
			}
			v, err := expand.Literal(cfg, as.Value)
			if err != nil {
				warns = append(warns, fmt.Sprintf("line %d: skipped %s: %v", line, as.Name.Value, err))
				continue
			}
			set(as.Name.Value, v)
		}
	}
	return vars, warns, nil
}

// assignments returns the assignments of an export/declare -x statement or
// a bare assignment; ok is false for anything else.
func assignments(st *syntax.Stmt) ([]*syntax.Assign, bool) {
	if st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 {
		return nil, false
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return c.Assigns, true
		}
	case *syntax.DeclClause:
		exported := c.Variant.Value == "export"
		if !exported && c.Variant.Value != "declare" && c.Variant.Value != "typeset" {
			return nil, false
		}
		var out []*syntax.Assign
		for _, a := range c.Args {
			if a.Name == nil { // an option, or a word only known at run time
				lit := ""
				if a.Value != nil {
					lit = a.Value.Lit()
				}
				if !strings.HasPrefix(lit, "-") {
					return nil, false
				}
				exported = exported || strings.Contains(lit, "x")
				continue
			}
			out = append(out, a)
		}
		return out, exported
	}
	return nil, false
}
