package cli

// The EVENT argument and the event input, as run, explain, list, event and
// the test scripts' event command read them.

import (
	"fmt"
	"io"
	"os"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/internal/suggest"
)

// eventArg wants exactly one EVENT.
func eventArg(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return usagef("missing EVENT: hookd %s EVENT (for example PreToolUse)", cmd.Name())
	case len(args) > 1:
		return usagef("want one EVENT, got %d arguments: %q (quote a value with spaces; flags start with --)", len(args), args)
	}
	return nil
}

// checkEvent says which event was meant when name is not one of the profile's.
func checkEvent(p *hooks.Profile, name string) error {
	if p.Event(name) != nil {
		return nil
	}
	return fmt.Errorf("unknown event %q%s (known: %s)", name, suggest.DidYouMean(name, p.EventNames()), joinComma(p.EventNames()))
}

func completeEvents(ef *engineFlags) func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		p, ok := hooks.LookupProfile(ef.profile)
		if !ok {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return p.EventNames(), cobra.ShellCompDirectiveNoFileComp
	}
}

// readInput reads --input: a file, - for stdin, or {} when not given. Text
// that is not JSON is an error naming where it stops being JSON.
func readInput(path string, stdin io.Reader) ([]byte, error) {
	var (
		data []byte
		err  error
	)
	switch path {
	case "":
		return []byte("{}"), nil
	case "-":
		data, err = io.ReadAll(stdin)
	default:
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("read --input: %w", err)
	}
	if !json.Valid(data) {
		name := path
		if path == "-" {
			name = "stdin"
		}
		return nil, fmt.Errorf("--input %s is not valid JSON%s", name, jsonErrorPosition(data))
	}
	return data, nil
}

// jsonOrString reads s as a JSON value when it is one, else as a string.
func jsonOrString(s string) []byte {
	if t := strings.TrimSpace(s); t != "" && json.Valid([]byte(t)) {
		return []byte(t)
	}
	b, _ := json.Marshal(s)
	return b
}
