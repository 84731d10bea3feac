package cli

// hookd test --profiles: a script written in Claude Code's names runs under
// another host. With $HOOKD_TEST_HOST set, the event command translates the
// input it writes and the hookd command the event and profile of hookd run,
// explain, list and check, through the host's hooks.PortTable. What has no
// counterpart skips the script as not expressible.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/hookd/hookd/hooks"
)

// hostEnv names the host a script runs under in a --profiles run.
const hostEnv = "HOOKD_TEST_HOST"

// notExpressible starts the skip message of a script that cannot be said on
// the host.
const notExpressible = "not expressible: "

// renamedTool starts the log line of a tool name the host spells otherwise.
const renamedTool = "translated: tool "

func testHost(ts *testscript.TestScript) *hooks.PortTable {
	h := ts.Getenv(hostEnv)
	if h == "" {
		return nil
	}
	t, _ := hooks.LookupPortTable(h)
	return t
}

// hostEvent translates an event or skips the script.
func hostEvent(ts *testscript.TestScript, t *hooks.PortTable, ev string) string {
	if n, ok := t.Event(ev); ok {
		return n
	}
	ts.Fatalf("%s", notExpressible+t.Profile+" has no "+ev+" event ("+t.Doc+"#events)")
	return ""
}

// hostArgs rewrites hookd run/explain EVENT and gives --profile HOST to
// run, explain, list and check (replacing a --profile of the script's).
func hostArgs(ts *testscript.TestScript, args []string) []string {
	t := testHost(ts)
	if t == nil || len(args) == 0 || !slices.Contains([]string{"run", "explain", "list", "check"}, args[0]) {
		return args
	}
	out := []string{args[0], "--profile", t.Profile}
	rest := args[1:]
	if (args[0] == "run" || args[0] == "explain") && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		out = append(out, hostEvent(ts, t, rest[0]))
		rest = rest[1:]
	}
	for i := 0; i < len(rest); i++ {
		switch a := rest[i]; {
		case a == "--profile" && i+1 < len(rest):
			i++
		case strings.HasPrefix(a, "--profile="):
		default:
			out = append(out, a)
		}
	}
	return out
}

// hostInput translates an event input written in Claude Code's names: the
// tool's name and the input's field names.
func hostInput(ts *testscript.TestScript, event string, data []byte) []byte {
	t := testHost(ts)
	if t == nil {
		return data
	}
	hostEvent(ts, t, event)
	if tool := gjson.GetBytes(data, "tool_name"); tool.Type == gjson.String {
		n, ok := t.Tool(tool.Str)
		if !ok {
			ts.Fatalf("%s", notExpressible+t.Profile+" has no tool "+tool.Str+" ("+t.Doc+"#matchers)")
		}
		if n != tool.Str {
			ts.Logf("%s%s is %s on %s", renamedTool, tool.Str, n, t.Profile)
		}
		data, _ = sjson.SetBytes(data, "tool_name", n)
	}
	if len(t.Fields) == 0 {
		return data
	}
	out := []byte("{}")
	gjson.ParseBytes(data).ForEach(func(k, v gjson.Result) bool {
		out, _ = sjson.SetRawBytes(out, gjson.Escape(t.Field(k.Str)), []byte(v.Raw))
		return true
	})
	return out
}

// hostCondition gives scripts the [host:NAME] condition: true when the
// script runs for host NAME (under plain hookd test, the plugin's own host:
// claude for a Claude Code plugin, else codex).
func hostCondition(host, plugin string) func(string) (bool, error) {
	if host == "" {
		if host = pluginHostProfile(plugin); host == "" {
			host = hooks.DefaultProfile
		}
	}
	return func(cond string) (bool, error) {
		name, ok := strings.CutPrefix(cond, "host:")
		if !ok {
			return false, fmt.Errorf("unknown condition %q (hookd test adds [host:NAME])", cond)
		}
		if _, known := hooks.LookupProfile(name); !known {
			names := hooks.ProfileNames()
			sort.Strings(names)
			return false, fmt.Errorf("[host:%s]: no such profile (known: %s)", name, strings.Join(names, ", "))
		}
		return name == host, nil
	}
}

// hideHostVars drops the plugin variables a script's environment carries
// for its own use from what hookd, and so the hooks, inherit: under another
// host a hook gets only what that host gives ($PLUGIN stays).
func hideHostVars(env *testscript.Env) {
	drop := []string{"PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT", "PLUGIN_DATA", "CLAUDE_PLUGIN_DATA"}
	kept := env.Vars[:0]
	for _, kv := range env.Vars {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, name) {
			kept = append(kept, kv)
		}
	}
	env.Vars = kept
}
