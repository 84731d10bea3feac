//go:build realhost

package realhost

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// pluginRuns says how often the recorded hook name ran for one tool call and
// with which data folder, home shown as $HOME.
func pluginRuns(rec *rh.Recorder, name, home string) string {
	cs := rec.Calls(name)
	if len(cs) == 0 {
		return "did not run"
	}
	var data []string
	for _, c := range cs {
		data = append(data, strings.ReplaceAll(c.Env["CLAUDE_PLUGIN_DATA"], home, "$HOME"))
	}
	return fmt.Sprintf("ran %d time(s); CLAUDE_PLUGIN_DATA %s", len(cs), strings.Join(data, ", "))
}

// hookdWithPlugin runs the input the host gave hook "plug" (a Bash call)
// through hookd with --plugin root, and says how the hook ran there.
func (r *claudeRun) hookdWithPlugin(t *testing.T, root string) string {
	in := `{"tool_name":"Bash","tool_input":{"command":"echo hi","description":"x"},"tool_use_id":"t1"}`
	if cs := r.rec.Calls("plug"); len(cs) > 0 {
		in = cs[0].Stdin
	}
	r.rec.Reset()
	r.hookd(t, "PreToolUse", in, "--plugin", root)
	return pluginRuns(r.rec, "plug", r.home)
}

// Item 7: a plugin given inline (the host's --plugin-dir, hookd's --plugin)
// has its data folder named <name>-inline.
func TestClaude_InlinePluginDataFolder(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newClaude(t, rec, map[string]any{}, callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	root := filepath.Join(t.TempDir(), "fmt")
	rh.WriteFile(t, filepath.Join(root, ".claude-plugin", "plugin.json"), `{"name":"fmt","version":"1.0.0"}`)
	rh.WriteFile(t, filepath.Join(root, "hooks", "hooks.json"), mustJSON(map[string]any{"hooks": hooksOf("PreToolUse", []any{group("Bash", rec.Cmd("plug", "", 0))})}))
	r.exec(t, "run it", "--plugin-dir", root)
	host := pluginRuns(rec, "plug", r.home)
	record(t, "claude", "7", "plugin given inline (host --plugin-dir, hookd --plugin): runs, and its data folder", host, r.hookdWithPlugin(t, root))
}

// Item 7: an installed plugin (installed_plugins.json, a directory
// marketplace: it runs from the marketplace's folder) also given inline
// with that folder runs once per call.
func TestClaude_PluginNamedAndInstalledRunsOnce(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newClaude(t, rec, map[string]any{"enabledPlugins": map[string]bool{"guard@mkt": true}},
		callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"))
	src, _ := installDirectoryPlugin(t, r, rec)
	named := filepath.Join(src, "guard")
	r.exec(t, "run it", "--plugin-dir", named)
	host := pluginRuns(rec, "plug", r.home)
	record(t, "claude", "7", "installed plugin also given inline with the folder it runs from: runs per call, and its data folder", host, r.hookdWithPlugin(t, named))
}

// Item 4: the input of a SubagentStart hook has no permission_mode (the
// session runs with --dangerously-skip-permissions; hookd is told the mode
// as a host tells it).
func TestClaude_SubagentStartInput(t *testing.T) {
	rec := rh.NewRecorder(t)
	every := []any{cgroup("-", cmdHandler(rec.Cmd("start", "", 0)))}
	r := newClaude(t, rec, map[string]any{"hooks": hooksOf("SubagentStart", every)})
	rh.WriteFile(t, filepath.Join(r.home, ".claude", "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews code. Use for reviews.\ntools: Bash\n---\nYou review code.\n")
	r.model.SetScript(callTool("Agent", `{"description":"review","prompt":"review it","subagent_type":"reviewer"}`), say("finished"))
	r.subagentScript("You review code.")
	r.exec(t, "run it")
	fields := func(stdin string) string {
		var keys []string
		gjson.Parse(stdin).ForEach(func(k, _ gjson.Result) bool {
			keys = append(keys, k.Str)
			return true
		})
		return fmt.Sprintf("permission_mode: %s; fields: %s", yesNo(gjson.Get(stdin, "permission_mode").Exists()), strings.Join(keys, " "))
	}
	host := fields(firstCall(t, rec, "start", "claude").Stdin)
	in := firstCall(t, rec, "start", "claude").Stdin
	rec.Reset()
	r.hookd(t, "SubagentStart", in, "--permission-mode", "bypassPermissions")
	record(t, "claude", "4", "SubagentStart input (hookd told permission mode bypassPermissions)", host, fields(firstCall(t, rec, "start", "hookd").Stdin))
}
