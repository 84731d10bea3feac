package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
)

type eventOpts struct {
	profile, cwd, sessionID                     string
	tool, command, file, content, prompt, reply string
	response                                    string
	sets                                        []string
}

func newEventCmd(cio *cmdIO) *cobra.Command {
	eo := &eventOpts{}
	cmd := &cobra.Command{
		Use:   "event EVENT [flags]",
		Short: "Print a complete, valid input for an event, ready for hookd run",
		Long: `Prints the input JSON a host would send for EVENT under the profile: the
session fields (session_id, cwd, transcript_path, permission_mode, ...) and the
event's own, from the flags. Nothing runs. Pipe it into hookd run, or write it to
a file in a test script.

Tool events take --tool (default Bash) and the tool's input from --command
(Bash, apply_patch), --file and --content (Read, Write, Edit), or --set.
--set PATH=VALUE sets any field by gjson path; VALUE is read as JSON when it
parses, else as text.`,
		Example: `  hookd event PreToolUse --tool Bash --command 'rm -rf /' | hookd run PreToolUse --input -
  hookd event UserPromptSubmit --prompt 'deploy to prod' > prompt.json
  hookd event Stop --set stop_hook_active=true --profile claude`,
		Args: eventArg,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return completeEvents(&engineFlags{profile: eo.profile})(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out, missing, err := eventPayload(eo, args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(cio.stdout, "%s\n", out)
			if len(missing) > 0 {
				fmt.Fprintf(cio.stderr, "note: %s left out (no default; set with --set FIELD=VALUE)\n", strings.Join(missing, ", "))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&eo.profile, "profile", "codex", "host rule set whose input to write: "+joinProfiles())
	f.StringVar(&eo.cwd, "cwd", "", "the session's cwd (default: the current directory)")
	f.StringVar(&eo.sessionID, "session-id", "", "session_id (default: a new id in the profile's form)")
	f.StringVar(&eo.tool, "tool", "", "tool_name of a tool event (default Bash)")
	f.StringVar(&eo.command, "command", "", "tool_input.command: the shell command (Bash) or patch (apply_patch)")
	f.StringVar(&eo.file, "file", "", "tool_input.file_path (Read, Write, Edit)")
	f.StringVar(&eo.content, "content", "", "tool_input.content (Write)")
	f.StringVar(&eo.prompt, "prompt", "", "prompt of UserPromptSubmit")
	f.StringVar(&eo.reply, "message", "", "last_assistant_message of Stop and SubagentStop")
	f.StringVar(&eo.response, "response", "", "tool_response of PostToolUse: JSON, or text")
	f.StringArrayVar(&eo.sets, "set", nil, "set any field, `PATH=VALUE` (repeatable)")
	return cmd
}

// eventPayload builds the input; missing names the event's fields with no
// default and no value given.
func eventPayload(eo *eventOpts, event string) (out []byte, missing []string, err error) {
	prof, err := lookupProfile(eo.profile)
	if err != nil {
		return nil, nil, usageError{err}
	}
	if err := checkEvent(prof, event); err != nil {
		return nil, nil, usageError{err}
	}
	ev := prof.Event(event)
	cwd := eo.cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if cwd, err = filepath.Abs(cwd); err != nil {
		return nil, nil, err
	}
	id := eo.sessionID
	if id == "" {
		id = prof.MakeSessionID()
	}
	given := map[string]string{}
	str := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	if ev.ToolEvent || has(ev.InputFields, "tool_name") || has(ev.InputFields, "tool_call") || has(ev.InputFields, "tool_result") {
		tool := eo.tool
		if tool == "" {
			tool = defaultTool(prof)
		}
		given["tool_name"] = str(tool)
		input := map[string]string{}
		if eo.command != "" {
			input["command"] = eo.command
		}
		if eo.file != "" {
			input["file_path"] = eo.file
		}
		if eo.content != "" {
			input["content"] = eo.content
		}
		b, _ := json.Marshal(input)
		given["tool_input"] = string(b)
		// Cline's shape: the call, and its parameters as strings.
		call, _ := json.Marshal(map[string]any{"id": "call_1", "name": tool, "input": input})
		params, _ := json.Marshal(input)
		given["tool_call"] = string(call)
		given["tool_result"] = string(call)
		given["preToolUse"] = fmt.Sprintf(`{"toolName":%s,"parameters":%s}`, str(tool), params)
		if eo.response != "" {
			given["tool_response"] = string(jsonOrString(eo.response))
			given["tool_output"] = string(jsonOrString(eo.response))
		}
		if eo.file != "" {
			b, _ := json.Marshal([]string{eo.file})
			given["paths"] = string(b)
		}
	} else if eo.tool != "" || eo.command != "" || eo.file != "" {
		return nil, nil, usagef("%s is not a tool event: --tool, --command and --file do not apply (use --set)", event)
	}
	if eo.prompt != "" {
		given["prompt"] = str(eo.prompt)
	}
	if eo.reply != "" {
		given["last_assistant_message"] = str(eo.reply)
	}
	defaults := map[string]string{
		"session_id":             str(id),
		"cwd":                    str(cwd),
		"hook_event_name":        str(event),
		"event_type":             str(event),
		"working_directory":      str(cwd),
		"transcript_path":        "null",
		"permission_mode":        `"default"`,
		"turn_id":                `"turn-1"`,
		"tool_use_id":            `"call_1"`,
		"tool_call_id":           `"call_1"`,
		"tool_response":          `""`,
		"tool_output":            `""`,
		"prompt":                 `""`,
		"source":                 `"startup"`,
		"reason":                 `"other"`,
		"trigger":                `"manual"`,
		"stop_hook_active":       "false",
		"last_assistant_message": "null",
		"paths":                  "[]",
		"tags":                   "[]",
		"taskId":                 str(id),
		"workspaceRoots":         "[" + str(cwd) + "]",
	}
	// Fields a host sends only in some sessions (a subagent's, a model's):
	// left out unless set, as hookd run leaves them out.
	optional := map[string]bool{"agent_id": true, "agent_type": true, "model": true,
		// Cline's: hookd run fills hookName and timestamp in.
		"clineVersion": true, "timestamp": true, "sessionContext": true, "workspaceInfo": true, "userId": true,
		"parent_agent_id": true, "hookName": true, "iteration": true}
	doc := []byte("{}")
	for _, f := range ev.InputFields {
		v, ok := given[f]
		if !ok {
			v, ok = defaults[f]
		}
		if !ok {
			if !optional[f] {
				missing = append(missing, f)
			}
			continue
		}
		if doc, err = sjson.SetRawBytes(doc, gjson.Escape(f), []byte(v)); err != nil {
			return nil, nil, err
		}
	}
	for _, s := range eo.sets {
		path, value, ok := strings.Cut(s, "=")
		if !ok || path == "" {
			return nil, nil, usagef("--set %q: want PATH=VALUE", s)
		}
		if doc, err = sjson.SetRawBytes(doc, path, jsonOrString(value)); err != nil {
			return nil, nil, usagef("--set %q: %v", s, err)
		}
		top, _, _ := strings.Cut(path, ".")
		missing = remove(missing, top)
	}
	out, err = json.MarshalIndent(orderedFields(doc), "", "  ")
	return out, missing, err
}

// defaultTool is the shell tool of the profile: Bash, unless the profile's
// tool list has no Bash (Droid's shell is Execute, listed first).
func defaultTool(p *hooks.Profile) string {
	if len(p.Tools) == 0 || slices.Contains(p.Tools, "Bash") {
		return "Bash"
	}
	return p.Tools[0]
}

// orderedFields keeps the fields in the order the host writes them.
func orderedFields(doc []byte) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	gjson.ParseBytes(doc).ForEach(func(k, v gjson.Result) bool {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(k.Raw + ":" + v.Raw)
		return true
	})
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func remove(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}
