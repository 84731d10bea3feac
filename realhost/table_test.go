//go:build realhost

package realhost

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

// row is one compared behaviour: what the real host did and what hookd did.
type row struct {
	profile, item, behaviour, host, hookd string
}

var (
	rowsMu sync.Mutex
	rows   []row
)

// record adds a row to the table and fails the test when hookd differs
// from the real host. host and hookd are short descriptions of what was
// observed; they are compared as strings, so a case words both alike.
func record(t *testing.T, profile, item, behaviour, host, hookd string) {
	t.Helper()
	rowsMu.Lock()
	rows = append(rows, row{profile, item, behaviour, host, hookd})
	rowsMu.Unlock()
	if host != hookd {
		t.Errorf("%s %s %s: real host %q, hookd %q", profile, item, behaviour, host, hookd)
	}
}

// table renders the rows of one profile as Markdown.
func table(profile string) string {
	rowsMu.Lock()
	defer rowsMu.Unlock()
	var rs []row
	for _, r := range rows {
		if r.profile == profile {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return itemNum(rs[i].item) < itemNum(rs[j].item) })
	var b strings.Builder
	fmt.Fprintf(&b, "| %s | behaviour | real host | hookd | same |\n|---|---|---|---|---|\n", profile)
	for _, r := range rs {
		same := "yes"
		if r.host != r.hookd {
			same = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.item, cell(r.behaviour), cell(r.host), cell(r.hookd), same)
	}
	return b.String()
}

func itemNum(s string) int {
	n := 0
	fmt.Sscanf(s, "%d", &n)
	return n
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func TestMain(m *testing.M) {
	code := m.Run()
	out := "## codex (" + codexVersion + ")\n\n" + table("codex") + "\n## claude (" + claudeVersion + ")\n\n" + table("claude")
	fmt.Println(out)
	if p := os.Getenv("REALHOST_TABLE"); p != "" {
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}
