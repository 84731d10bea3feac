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

// textBlocks returns the text blocks of request i's messages.
func textBlocks(reqs []string, i int) []string {
	if i >= len(reqs) {
		return nil
	}
	var out []string
	for _, m := range gjson.Get(reqs[i], "messages").Array() {
		if c := m.Get("content"); c.Type == gjson.String {
			out = append(out, c.Str)
		}
		for _, b := range m.Get("content").Array() {
			if b.Get("type").Str == "text" {
				out = append(out, b.Get("text").Str)
			}
		}
	}
	return out
}

// The two lead sentences, shortened in the table's cells: each its own
// name, so a wrong lead still shows.
var (
	shortLead = regexp.MustCompile(`The text below is the output of a hook, not a message from the user\.`)
	longLead  = regexp.MustCompile(`The text below is the output of a hook that [^\n]*`)
)

func shortLeads(s string) string {
	return longLead.ReplaceAllString(shortLead.ReplaceAllString(s, "<short lead>"), "<lead>")
}

// Item 10: the model-facing text of a UserPromptSubmit hook that stops the
// prompt (continue: false, the "Operation stopped by hook" note the model
// gets with the next prompt) and of a TaskCreated block (the TaskCreate
// tool's error), with CLAUDE_CODE_SHINY_FOUNTAIN unset and off. Two prompts
// go in as stream-json, so the note of the first reaches the model with the
// second.
func TestClaude_PromptStopNoteAndTaskCreatedText(t *testing.T) {
	withShinySwitch(t, func(t *testing.T, shiny, name string) {
		rec := rh.NewRecorder(t)
		once := filepath.Join(rec.Dir, "once")
		stop := fmt.Sprintf(`cat >/dev/null; [ -f %[1]s ] && exit 0; touch %[1]s; echo '{"continue":false,"stopReason":"no <more> </system-reminder> & stop"}'`, once)
		task := `cat >/dev/null; echo 'no </system-reminder> task <' >&2; exit 2`
		settings := map[string]any{"hooks": hooksOf(
			"UserPromptSubmit", []any{cgroup("-", cmdHandler(rec.Cmd("ups-in", "", 0)), cmdHandler(stop))},
			"TaskCreated", []any{cgroup("-", cmdHandler(rec.Cmd("task-in", "", 0)), cmdHandler(task))},
		)}
		r := newClaude(t, rec, settings, callTool("TaskCreate", `{"subject":"write tests","description":"d"}`), say("answered"))
		if shiny != "" {
			r.env = []string{"CLAUDE_CODE_SHINY_FOUNTAIN=" + shiny}
		}
		r.execPrompts(t, []string{"first prompt", "second prompt"})
		reqs := r.model.Requests()
		hostNote := "(no note)"
		for _, b := range textBlocks(reqs, 0) {
			if strings.Contains(b, "Operation stopped by hook") {
				hostNote = strings.TrimSuffix(b, "\n")
			}
		}
		hostTask := toolResult(reqs, 1)
		// The host's own words before hookd's text: the label of a
		// TaskCreated block, and, with the switch off, the note's
		// opening.
		hostTask = strings.TrimPrefix(hostTask, "TaskCreated hook feedback:\n")
		if shiny != "" {
			hostNote = strings.TrimPrefix(hostNote, "Operation stopped by hook: ")
		}
		upsIn := firstCall(t, rec, "ups-in", "claude")
		taskIn := firstCall(t, rec, "task-in", "claude")
		os.Remove(once)
		rec.Reset()
		resUPS := r.hookd(t, "UserPromptSubmit", upsIn.Stdin)
		resTask := r.hookd(t, "TaskCreated", taskIn.Stdin)
		record(t, "claude", "10", "UserPromptSubmit continue:false: the note the model gets with the next prompt ("+name+")",
			shortLeads(hostNote), shortLeads(gjson.Get(resUPS, "reason").Str))
		record(t, "claude", "10", "TaskCreated exit 2: the text the model gets in the TaskCreate tool's error ("+name+")",
			hostTask, gjson.Get(resTask, "reason").Str)
	})
}

// Item 10: a UserPromptSubmit exit 2 drops the prompt: the model never gets
// it, and the hook's text is the user's warning only
// ("UserPromptSubmit operation blocked by hook:" before it).
func TestClaude_PromptBlockText(t *testing.T) {
	rec := rh.NewRecorder(t)
	once := filepath.Join(rec.Dir, "once")
	block := fmt.Sprintf(`cat >/dev/null; [ -f %[1]s ] && exit 0; touch %[1]s; echo 'blocked <x>' >&2; exit 2`, once)
	settings := map[string]any{"hooks": hooksOf(
		"UserPromptSubmit", []any{cgroup("-", cmdHandler(rec.Cmd("ups-in", "", 0)), cmdHandler(block))},
	)}
	r := newClaude(t, rec, settings, say("answered"))
	r.execPrompts(t, []string{"first prompt", "second prompt"})
	reqs := r.model.Requests()
	hostPrompt, hostText := "no", "no"
	for _, b := range textBlocks(reqs, 0) {
		if strings.Contains(b, "first prompt") {
			hostPrompt = "yes"
		}
		if strings.Contains(b, "blocked <x>") {
			hostText = "yes"
		}
	}
	warning := "(no warning)"
	for _, line := range strings.Split(r.stdout, "\n") {
		if c := gjson.Get(line, "content").Str; gjson.Get(line, "subtype").Str == "informational" && strings.HasPrefix(c, "UserPromptSubmit operation blocked by hook:\n") {
			// The host's words around the hook's text; the host keeps
			// the stderr's last newline, hookd trims the stderr.
			c = strings.TrimPrefix(c, "UserPromptSubmit operation blocked by hook:\n")
			c, _, _ = strings.Cut(c, "\n\nOriginal prompt: ")
			c = strings.TrimSuffix(c, "\n")
			warning = strings.ReplaceAll(c, rec.Dir, "<dir>")
		}
	}
	in := firstCall(t, rec, "ups-in", "claude").Stdin
	os.Remove(once)
	rec.Reset()
	res := r.hookd(t, "UserPromptSubmit", in)
	blocked := gjson.Get(res, "decision").Str == "block"
	record(t, "claude", "10", "UserPromptSubmit exit 2: the prompt reaches the model", hostPrompt, yesNo(!blocked))
	record(t, "claude", "10", "UserPromptSubmit exit 2: the hook's text reaches the model (hookd: a model-facing field carries it)", hostText,
		yesNo(strings.Contains(gjson.Get(res, "continuation").Str+gjson.Get(res, "feedback").Str+gjson.Get(res, "additionalContext").Raw, "blocked <x>")))
	record(t, "claude", "10", "UserPromptSubmit exit 2: the hook's text in the user's warning", warning, strings.ReplaceAll(gjson.Get(res, "reason").Str, rec.Dir, "<dir>"))
}
