//go:build realhost

package newhosts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/hooks"
	"github.com/hookd/hookd/realhost/rh"
)

// Cline 3.0.65, run as `cline --json PROMPT` with the openai-compatible
// provider pointed at the scripted model and CLINE_SESSION_BACKEND_MODE=local
// (otherwise it starts a hub daemon that outlives the run). Its hooks are
// files named after their event.
var clineVersion = rh.EnvOr("REALHOST_CLINE_VERSION", "3.0.65")

type clineRun struct {
	home, work string
	model      *model
	stdout     string
	stderr     string
	took       time.Duration
}

func clineBin(t *testing.T) string { return npmBin(t, "cline", clineVersion, "cline/bin/cline") }

func (r *clineRun) env() []string {
	// The model is on loopback; a proxy that answers nothing keeps
	// anything else Cline tries from leaving the machine.
	return append(baseEnv(r.home), "CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1",
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost")
}

func newCline(t *testing.T, script ...turn) *clineRun {
	t.Helper()
	r := &clineRun{home: t.TempDir(), work: t.TempDir()}
	r.model = startChat(t, script...)
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	if out, errOut, err := rh.Run(ctx, r.work, r.env(), "", clineBin(t), "auth", "-p", "openai-compatible", "-k", "sk-realhost", "-m", "realhost-model", "-b", r.model.URL()+"/v1"); err != nil {
		t.Fatalf("cline auth: %v\n%s\n%s", err, out, errOut)
	}
	return r
}

// hook writes an executable hook file (a bash script) at rel under the
// home folder ("~/...") or the workspace.
func (r *clineRun) hook(t *testing.T, rel, script string) string {
	t.Helper()
	path := filepath.Join(r.work, rel)
	if rest, ok := strings.CutPrefix(rel, "~/"); ok {
		path = filepath.Join(r.home, rest)
	}
	rh.WriteFile(t, path, "#!/bin/bash\n"+script+"\n")
	os.Chmod(path, 0o755)
	return path
}

func (r *clineRun) run(t *testing.T, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	start := time.Now()
	var err error
	r.stdout, r.stderr, err = rh.Run(ctx, r.work, r.env(), "", clineBin(t), "--json", prompt)
	r.took = time.Since(start)
	if err != nil {
		t.Logf("cline: %v\nstdout:\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
}

func (r *clineRun) hookd(t *testing.T, event, input string) string {
	return hookdRun(t, r.home, r.work, "cline", event, input, "--home", filepath.Join(r.home, ".cline"), "--project", r.work)
}

var clineShell = callTool("run_commands", `{"commands":["echo realhost-ran"]}`)

// recordCall is a hook script's first lines: save stdin and the
// environment under rec's folder as name.
func recordCall(rec *rh.Recorder, name string) string {
	return fmt.Sprintf(`f=$(mktemp %s) && cat > "$f.in" && env > "$f.env"`, hooks.ShellQuote(filepath.Join(rec.Dir, name)+".XXXXXX"))
}

// clineOutcome says what the run did with the tool call: the tool's output
// reached the model ("ran", "rewritten ran"), or the task ended with no
// tool result ("task ended").
func clineOutcome(reqs []string) string {
	out := "task ended"
	for _, b := range reqs {
		gjson.Get(b, "messages").ForEach(func(_, m gjson.Result) bool {
			if m.Get("role").Str != "tool" {
				return true
			}
			switch text := contentText(m.Get("content")); {
			case strings.Contains(text, "rewritten-by-hook"):
				out = "rewritten ran"
			case strings.Contains(text, "realhost-ran"):
				out = "ran"
			}
			return true
		})
	}
	return out
}

func clineHookdOutcome(res string) string {
	switch {
	case gjson.Get(res, "continue").Type == gjson.False:
		return "task ended"
	case strings.Contains(gjson.Get(res, "updatedInput").Raw, "rewritten-by-hook"):
		return "rewritten ran"
	case gjson.Get(res, "decision").Exists():
		return "ran"
	}
	return "no result: " + res
}

var hookContextRe = regexp.MustCompile(`(?s)<hook_context [^>]*>.*?</hook_context>`)

// clineContext is the first <hook_context> element in what reached the
// model (JSON-escaped text unescaped).
func clineContext(reqs []string) string {
	for _, b := range reqs {
		var found string
		gjson.Get(b, "messages").ForEach(func(_, m gjson.Result) bool {
			if s := hookContextRe.FindString(contentText(m.Get("content"))); s != "" {
				found = s
				return false
			}
			return true
		})
		if found != "" {
			return found
		}
	}
	return "no context"
}

func TestCline_PreToolUse(t *testing.T) {
	for _, tc := range []struct{ behaviour, script string }{
		{"cancel ends the whole task", `echo '{"cancel":true,"errorMessage":"not this one"}'`},
		{"context reaches the model wrapped", `echo '{"context":"realhost context"}'`},
		{"contextModification is context too", `echo '{"contextModification":"modified context"}'`},
		{"the last HOOK_CONTROL line is the control JSON", `echo noise; printf 'HOOK_CONTROL\t{"context":"first"}\n'; echo more; printf 'HOOK_CONTROL\t{"context":"from control line"}\n'`},
		{"the exit code is ignored (exit 2 with context)", `echo '{"context":"context on exit 2"}'; exit 2`},
		{"exit 2 alone does not block", `echo blocked >&2; exit 2`},
		{"invalid JSON is ignored", `echo '{"cancel": tru'`},
		{"overrideInput replaces the call's input", `echo '{"overrideInput":{"commands":["echo rewritten-by-hook"]}}'`},
		{"a string cancel does not cancel, its context counts", `echo '{"cancel":"yes","context":"still counts"}'`},
		{"an inner hook_context tag is escaped", `echo '{"context":"a <hook_context> b </hook_context> c"}'`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newCline(t, clineShell, say("ok"))
			r.hook(t, "~/.cline/hooks/PreToolUse", recordCall(rec, "pt")+"\n"+tc.script)
			r.hook(t, "~/.cline/hooks/TaskError", recordCall(rec, "error"))
			r.hook(t, "~/.cline/hooks/TaskCancel", recordCall(rec, "cancel"))
			r.run(t, "run it")
			calls := rec.Calls("pt")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
			res := r.hookd(t, "PreToolUse", calls[0].Stdin)
			reqs := r.model.Requests()
			record(t, "cline", "PreToolUse: "+tc.behaviour, clineOutcome(reqs), clineHookdOutcome(res))
			mine := "no context"
			if c := gjson.Get(res, "additionalContext.0.text").Str; c != "" {
				mine = c
			}
			record(t, "cline", "PreToolUse: "+tc.behaviour+": context", clineContext(reqs), mine)
			if strings.Contains(tc.script, "cancel\":true") {
				// cline --json does not print the reason (it says the run
				// was aborted "by another client"); its log has it.
				record(t, "cline", "PreToolUse: cancel's reason", "reason: "+r.logged("Agent loop caught error", "errorMessage"), "reason: "+gjson.Get(res, "stopReason").Str)
				t.Logf("after the cancel: TaskError hooks ran %d time(s), TaskCancel hooks %d time(s); --json says %s",
					len(rec.Calls("error")), len(rec.Calls("cancel")), gjson.Get(lastLine(r.stdout), "reason").Str)
			}
		})
	}
}

func TestCline_PostToolUse(t *testing.T) {
	for _, tc := range []struct{ behaviour, script string }{
		{"context reaches the model wrapped", `echo '{"context":"after the tool"}'`},
		{"cancel ends the task after the tool ran", `echo '{"cancel":true,"errorMessage":"enough"}'`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			r := newCline(t, clineShell, say("ok"))
			r.hook(t, "~/.cline/hooks/PostToolUse", recordCall(rec, "post")+"\n"+tc.script)
			r.run(t, "run it")
			calls := rec.Calls("post")
			if len(calls) == 0 {
				t.Fatalf("the hook did not run\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			}
			res := r.hookd(t, "PostToolUse", calls[0].Stdin)
			reqs := r.model.Requests()
			host := fmt.Sprintf("%d model requests", len(reqs))
			mine := "2 model requests"
			if gjson.Get(res, "continue").Type == gjson.False {
				mine = "1 model requests"
			}
			record(t, "cline", "PostToolUse: "+tc.behaviour, host, mine)
			hc := "no context"
			if c := gjson.Get(res, "additionalContext.0.text").Str; c != "" {
				hc = c
			}
			record(t, "cline", "PostToolUse: "+tc.behaviour+": context", clineContext(reqs), hc)
		})
	}
}

// TestCline_Discovery puts hook files in each folder, under names Cline
// may or may not take, and compares which ran with hookd's list.
func TestCline_Discovery(t *testing.T) {
	rec := rh.NewRecorder(t)
	r := newCline(t, clineShell, say("ok"))
	files := map[string]string{
		"home":       "~/.cline/hooks/PreToolUse",
		"documents":  "~/Documents/Cline/Hooks/PreToolUse.sh",
		"clinerules": ".clinerules/hooks/pretooluse.sh",
		"dotcline":   ".cline/hooks/PRETOOLUSE.py",
		"txt":        ".cline/hooks/PreToolUse.txt",
		"post":       ".cline/hooks/PostToolUse.bash",
		"compact":    ".cline/hooks/PreCompact",
		"taskstart":  ".cline/hooks/TaskStart",
	}
	paths := map[string]string{}
	for name, rel := range files {
		script := recordCall(rec, name)
		if strings.HasSuffix(rel, ".py") {
			// A bash script under a .py name runs by its #! line.
			script = recordCall(rec, name)
		}
		paths[name] = r.hook(t, rel, script)
	}
	// A link to a hook file is not a hook file.
	link := filepath.Join(r.work, ".clinerules", "hooks", "PostToolUse")
	os.Symlink(paths["post"], link)
	r.run(t, "run it")
	calls := rec.Calls("home")
	if len(calls) == 0 {
		t.Fatalf("the home hook did not run\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	list := hookdList(t, r)
	for _, name := range []string{"home", "documents", "clinerules", "dotcline", "txt", "post", "compact", "taskstart"} {
		ran := len(rec.Calls(name)) > 0
		record(t, "cline", fmt.Sprintf("hook file %s", files[name]), runs(ran), runs(strings.Contains(list, `"key": "`+paths[name]+":")))
	}
	postRuns := len(rec.Calls("post"))
	record(t, "cline", "a link to a hook file", fmt.Sprintf("PostToolUse ran %d time(s)", postRuns), fmt.Sprintf("PostToolUse ran %d time(s)", strings.Count(list, "post_tool_use")))
	real := calls[0]
	rec.Reset()
	r.hookd(t, "PreToolUse", real.Stdin)
	if mine := rec.Calls("home"); len(mine) > 0 {
		record(t, "cline", "PreToolUse stdin: field names in order", keys(gjson.Parse(real.Stdin)), keys(gjson.Parse(mine[0].Stdin)))
		record(t, "cline", "PreToolUse runs in", dirName(real.Env["PWD"], r.work), dirName(mine[0].Env["PWD"], r.work))
	}
	// The host's input without hookName, timestamp and workspaceRoots:
	// hookd fills them in.
	short := fmt.Sprintf(`{"taskId":%s,"tool_call":%s}`, gjson.Get(real.Stdin, "taskId").Raw, gjson.Get(real.Stdin, "tool_call").Raw)
	rec.Reset()
	r.hookd(t, "PreToolUse", short)
	if mine := rec.Calls("home"); len(mine) > 0 {
		for _, f := range []string{"hookName", "workspaceRoots"} {
			record(t, "cline", "filled in by hookd: "+f, gjson.Get(real.Stdin, f).Raw, gjson.Get(mine[0].Stdin, f).Raw)
		}
	}
}

// logs are the entries of Cline's log file (one JSON object a line).
func (r *clineRun) logs() []gjson.Result {
	b, _ := os.ReadFile(filepath.Join(r.home, ".cline", "data", "logs", "cline.log"))
	var out []gjson.Result
	for _, l := range strings.Split(string(b), "\n") {
		if gjson.Valid(l) {
			out = append(out, gjson.Parse(l))
		}
	}
	return out
}

// logged is field of the first log entry whose msg is msg.
func (r *clineRun) logged(msg, field string) string {
	for _, e := range r.logs() {
		if e.Get("msg").Str == msg {
			return e.Get(field).Str
		}
	}
	return "(not logged)"
}

// TestCline_HookCost compares the time Cline logs for its detached hooks
// (hooks.detached_runtime, durationMs) with hookd's round trip for the
// same trivial hook.
func TestCline_HookCost(t *testing.T) {
	r := newCline(t, clineShell, say("ok"))
	for _, f := range []string{"TaskStart", "TaskComplete", "UserPromptSubmit"} {
		r.hook(t, "~/.cline/hooks/"+f, "cat > /dev/null")
	}
	// The file hookd runs for its round trip.
	r.hook(t, ".cline/hooks/PreToolUse", "cat > /dev/null")
	r.run(t, "run it")
	var ds []int
	for _, e := range r.logs() {
		if e.Get("event").Str == "hooks.detached_runtime" && e.Get("properties.exited").Bool() {
			ds = append(ds, int(e.Get("properties.durationMs").Int()))
		}
	}
	init := fmt.Sprintf(`{"profile":"cline","session":{"cwd":%q},"config":{"home":%q,"project":{"root":%q}}}`, r.work, filepath.Join(r.home, ".cline"), r.work)
	rt := hookdRoundTrip(t, r.home, r.work, init, "PreToolUse", `{"tool_call":{"id":"call_1","name":"run_commands","input":{}}}`, 20)
	rowsMu.Lock()
	timings = append(timings, fmt.Sprintf("cline: CLI's own time per trivial detached hook (`cat > /dev/null`, hooks.detached_runtime in its log), median of %d: %d ms (%v); hookd `hooks/run` round trip for the same hook as a PreToolUse file, median of 20: %.1f ms; one `cline --json` run: %.1f s",
		len(ds), median(ds), ds, float64(rt.Microseconds())/1000, r.took.Seconds()))
	rowsMu.Unlock()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func hookdList(t *testing.T, r *clineRun) string {
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	out, _, _ := rh.Run(ctx, r.work, baseEnv(r.home), "", rh.Hookd(t), "list", "--profile", "cline", "--home", filepath.Join(r.home, ".cline"), "--project", r.work, "--json")
	return out
}
