//go:build realhost

package newhosts

import (
	"context"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// hookd doctor against the real Gemini CLI: a hook under an event Gemini
// has (BeforeTool) and one under another host's name for it (PreToolUse).
// What doctor says will run is what gemini -p runs.
func TestGemini_DoctorEvents(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newGemini(t, map[string]any{
		"BeforeTool": []any{ghook("run_shell_command", rec.Cmd("known", "", 0))},
		"PreToolUse": []any{ghook("run_shell_command", rec.Cmd("foreign", "", 0))},
	}, shellCall, say("ok"))
	r.run(t, "run it")
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	out, errOut, err := rh.Run(ctx, r.work, baseEnv(r.home), "", rh.Hookd(t), "doctor", "--json", "--host", "gemini", "--cwd", r.work)
	if out == "" {
		t.Fatalf("hookd doctor: %v\n%s", err, errOut)
	}
	rep := gjson.Parse(out)
	says := func(name string) string {
		for _, s := range rep.Get("hosts.0.sources").Array() {
			for _, h := range s.Get("hooks").Array() {
				if strings.Contains(h.Get("command").Str, "/"+name+".XXXXXX") {
					if h.Get("runs").Bool() {
						return "runs"
					}
					return "does not run"
				}
			}
		}
		return "does not run"
	}
	named := strings.Contains(out, `the nearest it has is BeforeTool`)
	record(t, "gemini", "doctor: BeforeTool hook on run_shell_command", runs(len(rec.Calls("known")) > 0), says("known"))
	record(t, "gemini", "doctor: the same hook under PreToolUse (doctor names BeforeTool: "+map[bool]string{true: "yes", false: "no"}[named]+")",
		runs(len(rec.Calls("foreign")) > 0), says("foreign"))
}
