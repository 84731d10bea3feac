package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// TestPortabilityReference_IsCurrent fails when docs/portability.md's tables
// are not what the profiles' port tables say.
func TestPortabilityReference_IsCurrent(t *testing.T) {
	sameHosts(t)
	page := filepath.Join("..", "..", "docs", "portability.md")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	head, _, found := strings.Cut(string(data), portabilityMarker)
	if !found && *updateReference {
		head, found = string(data), true
	}
	if !found {
		t.Fatalf("%s has no generated part (the line %q)", page, portabilityMarker)
	}
	var b bytes.Buffer
	writePortability(&b)
	want := head + b.String()
	if want == string(data) {
		return
	}
	if *updateReference {
		if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is stale: run `go test -run TestPortabilityReference -update ./internal/cli/` and commit it", page)
}

// TestPortTables_EveryRuleLinksASectionOfItsPage: a rule's link names a
// heading of the profile's page, so the matrix never points nowhere.
func TestPortTables_EveryRuleLinksASectionOfItsPage(t *testing.T) {
	for _, name := range hooks.PortTableNames() {
		tb, _ := hooks.LookupPortTable(name)
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", tb.Doc))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		anchors := map[string]bool{"": true} // the page itself
		for _, line := range strings.Split(string(data), "\n") {
			if h, ok := strings.CutPrefix(line, "## "); ok {
				anchors["#"+strings.ReplaceAll(strings.ToLower(strings.Trim(h, " `")), " ", "-")] = true
			}
		}
		for _, r := range tb.Rules {
			if !anchors[r.Section] {
				t.Errorf("%s: rule %q links %s%s, which is no section of the page", name, r.Text, tb.Doc, r.Section)
			}
		}
		if tb.NoPlugins == "" && len(tb.Events) == 0 {
			t.Errorf("%s: a profile that loads plugins needs its event table", name)
		}
	}
}

// TestPortTables_TranslateIntoTheProfilesOwnNames: every event a table
// gives is one its profile knows, so a translated script never asks for an
// event the host lacks.
func TestPortTables_TranslateIntoTheProfilesOwnNames(t *testing.T) {
	for _, name := range hooks.PortTableNames() {
		tb, _ := hooks.LookupPortTable(name)
		p, ok := hooks.LookupProfile(name)
		if !ok {
			t.Errorf("port table %s has no profile", name)
			continue
		}
		for from, to := range tb.Events {
			if p.Event(to) == nil {
				t.Errorf("%s: %s → %s, which the profile does not know", name, from, to)
			}
		}
	}
	if g, _ := hooks.LookupPortTable("gemini"); g.Field("tool_input.command") != "tool_input.command" {
		t.Errorf("gemini renames tool_input")
	}
	if c, _ := hooks.LookupPortTable("copilot"); c.Field("tool_input.command") != "toolArgs.command" {
		t.Errorf("copilot: tool_input.command → %s, want toolArgs.command", c.Field("tool_input.command"))
	}
}
