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
	before := beforeTable()
	var b strings.Builder
	if before == nil {
		fmt.Fprintf(&b, "| %s | behaviour | real host | hookd | same |\n|---|---|---|---|---|\n", profile)
	} else {
		fmt.Fprintf(&b, "| %s | behaviour | real host | hookd before | hookd after | same |\n|---|---|---|---|---|---|\n", profile)
	}
	for _, r := range rs {
		same := "yes"
		if r.host != r.hookd {
			same = "**no**"
		}
		if before == nil {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.item, cell(r.behaviour), cell(r.host), cell(r.hookd), same)
			continue
		}
		was, ok := before[profile+"|"+r.item+"|"+cell(r.behaviour)]
		if !ok {
			was = "(not run)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", r.item, cell(r.behaviour), cell(r.host), was, cell(r.hookd), same)
	}
	return b.String()
}

// beforeTable reads $REALHOST_BEFORE, a table this suite wrote earlier, and
// returns its hookd column by profile, item and behaviour; nil when unset.
func beforeTable() map[string]string {
	p := os.Getenv("REALHOST_BEFORE")
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		fmt.Fprintln(os.Stderr, "REALHOST_BEFORE:", err)
		return nil
	}
	m := map[string]string{}
	profile := ""
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "## ") {
			profile = strings.Fields(line)[1]
			continue
		}
		cells := splitRow(line)
		if len(cells) < 4 || itemNum(cells[0]) == 0 {
			continue
		}
		// the hookd column is the one before "same"
		m[profile+"|"+cells[0]+"|"+cells[1]] = cells[len(cells)-2]
	}
	return m
}

// splitRow splits a Markdown table row on unescaped "|".
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") {
		return nil
	}
	var cells []string
	var cur strings.Builder
	for i := 1; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteString(`\|`)
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return cells
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
