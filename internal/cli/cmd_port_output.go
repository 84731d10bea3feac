package cli

// hookd port-output: the output adapter a ported hook's command pipes its
// stdout through, so an answer written for Claude Code has the same effect
// on the target host where the host has a field for it. Stdin, stderr and
// the exit code are the hook's own (the command runs with pipefail).

import (
	"bytes"
	"io"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// portOutputMax bounds what the adapter rewrites; a longer output passes on
// as it is.
const portOutputMax = 4 << 20

func newPortOutputCmd(cio *cmdIO) *cobra.Command {
	var to, event string
	cmd := &cobra.Command{
		Use:    "port-output --to PROFILE --event EVENT",
		Short:  "Rewrite a ported hook's stdout for its host (used by hookd port's commands)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := io.ReadAll(io.LimitReader(cio.stdin, portOutputMax+1))
			if err != nil {
				return err
			}
			if len(data) > portOutputMax {
				_, err := io.Copy(cio.stdout, io.MultiReader(bytes.NewReader(data), cio.stdin))
				return err
			}
			_, err = cio.stdout.Write(adaptOutput(to, event, data))
			return err
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "the host")
	cmd.Flags().StringVar(&event, "event", "", "the Claude Code event the hook was written for")
	return cmd
}

// adaptNeeds says for which host and Claude Code event the port pipes a
// command through port-output.
func adaptNeeds(to, event string) bool {
	switch to {
	case "gemini":
		return event == "PreToolUse" || event == "SessionStart" || event == "UserPromptSubmit"
	case "copilot":
		return event == "SessionStart" || event == "UserPromptSubmit"
	}
	return false
}

// adaptOutput rewrites one hook's stdout: plain text on a context event
// becomes additionalContext (gemini and copilot read plain text otherwise);
// on gemini a PreToolUse permissionDecision gains the top-level decision and
// reason Gemini CLI reads, and updatedInput becomes tool_input.
func adaptOutput(to, event string, data []byte) []byte {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return data
	}
	if !gjson.ValidBytes(trimmed) || !gjson.ParseBytes(trimmed).IsObject() {
		if event == "SessionStart" || event == "UserPromptSubmit" {
			b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
				"hookEventName": event, "additionalContext": strings.TrimRight(string(data), "\n")}})
			return append(b, '\n')
		}
		return data
	}
	if to != "gemini" || event != "PreToolUse" {
		return data
	}
	out := trimmed
	hso := gjson.GetBytes(out, "hookSpecificOutput")
	if d := hso.Get("permissionDecision").Str; d != "" && !gjson.GetBytes(out, "decision").Exists() {
		out, _ = sjson.SetBytes(out, "decision", d)
		if r := hso.Get("permissionDecisionReason"); r.Type == gjson.String && !gjson.GetBytes(out, "reason").Exists() {
			out, _ = sjson.SetBytes(out, "reason", r.Str)
		}
	}
	if u := hso.Get("updatedInput"); u.IsObject() && !hso.Get("tool_input").Exists() {
		out, _ = sjson.SetRawBytes(out, "hookSpecificOutput.tool_input", []byte(u.Raw))
	}
	return append(out, '\n')
}
