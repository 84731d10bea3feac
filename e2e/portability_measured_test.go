package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var updateMeasured = flag.Bool("update", false, "rewrite the measured part of docs/portability.md")

const (
	measuredStart = "<!-- Measured from the fixture plugins with `hookd test --profiles all`: after a change, run `go test ./e2e -run TestPortabilityMeasured -update`. -->"
	measuredEnd   = "<!-- End of the measured part. -->"
)

// portHosts are the hosts the page reports ports to.
var portHosts = []string{"gemini", "qwen", "copilot", "codex"}

// TestPortabilityMeasured runs the matrix on every plugin under
// fixtures/plugins with test scripts and checks the counts and the port
// verdicts docs/portability.md gives are the ones it measures.
func TestPortabilityMeasured(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "fixtures", "plugins", "*", "testscripts"))
	sort.Strings(dirs)
	// One plugin at a time: the public plugins' hooks keep their own
	// one-second timeouts, which a loaded machine should not decide.
	results := make([]gjson.Result, len(dirs))
	for i, d := range dirs {
		var out, stderr bytes.Buffer
		cmd := exec.Command("hookd", "test", "--profiles", "all", "--json", filepath.Dir(d))
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s\n%s", filepath.Dir(d), err, stderr.String(), out.String())
		}
		results[i] = gjson.ParseBytes(out.Bytes())
	}
	want := measuredPart(root, results)

	page := filepath.Join(root, "docs", "portability.md")
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, measuredStart), strings.Index(doc, measuredEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no measured part (%q ... %q)", page, measuredStart, measuredEnd)
	}
	got := doc[i+len(measuredStart) : j]
	if got == want {
		return
	}
	if *updateMeasured {
		if err := os.WriteFile(page, []byte(doc[:i+len(measuredStart)]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/portability.md's measured part is stale: run `go test ./e2e -run TestPortabilityMeasured -update`\n--- want\n%s", want)
}

// measuredPart renders the counts per host and the port verdicts.
func measuredPart(root string, results []gjson.Result) string {
	type counts struct{ same, different, ne int }
	per := map[string]*counts{}
	var hosts []string
	var b strings.Builder
	scripts, public := 0, 0
	var ports strings.Builder
	eq := map[string]int{}
	publicPorts, publicEq := 0, 0
	for _, r := range results {
		p := r.Get("plugins.0")
		name := p.Get("plugin").Str
		_, err := os.Stat(filepath.Join(root, "fixtures", "plugins", name, "SOURCE.md"))
		isPublic := err == nil
		if isPublic {
			public++
		}
		p.Get("tests").ForEach(func(_, t gjson.Result) bool {
			scripts++
			t.Get("cells").ForEach(func(h, c gjson.Result) bool {
				n := per[h.Str]
				if n == nil {
					n = &counts{}
					per[h.Str] = n
					hosts = append(hosts, h.Str)
				}
				switch c.Get("outcome").Str {
				case "same":
					n.same++
				case "different":
					n.different++
				default:
					n.ne++
				}
				return true
			})
			return true
		})
		kind := "written for hookd's tests"
		if isPublic {
			kind = "public"
		}
		fmt.Fprintf(&ports, "| `%s` (%s) |", name, kind)
		for _, h := range portHosts {
			v := "not"
			if p.Get("equivalent." + h).Bool() {
				v = "equivalent"
				eq[h]++
				if isPublic {
					publicEq++
				}
			}
			if isPublic {
				publicPorts++
			}
			fmt.Fprintf(&ports, " %s |", v)
		}
		ports.WriteString("\n")
	}
	sort.Strings(hosts)
	fmt.Fprintf(&b, "\n\n%d plugins (%d public), %d scripts. Per host:\n\n| host | same | different | not expressible |\n| --- | --- | --- | --- |\n", len(results), public, scripts)
	for _, h := range hosts {
		n := per[h]
		fmt.Fprintf(&b, "| `%s` | %d | %d | %d |\n", h, n.same, n.different, n.ne)
	}
	b.WriteString("\nThe ports, as `hookd port` would call them:\n\n| plugin |")
	for _, h := range portHosts {
		fmt.Fprintf(&b, " `%s` |", h)
	}
	b.WriteString("\n| --- |" + strings.Repeat(" --- |", len(portHosts)) + "\n")
	b.WriteString(ports.String())
	total := 0
	var each []string
	for _, h := range portHosts {
		total += eq[h]
		each = append(each, fmt.Sprintf("%s %d", h, eq[h]))
	}
	fmt.Fprintf(&b, "\n%d of the %d ports are equivalent (%s); of the public plugins' %d ports, %d are.\n\n",
		total, len(results)*len(portHosts), strings.Join(each, ", "), publicPorts, publicEq)
	return b.String()
}
