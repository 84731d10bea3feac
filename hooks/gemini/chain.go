package gemini

import (
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// chain is Gemini CLI's rule for a sequential run (hookRunner's
// applyHookOutputToInput): after a hook that exited 0 with a JSON answer,
// the next hook's input carries its hookSpecificOutput. BeforeTool's
// tool_input and BeforeModel's llm_request are merged key by key over the
// input's own; BeforeAgent's additionalContext is added to the prompt after
// a blank line. Other events, and a hook that failed, leave the input as
// it was.
func chain(ev *hooks.EventRules, stdin []byte, o hooks.Outcome) []byte {
	if o.Raw.ExitCode == nil || *o.Raw.ExitCode != 0 {
		return stdin
	}
	text := strings.TrimSpace(o.Raw.Stdout)
	if text == "" {
		text = strings.TrimSpace(o.Raw.Stderr)
	}
	obj, ok := decodeReply(text)
	if !ok {
		return stdin
	}
	hso := obj.Get("hookSpecificOutput")
	if !hso.IsObject() {
		return stdin
	}
	switch ev.Name {
	case "BeforeTool":
		return hooks.MergeInputObject(stdin, "tool_input", hso.Get("tool_input"))
	case "BeforeModel":
		return hooks.MergeInputObject(stdin, "llm_request", hso.Get("llm_request"))
	case "BeforeAgent":
		if c := hso.Get("additionalContext"); c.Type == gjson.String {
			return hooks.AppendInputText(stdin, "prompt", c.Str)
		}
	}
	return stdin
}
