package cli

// hookd port: a plugin's hooks written for another host, then checked by
// running the plugin's own test scripts on the port.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

const portLong = `Writes the plugin's hooks in another host's layout and format: the files and
their places (gemini-extension.json, qwen-extension.json, a version 1
hooks.json, .codex-plugin/), event names, the tool names of matchers, timeout
units, how a command names the plugin folder, and the fields the host does not
read left out. Scripts and every other file are copied as they are. PORT.md in
the output lists what was rewritten and what could not be carried over, and
why (a script that compares tool_name with a Claude Code tool name the host
spells otherwise is named there: the port does not rewrite scripts).

Then the plugin's test scripts (testscripts/*.txtar) run on the ported files
under the target profile, translated as hookd test --profiles translates them,
and the port is called equivalent only when every script has the same outcome
as on the plugin's own host; a script that keeps itself to other hosts
([host:NAME]) is not counted. Exit 0 when equivalent, 1 when not, or when
nothing could be checked (no scripts, or none for the target).`

type portOpts struct {
	to, out string
	json    bool
}

func newPortCmd(cio *cmdIO) *cobra.Command {
	po := &portOpts{}
	cmd := &cobra.Command{
		Use:   "port PLUGIN --to PROFILE [--out DIR]",
		Short: "Write a plugin's hooks for another host and check the port with the plugin's tests",
		Long:  portLong,
		Example: `  hookd port ./my-plugin --to gemini
  hookd port ./my-plugin --to copilot --out ./my-plugin-copilot --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPort(po, args[0], cio)
		},
	}
	cmd.Flags().StringVar(&po.to, "to", "", "the target `PROFILE` ("+strings.Join(hooks.PortTableNames(), ", ")+")")
	cmd.Flags().StringVar(&po.out, "out", "", "the output `DIR` (must be new or empty; default: PLUGIN-PROFILE beside the plugin)")
	cmd.Flags().BoolVar(&po.json, "json", false, "print the report and the verdict as JSON")
	return cmd
}

type portVerdict struct {
	*portReport
	Equivalent bool         `json:"equivalent"`
	Tests      []matrixTest `json:"tests"`
	Verdict    string       `json:"verdict"`
}

func runPort(po *portOpts, plugin string, cio *cmdIO) error {
	if po.to == "" {
		return usagef("--to PROFILE is required (known: %s)", strings.Join(hooks.PortTableNames(), ", "))
	}
	root, err := filepath.Abs(plugin)
	if err != nil {
		return err
	}
	if !isDir(root) {
		return fmt.Errorf("%s: not a plugin folder", plugin)
	}
	out := po.out
	if out == "" {
		out = root + "-" + po.to
	}
	if out, err = filepath.Abs(out); err != nil {
		return err
	}
	if rel, err := filepath.Rel(root, out); err == nil && !strings.HasPrefix(rel, "..") {
		return usagef("--out %s is inside the plugin", po.out)
	}
	rep, err := portPlugin(root, po.to, out)
	if err != nil {
		return err
	}
	v := &portVerdict{portReport: rep}
	checked, kept := 0, 0
	files, _ := filepath.Glob(filepath.Join(root, "testscripts", "*.txtar"))
	sort.Strings(files)
	if len(files) > 0 {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		bin, err := os.MkdirTemp("", "hookd-test-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(bin)
		if err := os.Symlink(self, filepath.Join(bin, "hookd")); err != nil {
			return err
		}
		to := &testOpts{}
		s := suite{plugin: root, files: files}
		base := runScripts(to, s, "", self, bin)
		ported := suite{plugin: out}
		for _, f := range files {
			ported.files = append(ported.files, filepath.Join(out, "testscripts", filepath.Base(f)))
		}
		got := runScripts(to, ported, po.to, self, bin)
		t, _ := hooks.LookupPortTable(po.to)
		cells := map[string]matrixCell{}
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".txtar")
			c := compareCell(t, rep, base[name], got[name])
			cells[name] = c
			v.Tests = append(v.Tests, matrixTest{Name: name, Native: base[name].status, Cells: map[string]matrixCell{po.to: c}})
		}
		v.Equivalent, checked, kept = portEquivalence(base, got, cells)
	}
	switch {
	case len(files) == 0:
		v.Verdict = "not checked: the plugin has no testscripts/*.txtar"
	case checked == 0:
		v.Verdict = "not checked: every script is kept to other hosts"
	case v.Equivalent && kept > 0:
		v.Verdict = fmt.Sprintf("equivalent: all %s for %s give the same outcome (%s kept to other hosts)", plural(checked, "script"), po.to, plural(kept, "script"))
	case v.Equivalent:
		v.Verdict = fmt.Sprintf("equivalent: all %s give the same outcome on %s", plural(len(files), "script"), po.to)
	default:
		v.Verdict = "not equivalent on " + po.to
	}
	if po.json {
		b, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintf(cio.stdout, "%s\n", b)
	} else {
		printPort(cio, v)
	}
	if !v.Equivalent {
		return exitError{1}
	}
	return nil
}

func printPort(cio *cmdIO, v *portVerdict) {
	w := cio.stdout
	fmt.Fprintf(w, "ported %s (%s) to %s in %s\n", v.Plugin, v.From, v.To, v.Out)
	for _, f := range v.Files {
		fmt.Fprintf(w, "  wrote %s\n", f)
	}
	for _, c := range v.Changed {
		fmt.Fprintf(w, "  rewrote: %s\n", c)
	}
	for _, l := range v.Lost {
		fmt.Fprintf(w, "  not carried over: %s\n", l)
	}
	for _, t := range v.Tests {
		c := t.Cells[v.To]
		fmt.Fprintf(w, "  test %s: %s", t.Name, c.Outcome)
		if c.Rule != "" {
			fmt.Fprintf(w, ": %s (docs/%s)", c.Rule, c.Link)
		}
		fmt.Fprintln(w)
		if c.Outcome == cellDifferent && c.Detail != "" {
			fmt.Fprintf(w, "      %s\n", c.Detail)
		}
	}
	fmt.Fprintf(w, "verdict: %s\n", v.Verdict)
}
