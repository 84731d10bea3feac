package lint_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// The schema editors validate hooks files with (schema/hooks.schema.json)
// and hookd check must agree: every constraint the schema states is a
// diagnostic of check, and a file that keeps them all has none. The cases
// below are generated from the schema, so a constraint added there is
// tested here.

type schemaProp struct {
	Type      string   `json:"type"`
	Enum      []string `json:"enum"`
	Minimum   *int     `json:"minimum"`
	MinLength *int     `json:"minLength"`
}

type schemaObject struct {
	Required             []string              `json:"required"`
	AdditionalProperties *bool                 `json:"additionalProperties"`
	Properties           map[string]schemaProp `json:"properties"`
}

type hooksSchema struct {
	Required             []string `json:"required"`
	AdditionalProperties *bool    `json:"additionalProperties"`
	Properties           struct {
		Hooks struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"hooks"`
		Description json.RawMessage `json:"description"`
	} `json:"properties"`
	Definitions struct {
		Group   schemaObject `json:"group"`
		Handler schemaObject `json:"handler"`
	} `json:"definitions"`
}

func readSchema(t *testing.T) hooksSchema {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "schema", "hooks.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s hooksSchema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// wrongType is a JSON value that is not of the schema type.
func wrongType(typ string) any {
	if typ == "string" {
		return 3
	}
	return "x"
}

// validValue is a value that keeps the property's constraints.
func validValue(name string, p schemaProp) any {
	switch {
	case len(p.Enum) > 0:
		return p.Enum[0]
	case p.Type == "integer":
		return 5
	case p.Type == "boolean":
		return false
	case p.Type == "object":
		return map[string]any{}
	case name == "command", name == "commandWindows", name == "command_windows":
		return "true"
	}
	return "x"
}

func hooksFile(t *testing.T, doc any) string {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// baseHandler is a valid handler of the type the property belongs to.
func baseHandler(prop string) map[string]any {
	if prop == "server" || prop == "tool" || prop == "input" {
		return map[string]any{"type": "mcp_tool", "server": "s", "tool": "t"}
	}
	return map[string]any{"type": "command", "command": "true"}
}

func stopFile(h map[string]any) map[string]any {
	return map[string]any{"hooks": map[string]any{"Stop": []any{map[string]any{"hooks": []any{h}}}}}
}

func TestCheck_AgreesWithTheSchema(t *testing.T) {
	s := readSchema(t)
	type tcase struct {
		name  string
		doc   any
		wantN bool // want at least one diagnostic (else none)
	}
	var cases []tcase
	// Root: "hooks" is required; only the schema's properties are allowed.
	if slices.Contains(s.Required, "hooks") {
		cases = append(cases, tcase{"root without hooks", map[string]any{"description": "x"}, true})
	}
	cases = append(cases, tcase{"root with every property", map[string]any{"description": "x", "hooks": map[string]any{}}, false})
	if s.AdditionalProperties != nil && !*s.AdditionalProperties {
		cases = append(cases, tcase{"root with another property", map[string]any{"owner": "x", "hooks": map[string]any{}}, true})
	}
	// Events: the schema's are known, others are not.
	cases = append(cases, tcase{"an event the schema does not name", map[string]any{"hooks": map[string]any{"PreToolUSE": []any{}}}, true})
	// Groups.
	for _, r := range s.Definitions.Group.Required {
		g := map[string]any{"matcher": "*", "hooks": []any{}}
		delete(g, r)
		cases = append(cases, tcase{"group without " + r, map[string]any{"hooks": map[string]any{"Stop": []any{g}}}, true})
	}
	for name, p := range s.Definitions.Group.Properties {
		if p.Type != "" {
			g := map[string]any{"hooks": []any{}, name: wrongType(p.Type)}
			cases = append(cases, tcase{"group " + name + " not a " + p.Type, map[string]any{"hooks": map[string]any{"Stop": []any{g}}}, true})
		}
	}
	// Handlers: every property valid, then each constraint broken alone.
	names := make([]string, 0, len(s.Definitions.Handler.Properties))
	for n := range s.Definitions.Handler.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	codex, _ := hooks.LookupProfile("codex")
	for _, name := range names {
		p := s.Definitions.Handler.Properties[name]
		if name == "type" {
			for _, typ := range p.Enum {
				h := baseHandler("")
				if typ == "mcp_tool" {
					h = baseHandler("tool")
				}
				h["type"] = typ
				// A type the profile does not run is skipped, and check says so.
				cases = append(cases, tcase{"handler type " + typ, stopFile(h), !slices.Contains(codex.Handlers(), typ)})
			}
			h := baseHandler("")
			h["type"] = "shell"
			cases = append(cases, tcase{"handler type outside the enum", stopFile(h), true})
			continue
		}
		if name == "commandWindows" || name == "command_windows" || name == "additionalContextLimit" {
			// Valid on Stop they are not (one replaces the other; Stop has no
			// context limit): tested on a tool event below.
		}
		h := baseHandler(name)
		h[name] = validValue(name, p)
		ok := stopFile(h)
		if name == "additionalContextLimit" {
			ok = map[string]any{"hooks": map[string]any{"SessionStart": []any{map[string]any{"hooks": []any{h}}}}}
		}
		cases = append(cases, tcase{"handler " + name + " valid", ok, false})
		if p.Type != "" {
			h := baseHandler(name)
			h[name] = wrongType(p.Type)
			cases = append(cases, tcase{"handler " + name + " not a " + p.Type, stopFile(h), true})
		}
		if p.Minimum != nil {
			h := baseHandler(name)
			h[name] = *p.Minimum - 1
			cases = append(cases, tcase{fmt.Sprintf("handler %s below %d", name, *p.Minimum), stopFile(h), true})
		}
		if p.MinLength != nil && *p.MinLength > 0 {
			h := baseHandler(name)
			h[name] = ""
			cases = append(cases, tcase{"handler " + name + " empty", stopFile(h), true})
		}
	}
	for _, r := range s.Definitions.Handler.Required {
		h := baseHandler("")
		delete(h, r)
		cases = append(cases, tcase{"handler without " + r, stopFile(h), true})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := check(t, "codex", map[string]string{"home/hooks.json": hooksFile(t, c.doc)})
			if got := len(ds) > 0; got != c.wantN {
				t.Errorf("%s: diagnostics %v, want some: %v", hooksFile(t, c.doc), ds, c.wantN)
			}
		})
	}
}

// TestCheck_KnowsEverySchemaEvent: each event the schema names loads under
// one of the profiles whose files have this shape, with no diagnostic.
func TestCheck_KnowsEverySchemaEvent(t *testing.T) {
	s := readSchema(t)
	for ev := range s.Properties.Hooks.Properties {
		doc := map[string]any{"hooks": map[string]any{ev: []any{map[string]any{"hooks": []any{baseHandler("")}}}}}
		clean := false
		for _, prof := range []string{"codex", "mind", "claude"} {
			file := "home/hooks.json"
			if prof == "claude" {
				file = "home/settings.json"
			}
			if len(check(t, prof, map[string]string{file: hooksFile(t, doc)})) == 0 {
				clean = true
				break
			}
		}
		if !clean {
			t.Errorf("schema event %s: every profile reports a problem", ev)
		}
	}
}
