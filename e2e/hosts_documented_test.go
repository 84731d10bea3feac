package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestHosts_EveryLinkedProfileIsDocumented: each profile hosts.go links is
// named where a reader looks for it: the README's list, the profile
// comparison (docs/profiles.md, with a page of its own) and the command-line
// reference (docs/cli.md).
func TestHosts_EveryLinkedProfileIsDocumented(t *testing.T) {
	names := linkedProfiles(t)
	if len(names) == 0 {
		t.Fatal("hosts.go links no profile")
	}
	docs := map[string]string{}
	for _, f := range []string{"README.md", "docs/profiles.md", "docs/cli.md"} {
		data, err := os.ReadFile(filepath.Join("..", f))
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
		if _, err := os.Stat(filepath.Join("..", page)); err != nil {
			t.Errorf("profile %s has no page %s", name, page)
		}
		if !regexp.MustCompile(`\(profile-` + regexp.QuoteMeta(name) + `\.md\)`).MatchString(docs["docs/profiles.md"]) {
			t.Errorf("docs/profiles.md does not link %s", page)
		}
	}
}

// linkedProfiles are the profiles the binary knows, as its shell completion
// of --profile lists them (one a line, then cobra's ":directive" line).
func linkedProfiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(hookdPath(t), "__complete", "run", "--profile", "").Output()
	if err != nil {
		t.Fatalf("hookd __complete run --profile: %v", err)
	}
	var names []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line != "" && !strings.HasPrefix(line, ":") {
			names = append(names, line)
		}
	}
	sort.Strings(names)
	return names
}
