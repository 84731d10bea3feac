package cli

// hookd test --profiles: every script of a plugin, run under its own host
// and then, translated, on the plugin's port to each other host; the
// outcomes compared make a matrix test × host → same, different or not
// expressible.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

func addMatrixFlags(cmd *cobra.Command, to *testOpts) {
	cmd.Flags().StringVar(&to.profiles, "profiles", "", "run the scripts under each of these `PROFILES` too (all, or a comma-separated list), each on the plugin's port to that host, and print the matrix test × host: same, different or not expressible")
	cmd.Flags().BoolVar(&to.json, "json", false, "with --profiles: print the matrix as JSON")
	cmd.Flags().BoolVar(&to.failOnChange, "fail-on-different", false, "with --profiles: exit 1 when any test has a different outcome on a host")
}

// Outcomes of a matrix cell.
const (
	cellSame          = "same"
	cellDifferent     = "different"
	cellNotExpressibe = "not expressible"
)

type matrixCell struct {
	Outcome string `json:"outcome"`
	// Rule names the host rule behind a different outcome (or why a test is
	// not expressible); Link is its profile page section under docs/.
	Rule   string `json:"rule,omitempty"`
	Link   string `json:"link,omitempty"`
	Detail string `json:"detail,omitempty"`
}

type matrixTest struct {
	Name   string                `json:"name"`
	Native string                `json:"native"`
	Cells  map[string]matrixCell `json:"cells"`
}

type matrixPlugin struct {
	Plugin string       `json:"plugin"`
	Native string       `json:"native"`
	Tests  []matrixTest `json:"tests"`
	// Ports are the port reports of each host the scripts ran on, and
	// Equivalent says, for those and the plugin's own host, which ports
	// hookd port would call equivalent.
	Ports      map[string]*portReport `json:"ports,omitempty"`
	Equivalent map[string]bool        `json:"equivalent,omitempty"`
}

// portEquivalence says whether a port is equivalent, from each script's
// outcome on the plugin's own host (base) and on the port (got) and its
// cell: a script that keeps itself to other hosts ([host:NAME]) is not
// counted (kept), one for the target host only must pass there, any other
// must pass at home and be the same on the port. No script checked: not
// equivalent.
func portEquivalence(base, got map[string]scriptResult, cells map[string]matrixCell) (equivalent bool, checked, kept int) {
	equivalent = true
	for name, c := range cells {
		switch b, g := base[name], got[name]; {
		case g.status == "SKIP":
			kept++
			continue
		case b.status == "SKIP":
			equivalent = equivalent && c.Outcome == cellSame
		default:
			equivalent = equivalent && c.Outcome == cellSame && b.status == "PASS"
		}
		checked++
	}
	return equivalent && checked > 0, checked, kept
}

type matrixCounts struct {
	Same          int `json:"same"`
	Different     int `json:"different"`
	NotExpressibe int `json:"notExpressible"`
}

type matrixOut struct {
	Hosts   []string                `json:"hosts"`
	Plugins []matrixPlugin          `json:"plugins"`
	Counts  map[string]matrixCounts `json:"counts"`
}

// matrixHosts resolves --profiles.
func matrixHosts(spec string) ([]string, error) {
	all := hooks.ProfileNames()
	sort.Strings(all)
	if spec == "all" {
		return all, nil
	}
	var out []string
	for _, h := range strings.Split(spec, ",") {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if !slices.Contains(all, h) {
			return nil, usagef("--profiles: no profile %q (known: all, %s)", h, strings.Join(all, ", "))
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		return nil, usagef("--profiles: name at least one profile, or all")
	}
	return out, nil
}

func nativeHost(plugin string) string {
	if h := pluginHostProfile(plugin); h != "" {
		return h
	}
	return hooks.DefaultProfile
}

func runMatrix(to *testOpts, suites []suite, self, bin string, cio *cmdIO) error {
	if to.watch {
		return usagef("--profiles and --watch do not go together")
	}
	hosts, err := matrixHosts(to.profiles)
	if err != nil {
		return err
	}
	m := &matrixOut{Hosts: hosts, Counts: map[string]matrixCounts{}}
	baseFailed := false
	for _, s := range suites {
		mp, failed, err := matrixSuite(to, s, hosts, self, bin)
		if err != nil {
			return err
		}
		baseFailed = baseFailed || failed
		m.Plugins = append(m.Plugins, *mp)
	}
	different := false
	for _, p := range m.Plugins {
		for _, t := range p.Tests {
			for h, c := range t.Cells {
				n := m.Counts[h]
				switch c.Outcome {
				case cellSame:
					n.Same++
				case cellDifferent:
					n.Different++
					different = true
				default:
					n.NotExpressibe++
				}
				m.Counts[h] = n
			}
		}
	}
	if to.json {
		b, _ := json.MarshalIndent(m, "", "  ")
		fmt.Fprintf(cio.stdout, "%s\n", b)
	} else {
		printMatrix(cio.stdout, m)
	}
	switch {
	case baseFailed:
		return exitError{1}
	case different && to.failOnChange:
		return exitError{1}
	}
	return nil
}

// runScripts runs one suite's scripts quietly, for host ("" runs them as
// plain hookd test does), and returns each script's outcome by name.
func runScripts(to *testOpts, s suite, host, self, bin string) map[string]scriptResult {
	r := &scriptRunner{out: io.Discard, host: host}
	r.runSuite(s, self, bin, false)
	out := map[string]scriptResult{}
	for _, res := range r.results {
		out[res.name] = res
	}
	return out
}

func matrixSuite(to *testOpts, s suite, hosts []string, self, bin string) (*matrixPlugin, bool, error) {
	native := nativeHost(s.plugin)
	mp := &matrixPlugin{Plugin: filepath.Base(s.plugin), Native: native, Ports: map[string]*portReport{}, Equivalent: map[string]bool{}}
	base := runScripts(to, s, "", self, bin)
	failed := false
	var names []string
	for _, f := range s.files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)))
	}
	perHost := map[string]map[string]scriptResult{}
	notes := map[string]string{}
	for _, h := range hosts {
		t, ok := hooks.LookupPortTable(h)
		switch {
		case !ok:
			notes[h] = "the profile has no port table (hooks.RegisterPortTable)"
			continue
		case t.NoPlugins != "":
			notes[h] = t.NoPlugins
			continue
		case h == native:
			perHost[h] = base
			continue
		}
		tmp, err := os.MkdirTemp("", "hookd-port-")
		if err != nil {
			return nil, false, err
		}
		defer os.RemoveAll(tmp)
		out := filepath.Join(tmp, filepath.Base(s.plugin))
		rep, err := portPlugin(s.plugin, h, out)
		if err != nil {
			notes[h] = err.Error()
			continue
		}
		mp.Ports[h] = rep
		ported := suite{plugin: out}
		for _, f := range s.files {
			rel, err := filepath.Rel(s.plugin, f)
			if err != nil || strings.HasPrefix(rel, "..") {
				// A script outside the plugin folder runs from where it is.
				ported.files = append(ported.files, f)
				continue
			}
			ported.files = append(ported.files, filepath.Join(out, rel))
		}
		perHost[h] = runScripts(to, ported, h, self, bin)
	}
	for _, name := range names {
		b := base[name]
		mt := matrixTest{Name: name, Native: b.status, Cells: map[string]matrixCell{}}
		if b.status == "FAIL" {
			failed = true
		}
		for _, h := range hosts {
			if note, ok := notes[h]; ok {
				mt.Cells[h] = matrixCell{Outcome: cellNotExpressibe, Rule: h + ": " + note, Link: "profile-" + h + ".md"}
				continue
			}
			t, _ := hooks.LookupPortTable(h)
			mt.Cells[h] = compareCell(t, mp.Ports[h], b, perHost[h][name])
		}
		mp.Tests = append(mp.Tests, mt)
	}
	for h := range perHost {
		cells := map[string]matrixCell{}
		for _, mt := range mp.Tests {
			cells[mt.Name] = mt.Cells[h]
		}
		mp.Equivalent[h], _, _ = portEquivalence(base, perHost[h], cells)
	}
	return mp, failed, nil
}

var failLine = regexp.MustCompile(`(?m)^FAIL: .*$`)

// compareCell compares a script's outcome on a host with its own host's,
// run on the port rep wrote (nil: none was written).
func compareCell(t *hooks.PortTable, rep *portReport, base, got scriptResult) matrixCell {
	c := compareOutcome(t, base, got)
	renamed := strings.LastIndex(got.log, renamedTool)
	if rep == nil {
		// With no port to look into, a hook that compares tool_name with
		// Claude Code's name may be why: say so beside the rule.
		if c.Outcome == cellDifferent && got.status == "FAIL" && renamed >= 0 {
			line, _, _ := strings.Cut(got.log[renamed+len(renamedTool):], "\n")
			c.Rule += "; also, tool " + line + ": a hook that compares tool_name with Claude Code's name does not see it"
		}
		return c
	}
	c.Detail = strings.ReplaceAll(c.Detail, rep.Out+string(filepath.Separator), "")
	if c.Outcome != cellDifferent {
		return c
	}
	// A hook that failed for want of the plugin data folder failed for what
	// the port could not carry over, not for a rule of the host's.
	if lost := lostDataFolder(rep); lost != "" && hookStderrMentions(got.log, "PLUGIN_DATA") && !hookStderrMentions(base.log, "PLUGIN_DATA") {
		c.Rule, c.Link = "not carried over: "+lost, t.Doc
		return c
	}
	// So did one whose script compares tool_name with a Claude Code name
	// the host spells otherwise.
	if got.status == "FAIL" && renamed >= 0 {
		tool, _, _ := strings.Cut(got.log[renamed+len(renamedTool):], " ")
		for _, l := range rep.Lost {
			if strings.Contains(l, fmt.Sprintf(" names the tool %q: ", tool)) {
				c.Rule, c.Link = "not carried over: "+l, t.Doc+"#matchers"
				return c
			}
		}
	}
	if strings.Contains(c.Rule, "no rule in the") && len(rep.Lost) > 0 {
		c.Rule += "; the port could not carry over: " + strings.Join(rep.Lost, "; ")
	}
	return c
}

// lostDataFolder is the port report's note that the host gives no plugin
// data folder, if it has one.
func lostDataFolder(rep *portReport) string {
	for _, l := range rep.Lost {
		if strings.Contains(l, "PLUGIN_DATA") {
			return l
		}
	}
	return ""
}

// hookStderrMentions reports whether a hook's stderr, as a script's log
// shows hookd run's result, holds word.
func hookStderrMentions(log, word string) bool {
	for _, line := range strings.Split(log, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, `"stderr": `) && strings.Contains(l, word) {
			return true
		}
	}
	return false
}

// compareOutcome compares the outcomes and names the host's rule behind a
// difference.
func compareOutcome(t *hooks.PortTable, base, got scriptResult) matrixCell {
	if i := strings.Index(got.log, notExpressible); i >= 0 {
		line, _, _ := strings.Cut(got.log[i+len(notExpressible):], "\n")
		return matrixCell{Outcome: cellNotExpressibe, Rule: line, Link: t.Doc + "#events"}
	}
	switch {
	case base.status == "SKIP" && got.status == "PASS":
		return matrixCell{Outcome: cellSame, Rule: "a script for " + t.Profile + " only: it passes there", Link: t.Doc}
	case base.status == "SKIP" && got.status == "FAIL":
		return matrixCell{Outcome: cellDifferent, Rule: "a script for " + t.Profile + " only: it fails there", Link: t.Doc,
			Detail: strings.TrimPrefix(failLine.FindString(got.log), "FAIL: ")}
	case base.status == "SKIP" || got.status == "SKIP":
		return matrixCell{Outcome: cellNotExpressibe, Rule: "skipped: " + lastLine(got.log), Link: t.Doc}
	case base.status == got.status:
		return matrixCell{Outcome: cellSame}
	}
	c := matrixCell{Outcome: cellDifferent, Link: t.Doc}
	bad := got
	if got.status == "PASS" {
		bad = base
		c.Detail = "passes on " + t.Profile + " only"
	}
	event, field, cmdLine := failedAt(bad.log)
	if c.Detail == "" {
		c.Detail = strings.TrimSpace(cmdLine + ": " + strings.TrimPrefix(failLine.FindString(bad.log), "FAIL: "))
	}
	if r, ok := t.Rule(event, field); ok {
		c.Rule, c.Link = r.Text, t.Link(r)
	} else {
		c.Rule = fmt.Sprintf("%s: no rule in the %s table explains a different %s on %s", t.Profile, t.Profile, field, event)
	}
	return c
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// failedAt reads a failed script's log: the event of the last hookd run
// before the failure, the result field the failing command checks, and
// that command.
func failedAt(log string) (event, field, cmd string) {
	var last string
	for _, line := range strings.Split(log, "\n") {
		if c, ok := strings.CutPrefix(line, "> "); ok {
			last = c
			w := strings.Fields(strings.TrimPrefix(c, "! "))
			if len(w) > 2 && (w[0] == "hookd" || w[0] == "exec" && w[1] == "hookd") {
				if w[0] == "exec" {
					w = w[1:]
				}
				if w[1] == "run" {
					event = w[2]
				}
			}
		}
	}
	w := strings.Fields(strings.TrimPrefix(last, "! "))
	switch {
	case len(w) == 0:
	case w[0] == "hookd" || w[0] == "exec":
		field = "decision" // the exit code: a deny or block exits 2
	case w[0] == "stdout" || w[0] == "stderr":
		field = "output"
	default:
		field = w[0]
	}
	return event, field, last
}

func printMatrix(w io.Writer, m *matrixOut) {
	short := map[string]string{cellSame: "same", cellDifferent: "DIFFERENT", cellNotExpressibe: "n/e"}
	for _, p := range m.Plugins {
		fmt.Fprintf(w, "plugin %s (written for %s)\n", p.Plugin, p.Native)
		width := len("test")
		for _, t := range p.Tests {
			width = max(width, len(t.Name))
		}
		fmt.Fprintf(w, "  %-*s", width, "test")
		for _, h := range m.Hosts {
			fmt.Fprintf(w, "  %-9s", h)
		}
		fmt.Fprintln(w)
		for _, t := range p.Tests {
			fmt.Fprintf(w, "  %-*s", width, t.Name)
			for _, h := range m.Hosts {
				fmt.Fprintf(w, "  %-9s", short[t.Cells[h].Outcome])
			}
			if t.Native != "PASS" {
				fmt.Fprintf(w, "  (%s on %s itself)", t.Native, p.Native)
			}
			fmt.Fprintln(w)
		}
		for _, t := range p.Tests {
			for _, h := range m.Hosts {
				c := t.Cells[h]
				if c.Outcome == cellDifferent {
					fmt.Fprintf(w, "  %s × %s: %s (docs/%s)\n      %s\n", t.Name, h, c.Rule, c.Link, c.Detail)
				}
			}
		}
		seen := map[string]bool{}
		for _, t := range p.Tests {
			for _, h := range m.Hosts {
				if c := t.Cells[h]; c.Outcome == cellNotExpressibe && !seen[h+c.Rule] {
					seen[h+c.Rule] = true
					fmt.Fprintf(w, "  n/e on %s: %s\n", h, c.Rule)
				}
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "counts (same / different / not expressible):")
	for _, h := range m.Hosts {
		c := m.Counts[h]
		fmt.Fprintf(w, "  %-8s %d / %d / %d\n", h, c.Same, c.Different, c.NotExpressibe)
	}
}
