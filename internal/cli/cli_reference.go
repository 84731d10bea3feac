package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
)

// referenceMarker starts the part of docs/cli.md that is generated from the
// command tree; everything after it is rewritten by
// `go test -run TestCLIReference -update ./internal/cli/`.
const referenceMarker = "<!-- Generated from the command tree: edit the commands, then run `go test -run TestCLIReference -update ./internal/cli/`. -->"

// writeReference writes the profiles' user folders and every command's help,
// exactly as `hookd help COMMAND` prints it.
func writeReference(w io.Writer, root *cobra.Command) error {
	var b bytes.Buffer
	b.WriteString(referenceMarker + "\n\n## Profiles and their user folders\n\n")
	b.WriteString("`--profile` picks the rule set; `--home` replaces the profile's user folder, which is\n")
	b.WriteString("otherwise the environment variable below when it is set, else the folder under your home.\n\n")
	b.WriteString("| profile | user folder | overridden by |\n|---|---|---|\n")
	for _, name := range sortedProfiles() {
		p, _ := hooks.LookupProfile(name)
		dir, env := "—", "—"
		if p.HomeDir != "" {
			dir = "`~/" + p.HomeDir + "`"
		}
		switch {
		case p.HomeEnv != "":
			env = "`$" + p.HomeEnv + "`"
		case p.HomeBaseEnv != "":
			env = "`$" + p.HomeBaseEnv + "/" + p.HomeDir + "`"
		}
		fmt.Fprintf(&b, "| [`%s`](profile-%s.md) | %s | %s |\n", name, name, dir, env)
	}
	b.WriteString("\n## Reference\n\nEach command's `hookd help COMMAND`.\n")
	root.InitDefaultCompletionCmd() // cobra adds it when it executes
	cmds := append([]*cobra.Command{root}, root.Commands()...)
	for _, c := range cmds {
		if !c.IsAvailableCommand() && c != root && c.Name() != "help" {
			continue
		}
		var help bytes.Buffer
		out, errOut := c.OutOrStdout(), c.ErrOrStderr()
		c.SetOut(&help)
		c.SetErr(&help)
		err := c.Help()
		c.SetOut(out)
		c.SetErr(errOut)
		if err != nil {
			return fmt.Errorf("help of %s: %w", c.CommandPath(), err)
		}
		fmt.Fprintf(&b, "\n### %s\n\n```text\n%s\n```\n", c.CommandPath(), strings.TrimRight(help.String(), "\n"))
	}
	_, err := w.Write(b.Bytes())
	return err
}
