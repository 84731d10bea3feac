//go:build realhost

package newhosts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// homeRel writes home as <home>, so that the CLI's and hookd's values
// compare.
func homeRel(home, v string) string { return strings.ReplaceAll(v, home, "<home>") }

// TestGemini_PlansDirAndSubstitution: GEMINI_PLANS_DIR is in every hook's
// environment, and the bare $GEMINI_PLANS_DIR and "$GEMINI_PROJECT_DIR" in
// the command text are replaced before bash reads it: single quotes show
// the replacement (bash would leave '$X' alone), double quotes show that
// the path goes in without quotes of its own.
func TestGemini_PlansDirAndSubstitution(t *testing.T) {
	rec := rh.NewRecorder(t)
	out := filepath.Join(rec.Dir, "text")
	cmd := fmt.Sprintf(`printf '%%s|%%s\n' '$GEMINI_PLANS_DIR' "$GEMINI_PROJECT_DIR" >> %s; %s`, out, rec.Cmd("bt", "", 0))
	r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("", cmd)}},
		callTool("run_shell_command", fmt.Sprintf(`{"command":%q,"description":"echo"}`, specialCommand)), say("ok"))
	r.run(t, "run it")
	calls := rec.Calls("bt")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s", r.stderr)
	}
	session := gjson.Get(calls[0].Stdin, "session_id").Str
	rel := func(v string) string {
		return strings.ReplaceAll(strings.ReplaceAll(homeRel(r.home, v), r.work, "<project>"), session, "<session>")
	}
	hostText, _ := os.ReadFile(out)
	os.Remove(out)
	r.hookd(t, "BeforeTool", calls[0].Stdin)
	hc := rec.Calls("bt")
	mineText, _ := os.ReadFile(out)
	host, mine := calls[0].Env, hc[len(hc)-1].Env
	record(t, "gemini", "env GEMINI_PLANS_DIR", rel(present(host, "GEMINI_PLANS_DIR")+" "+host["GEMINI_PLANS_DIR"]),
		rel(present(mine, "GEMINI_PLANS_DIR")+" "+mine["GEMINI_PLANS_DIR"]))
	record(t, "gemini", `command text '$GEMINI_PLANS_DIR'|"$GEMINI_PROJECT_DIR" as the hook's bash prints it`,
		rel(strings.TrimSpace(string(hostText))), rel(strings.TrimSpace(string(mineText))))
	record(t, "gemini", "stdin bytes (<>& in tool_input; hookd given the host's stdin)", "same as the host's", stdinSame(calls[0].Stdin, hc[len(hc)-1].Stdin))
}

// TestGemini_ToolSelectionNone: two BeforeToolSelection hooks, one ANY
// with a name, one NONE with another; what the model request's
// functionCallingConfig says against hookd's combined toolConfig.
func TestGemini_ToolSelectionNone(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{"BeforeToolSelection": []any{
		ghook("", rec.Cmd("any", `{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":{"mode":"ANY","allowedFunctionNames":["run_shell_command"]}}}`, 0)),
		ghook("", rec.Cmd("none", `{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":{"mode":"NONE","allowedFunctionNames":["read_file"]}}}`, 0)),
	}}, say("ok"))
	r.run(t, "hello")
	calls := rec.Calls("any")
	reqs := r.model.Requests()
	if len(calls) == 0 || len(reqs) == 0 {
		t.Fatalf("hook calls %d, model requests %d\n%s", len(calls), len(reqs), r.stderr)
	}
	fc := gjson.Get(reqs[0], "toolConfig.functionCallingConfig")
	res := r.hookd(t, "BeforeToolSelection", calls[0].Stdin)
	tc := gjson.Get(res, "toolConfig")
	if !tc.Exists() {
		tc = gjson.Get(res, "output.toolConfig")
	}
	desc := func(v gjson.Result) string {
		return fmt.Sprintf("mode %s, allowedFunctionNames %d", v.Get("mode").Str, len(v.Get("allowedFunctionNames").Array()))
	}
	record(t, "gemini", "BeforeToolSelection ANY [run_shell_command] + NONE [read_file]: the tool config", desc(fc), desc(tc))
}

// TestGemini_DisabledByName: hooksConfig.disabled lists a named hook's
// name, an unnamed hook's command and another named hook's command.
func TestGemini_DisabledByName(t *testing.T) {
	rec := rh.NewRecorder(t)
	byName, byCommand, namedByCommand := rec.Cmd("byname", "", 0), rec.Cmd("bycommand", "", 0), rec.Cmd("namedbycommand", "", 0)
	control := rec.Cmd("control", "", 0)
	r := newGemini(t, map[string]any{"BeforeTool": []any{
		ghook("", byName, "name", "guard-one"),
		ghook("", byCommand),
		ghook("", namedByCommand, "name", "guard-two"),
		ghook("", control),
	}}, shellCall, say("ok"))
	settings := filepath.Join(r.home, ".gemini", "settings.json")
	b, _ := os.ReadFile(settings)
	disabled := fmt.Sprintf(`{"hooksConfig":{"disabled":["guard-one",%q,%q]},`, byCommand, namedByCommand)
	rh.WriteFile(t, settings, disabled+strings.TrimPrefix(strings.TrimSpace(string(b)), "{"))
	r.run(t, "run it")
	calls := rec.Calls("control")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s", r.stderr)
	}
	ran := func() string {
		var l []string
		for _, n := range []string{"byname", "bycommand", "namedbycommand"} {
			if len(rec.Calls(n)) > 0 {
				l = append(l, n)
			}
		}
		return layerList(l)
	}
	host := ran()
	rec.Reset()
	r.hookd(t, "BeforeTool", calls[0].Stdin)
	record(t, "gemini", "hooksConfig.disabled [name of A, command of B, command of named C]: which of A, B, C run", host, ran())
}

// TestGemini_StopReasonOnlyDeny: a deny with no reason but a stopReason.
// and a deny with no text at all.
func TestGemini_StopReasonOnlyDeny(t *testing.T) {
	for _, tc := range []struct{ behaviour, out string }{
		{"BeforeTool deny whose only text is stopReason", `{"decision":"deny","stopReason":"halted by policy"}`},
		{"BeforeTool deny with no text", `{"decision":"deny"}`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newGemini(t, map[string]any{"BeforeTool": []any{ghook("", rec.Cmd("bt", tc.out, 0))}}, shellCall, say("ok"))
			r.run(t, "run it")
			calls := rec.Calls("bt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\n%s", r.stderr)
			}
			record(t, "gemini", tc.behaviour, geminiVerdict(r.toolResult()), hookdVerdict(r.hookd(t, "BeforeTool", calls[0].Stdin)))
		})
	}
}
