package qwen

import (
	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
)

// chain is Qwen Code's rule for a sequential run (hookRunner's
// applyHookOutputToInput, as Gemini CLI's): after a hook that succeeded
// (exit 0) with an answer, the next hook's input carries its
// hookSpecificOutput. PreToolUse's tool_input is merged key by key over the
// input's own; a non-empty additionalContext of UserPromptSubmit or
// UserPromptExpansion, plain stdout included, is added to the prompt after a
// blank line. Other events, and a hook that failed, leave the input as it
// was.
func chain(ev *hooks.EventRules, stdin []byte, o hooks.Outcome) []byte {
	if o.Raw.ExitCode != nil && *o.Raw.ExitCode != 0 || o.Error != "" ||
		o.Status != hooks.StatusSucceeded && o.Status != hooks.StatusBlocked {
		return stdin
	}
	out, ok := o.Output[outKey]
	if !ok {
		return stdin
	}
	hso := gjson.GetBytes(out, "hookSpecificOutput")
	if !hso.IsObject() {
		return stdin
	}
	switch ev.Name {
	case "PreToolUse":
		return hooks.MergeInputObject(stdin, "tool_input", hso.Get("tool_input"))
	case "UserPromptSubmit", "UserPromptExpansion":
		if c := hso.Get("additionalContext"); c.Type == gjson.String && c.Str != "" {
			return hooks.AppendInputText(stdin, "prompt", c.Str)
		}
	}
	return stdin
}
