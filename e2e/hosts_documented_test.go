package main

import (
	"os"
	"regexp"
	"sort"
	"testing"

	"github.com/hookd/hookd/hooks"
)

// TestHosts_EveryLinkedProfileIsDocumented: each profile hosts.go links is
// named where a reader looks for it: the README's list, the profile
// comparison (docs/profiles.md, with a page of its own) and the command-line
// reference (docs/cli.md).
func TestHosts_EveryLinkedProfileIsDocumented(t *testing.T) {
	names := hooks.ProfileNames()
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("hosts.go links no profile")
	}
	docs := map[string]string{}
	for _, f := range []string{"README.md", "docs/profiles.md", "docs/cli.md"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(data)
	}
	for _, name := range names {
		code := regexp.MustCompile("`" + regexp.QuoteMeta(name) + "`")
		for f, text := range docs {
			if !code.MatchString(text) {
				t.Errorf("%s does not name the %s profile (as `%s`)", f, name, name)
			}
		}
		page := "docs/profile-" + name + ".md"
		if _, err := os.Stat(page); err != nil {
			t.Errorf("profile %s has no page %s", name, page)
		}
		if !regexp.MustCompile(`\(profile-` + regexp.QuoteMeta(name) + `\.md\)`).MatchString(docs["docs/profiles.md"]) {
			t.Errorf("docs/profiles.md does not link %s", page)
		}
	}
}
