//go:build realhost

package realhost

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tidwall/gjson"

	"github.com/hookd/hookd/realhost/rh"
)

// Project trust as each host records it (issue 18): whether a project's own
// hooks run in the real host and in hookd, for a project never trusted, one
// trusted in the host's record, one trusted and then marked untrusted, and
// one trusted through `hookd trust --project`.

// projectTrustStates writes each state into the host's record through set
// (nil: no entry), and says for each whether the project's hook ran.
type trustState struct {
	name string
	set  func(t *testing.T, home, work string)
}

// hookdList runs `hookd list --json` with args and returns the result.
func hookdList(t *testing.T, home string, args ...string) gjson.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	out, errOut, err := rh.Run(ctx, home, baseEnv(home), "", rh.Hookd(t), append([]string{"list", "--json"}, args...)...)
	if err != nil {
		t.Fatalf("hookd list: %v\n%s", err, errOut)
	}
	return gjson.Parse(out)
}

func hookdTrustProject(t *testing.T, home string, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hostTimeout)
	defer cancel()
	if _, errOut, err := rh.Run(ctx, home, baseEnv(home), "", rh.Hookd(t), append([]string{"trust", "--project"}, args...)...); err != nil {
		t.Fatalf("hookd trust --project: %v\n%s", err, errOut)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func TestCodex_ProjectTrust(t *testing.T) {
	states := []trustState{
		{"never trusted", nil},
		{"trusted in config.toml", func(t *testing.T, home, work string) {
			appendFile(t, filepath.Join(home, "config.toml"), fmt.Sprintf("\n[projects.%q]\ntrust_level = \"trusted\"\n", work))
		}},
		{"trusted, then untrusted", func(t *testing.T, home, work string) {
			appendFile(t, filepath.Join(home, "config.toml"), fmt.Sprintf("\n[projects.%q]\ntrust_level = \"untrusted\"\n", work))
		}},
		{"trusted by hookd trust --project", func(t *testing.T, home, work string) {
			hookdTrustProject(t, home, "--home", home, work)
		}},
	}
	for _, st := range states {
		rec := rh.NewRecorder(t)
		r := newCodex(t, hooksOf(), say("finished"))
		rh.WriteFile(t, filepath.Join(r.work, ".codex", "hooks.json"), mustJSON(map[string]any{
			"hooks": hooksOf("UserPromptSubmit", []any{group("-", rec.Cmd("proj", "", 0))})}))
		if st.set != nil {
			st.set(t, r.home, r.work)
		}
		r.exec(t, "hello")
		host := yesNo(len(rec.Calls("proj")) > 0)
		list := hookdList(t, r.home, "--home", r.home, "--cwd", r.work)
		hd := yesNo(len(list.Get("hooks").Array()) == 1)
		record(t, "codex", "trust", "project hooks load: "+st.name, host, hd)
	}
}

func TestClaude_ProjectTrust(t *testing.T) {
	states := []trustState{
		{"never trusted", nil},
		{"trusted in .claude.json", func(t *testing.T, home, work string) {
			rh.WriteFile(t, filepath.Join(home, ".claude.json"), mustJSON(map[string]any{
				"projects": map[string]any{work: map[string]any{"hasTrustDialogAccepted": true}}}))
		}},
		{"trusted, then untrusted", func(t *testing.T, home, work string) {
			rh.WriteFile(t, filepath.Join(home, ".claude.json"), mustJSON(map[string]any{
				"projects": map[string]any{work: map[string]any{"hasTrustDialogAccepted": false}}}))
		}},
		{"trusted by hookd trust --project", func(t *testing.T, home, work string) {
			hookdTrustProject(t, home, "--profile", "claude", "--home", filepath.Join(home, ".claude"), work)
		}},
	}
	for _, st := range states {
		rec := rh.NewRecorder(t)
		r := newClaude(t, rec, map[string]any{}, say("finished"))
		rh.WriteFile(t, filepath.Join(r.work, ".claude", "settings.json"), mustJSON(map[string]any{
			"hooks": hooksOf("UserPromptSubmit", []any{group("-", rec.Cmd("proj", "", 0))})}))
		if st.set != nil {
			st.set(t, r.home, r.work)
		}
		r.exec(t, "hello")
		host := yesNo(len(rec.Calls("proj")) > 0)
		// claude -p is non-interactive and never asks: it loads the project's
		// settings whatever .claude.json says. A host running such a session
		// says so to hookd (config.project.trusted, --trust-project).
		claudeHome := filepath.Join(r.home, ".claude")
		list := hookdList(t, r.home, "--profile", "claude", "--home", claudeHome, "--cwd", r.work, "--trust-project")
		hd := yesNo(len(list.Get("hooks").Array()) == 1)
		record(t, "claude", "trust", "project hooks load in -p (hookd: host says trusted): "+st.name, host, hd)
		// An interactive session asks and follows the record; hookd does the
		// same when the host says nothing. Not compared: -p cannot show it.
		list = hookdList(t, r.home, "--profile", "claude", "--home", claudeHome, "--cwd", r.work)
		t.Logf("claude, %s: hookd without the host's answer loads the project: %s (decided by %s)",
			st.name, yesNo(len(list.Get("hooks").Array()) == 1), list.Get("project.decidedBy").Str)
	}
}

// killTmux ends a tmux session and the process group of its pane (the
// host and its hooks), and waits until the pane's process is gone, so
// nothing writes into the test's folders after it (pidfd_open: its exit is
// the signal).
func killTmux(session string) {
	out, _ := exec.Command("tmux", "list-panes", "-t", session, "-F", "#{pane_pid}").Output()
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	fd := -1
	if pid > 0 {
		fd, _ = unix.PidfdOpen(pid, 0)
		syscall.Kill(-pid, syscall.SIGKILL)
		syscall.Kill(pid, syscall.SIGKILL)
	}
	exec.Command("tmux", "kill-session", "-t", session).Run()
	if fd >= 0 {
		unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 10000)
		unix.Close(fd)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestClaude_ProjectTrustInteractive drives an interactive Claude Code in
// tmux: without a record it shows its trust dialog and runs no project hook;
// with hasTrustDialogAccepted it runs the project's SessionStart hook
// without asking. hookd, with no answer from the host, follows the same
// record.
func TestClaude_ProjectTrustInteractive(t *testing.T) {
	bin, err := hostBinary("@anthropic-ai/claude-code", claudeVersion, "claude")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this check needs tmux (apt-get install tmux)")
	}
	for i, st := range []struct {
		name     string
		accepted any // hasTrustDialogAccepted, nil: no entry
	}{{"never trusted", nil}, {"trusted in .claude.json", true}, {"trusted, then untrusted", false}} {
		home, work := t.TempDir(), t.TempDir()
		ran := filepath.Join(t.TempDir(), "ran")
		rh.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), "{}")
		rh.WriteFile(t, filepath.Join(work, ".claude", "settings.json"), mustJSON(map[string]any{
			"hooks": hooksOf("SessionStart", []any{group("-", "echo ran >> "+ran)})}))
		projects := map[string]any{}
		if st.accepted != nil {
			projects[work] = map[string]any{"hasTrustDialogAccepted": st.accepted}
		}
		rh.WriteFile(t, filepath.Join(home, ".claude.json"), mustJSON(map[string]any{
			"hasCompletedOnboarding": true, "theme": "dark", "projects": projects,
			"customApiKeyResponses": map[string]any{"approved": []string{"sk-ant-realhost"}, "rejected": []string{}}}))
		session := fmt.Sprintf("hookd-realhost-%d-%d", os.Getpid(), i)
		shell := fmt.Sprintf("env -i PATH=%s HOME=%s TERM=xterm-256color IS_SANDBOX=1 ANTHROPIC_API_KEY=sk-ant-realhost ANTHROPIC_BASE_URL=http://127.0.0.1:9 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 %s",
			os.Getenv("PATH"), home, bin)
		if out, err := exec.Command("tmux", "new-session", "-d", "-s", session, "-x", "150", "-y", "40", "-c", work, shell).CombinedOutput(); err != nil {
			t.Fatalf("tmux: %v\n%s", err, out)
		}
		t.Cleanup(func() { killTmux(session) })
		// The screen is the only signal an interactive session gives: poll it
		// (bounded) for the dialog or the hook's file.
		host := "no answer"
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if _, err := os.Stat(ran); err == nil {
				host = "yes"
				break
			}
			screen, _ := exec.Command("tmux", "capture-pane", "-p", "-t", session).Output()
			if strings.Contains(string(screen), "Yes, I trust this folder") {
				host = "no"
				break
			}
		}
		killTmux(session)
		list := hookdList(t, home, "--profile", "claude", "--home", filepath.Join(home, ".claude"), "--cwd", work)
		record(t, "claude", "trust", "project hooks run without asking (interactive): "+st.name, host,
			yesNo(len(list.Get("hooks").Array()) == 1))
	}
}
