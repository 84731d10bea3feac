//go:build realhost

package realhost

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// Item 9: what Claude Code 2.1.332 changed, and the differences its runs
// showed: the text of an exit 2, the <system-reminder> wrapping of a Stop
// continuation (CLAUDE_CODE_SHINY_FOUNTAIN), a hook's stdin bytes, the
// 34th event.
func TestClaude_Exit2TextAndHookTextWrapping(t *testing.T) {
	withShinySwitch(t, func(t *testing.T, shiny, name string) {
		rec := rh.NewRecorder(t)
		once := filepath.Join(rec.Dir, "once")
		stop := fmt.Sprintf(`cat >/dev/null; [ -f %s ] && exit 0; touch %s; echo 'keep <going> </system-reminder> & on' >&2; exit 2`, once, once)
		pre := `cat >/dev/null; echo 'pre says no' >&2; exit 2`
		settings := map[string]any{"hooks": hooksOf(
			"Stop", []any{cgroup("-", cmdHandler(rec.Cmd("stop-in", "", 0)), cmdHandler(stop))},
			"PreToolUse", []any{cgroup("Bash", cmdHandler(rec.Cmd("pre-in", "", 0)), cmdHandler(pre))},
		)}
		r := newClaude(t, rec, settings, callTool("Bash", `{"command":"echo hi","description":"x"}`), say("finished"), say("again"))
		if shiny != "" {
			r.env = []string{"CLAUDE_CODE_SHINY_FOUNTAIN=" + shiny}
		}
		r.exec(t, "run it")
		reqs := r.model.Requests()
		hostDeny := toolResult(reqs, 1)
		hostStop := "(no further turn)"
		if len(reqs) > 2 {
			hostStop = gjson.Get(reqs[2], "messages.@reverse.0.content.#(type==\"text\")#.text|@reverse|0").Str
		}
		// The host keeps the stderr's newline before the closing tag;
		// hookd trims the stderr. The old text has "Stop hook
		// feedback:\n" before what hookd hands over.
		hostStop = strings.ReplaceAll(strings.TrimSpace(hostStop), "\n\n</system-reminder>", "\n</system-reminder>")
		hostStop = strings.TrimPrefix(hostStop, "Stop hook feedback:\n")
		preIn := firstCall(t, rec, "pre-in", "claude")
		stopIn := firstCall(t, rec, "stop-in", "claude")
		os.Remove(once)
		rec.Reset()
		resPre := r.hookd(t, "PreToolUse", preIn.Stdin)
		resStop := r.hookd(t, "Stop", stopIn.Stdin)
		hdPre := firstCall(t, rec, "pre-in", "hookd: "+resPre)
		// Shorter cells: the lead sentence and the recorder's folder.
		short := func(s string) string {
			return strings.ReplaceAll(hookTextLead.ReplaceAllString(s, "<lead>"), rec.Dir, "<dir>")
		}
		record(t, "claude", "9", "exit 2 on Stop: the text the model gets ("+name+")", short(hostStop), short(gjson.Get(resStop, "continuation").Str))
		if shiny == "" {
			record(t, "claude", "9", "exit 2 on PreToolUse: the text the model gets", hostDeny, gjson.Get(resPre, "reason").Str)
			record(t, "claude", "9", "stdin bytes of a command hook (newline at the end, host key order, <>& as they are)",
				"same as the host's", map[bool]string{true: "same as the host's", false: fmt.Sprintf("%q", hdPre.Stdin)}[hdPre.Stdin == preIn.Stdin])
		}
	})
}

// withShinySwitch runs f as a subtest with CLAUDE_CODE_SHINY_FOUNTAIN unset
// (shiny "") and off ("0"); name says which.
func withShinySwitch(t *testing.T, f func(t *testing.T, shiny, name string)) {
	for _, shiny := range []string{"", "0"} {
		name := "CLAUDE_CODE_SHINY_FOUNTAIN unset"
		if shiny != "" {
			name = "CLAUDE_CODE_SHINY_FOUNTAIN=" + shiny
		}
		t.Run(name, func(t *testing.T) { f(t, shiny, name) })
	}
}

// hookTextLead is the sentence Claude Code puts before a hook's text.
var hookTextLead = regexp.MustCompile(`The text below is the output of a hook[^\n]*`)

// Item 9: PreSkillShellCommand is the 34th event.
func TestClaude_PreSkillShellCommandKnown(t *testing.T) {
	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(bin)
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(real), "..", "claude-code-linux-x64", "claude"))
	if data == nil {
		data, _ = os.ReadFile(real)
	}
	home, work := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	out, _, _ := rh.Run(t.Context(), work, baseEnv(home), "", rh.Hookd(t), "run", "PreSkillShellCommand", "--profile", "claude", "--home", filepath.Join(home, ".claude"), "--cwd", work)
	record(t, "claude", "9", "PreSkillShellCommand is a known event", yesNo(strings.Contains(string(data), "PreSkillShellCommand")), yesNo(gjson.Get(out, "event").Str == "PreSkillShellCommand"))
}
