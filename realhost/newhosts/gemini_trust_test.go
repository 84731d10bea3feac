//go:build realhost

package newhosts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/realhost/rh"

	"github.com/hookd/hookd/hooks"
)

// geminiLayers are the places a Gemini CLI hook can come from, as the
// trust case names them.
var geminiLayers = []string{"system", "user", "workspace", "extension"}

// TestGemini_UntrustedFolder drives an interactive Gemini CLI (in tmux:
// in -p mode an untrusted folder is a fatal error before any hook) with
// folder trust on and a BeforeAgent hook in each layer: the system
// settings ($GEMINI_CLI_SYSTEM_SETTINGS_PATH), the user's
// ~/.gemini/settings.json, the workspace's .gemini/settings.json and an
// extension in ~/.gemini/extensions. ~/.gemini/trustedFolders.json marks the
// folder DO_NOT_TRUST or TRUST_FOLDER. The system settings sit in a folder
// of root's that no one else may write to (under the CLI cache), or in one
// anyone may write to, which the CLI skips. The prompt given with -i reaching
// the model says every BeforeAgent hook that would run has run. hookd then
// runs BeforeAgent on the same files, told what the host decided
// (--trust-project=false or --trust-project), and again told nothing, when
// trustedFolders.json decides.
func TestGemini_UntrustedFolder(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("this check needs tmux (apt-get install tmux)")
	}
	bin := npmBin(t, "@google/gemini-cli", geminiVersion, ".bin/gemini")
	for i, st := range []struct {
		name, level string
		trusted     bool
		openSystem  bool // the system settings in a folder anyone may write to
	}{
		{"marked DO_NOT_TRUST", "DO_NOT_TRUST", false, false},
		{"marked TRUST_FOLDER", "TRUST_FOLDER", true, false},
		{"marked TRUST_FOLDER, the system settings in a folder anyone may write to", "TRUST_FOLDER", true, true},
	} {
		t.Run(st.name, func(t *testing.T) {
			rec := rh.NewRecorder(t)
			home, work := t.TempDir(), t.TempDir()
			gemini := filepath.Join(home, ".gemini")
			system := filepath.Join(systemFolder(t, st.openSystem), "settings.json")
			hooksOf := func(name string) map[string]any {
				return map[string]any{"BeforeAgent": []any{ghook("", rec.Cmd(name, "", 0))}}
			}
			write := func(path string, v any) {
				b, _ := json.MarshalIndent(v, "", "  ")
				rh.WriteFile(t, path, string(b))
			}
			write(system, map[string]any{"hooks": hooksOf("system")})
			write(filepath.Join(gemini, "settings.json"), map[string]any{
				"privacy":  map[string]any{"usageStatisticsEnabled": false},
				"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": true}},
				"ui":       map[string]any{"theme": "Default"},
				"hooks":    hooksOf("user"),
			})
			write(filepath.Join(work, ".gemini", "settings.json"), map[string]any{"hooks": hooksOf("workspace")})
			ext := filepath.Join(gemini, "extensions", "guard")
			write(filepath.Join(ext, "gemini-extension.json"), map[string]any{"name": "guard", "version": "1.0.0"})
			write(filepath.Join(ext, "hooks", "hooks.json"), map[string]any{"hooks": hooksOf("extension")})
			write(filepath.Join(gemini, "trustedFolders.json"), map[string]any{work: st.level})

			m := startGemini(t, say("ok"))
			// A tmux server of this case's own (-L): another suite's tmux,
			// or this one's last session ending its server, cannot cut
			// into it.
			server := fmt.Sprintf("hookd-gemini-%d-%d", os.Getpid(), i)
			tmux := func(args ...string) *exec.Cmd {
				return exec.Command("tmux", append([]string{"-L", server}, args...)...)
			}
			shell := fmt.Sprintf("exec env -i PATH=%s HOME=%s TERM=xterm-256color LANG=C.UTF-8 GEMINI_API_KEY=realhost GEMINI_CLI_NO_RELAUNCH=1 GOOGLE_GEMINI_BASE_URL=%s %s=%s %s -m gemini-2.5-flash -i hello",
				hooks.ShellQuote(os.Getenv("PATH")), hooks.ShellQuote(home), m.URL(), "GEMINI_CLI_SYSTEM_SETTINGS_PATH", hooks.ShellQuote(system), hooks.ShellQuote(bin))
			if out, err := tmux("new-session", "-d", "-s", "gemini", "-x", "150", "-y", "40", "-c", work, shell).CombinedOutput(); err != nil {
				t.Fatalf("tmux: %v\n%s", err, out)
			}
			t.Cleanup(func() { tmux("kill-server").Run() })
			// The pane's process is the CLI (exec): its exit, seen through a
			// pidfd, says it is gone before the test's folders are removed.
			exited := paneExit(t, tmux)
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			reached := m.WaitRequests(ctx, 1)
			cancel()
			screen, _ := tmux("capture-pane", "-p", "-t", "gemini").Output()
			tmux("kill-server").Run()
			if !exited(30 * time.Second) {
				t.Errorf("the CLI did not exit within 30 s of its tmux server")
			}
			if !reached {
				t.Fatalf("the prompt never reached the model; screen:\n%s", screen)
			}
			var host []string
			input := ""
			for _, l := range geminiLayers {
				if c := rec.Calls(l); len(c) > 0 {
					host = append(host, l)
					input = c[0].Stdin
				}
			}
			if input == "" {
				input = fmt.Sprintf(`{"cwd":%q,"prompt":"hello"}`, work)
			}
			ran := func() []string {
				var l []string
				for _, lay := range geminiLayers {
					if len(rec.Calls(lay)) > 0 {
						l = append(l, lay)
					}
				}
				rec.Reset()
				return l
			}
			rec.Reset()
			env := []string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + system}
			trust := "--trust-project=false"
			if st.trusted {
				trust = "--trust-project"
			}
			hookdRunEnv(t, env, home, work, "gemini", "BeforeAgent", input, "--home", gemini, "--project", work, trust)
			record(t, "gemini", "BeforeAgent hooks that run in a folder "+st.name+" (folder trust on; hookd: "+trust+")", layerList(host), layerList(ran()))
			hookdRunEnv(t, env, home, work, "gemini", "BeforeAgent", input, "--home", gemini, "--project", work)
			record(t, "gemini", "BeforeAgent hooks that run in a folder "+st.name+" (folder trust on; hookd: no answer, its trustedFolders.json)", layerList(host), layerList(ran()))
		})
	}
}

// systemFolder is a folder for system settings: one of root's that no one
// else may write to (under the cache; secure when the suite runs as root, as
// Gemini CLI requires of system settings), or, when open, one anyone may
// write to.
func systemFolder(t *testing.T, open bool) string {
	if open {
		d := t.TempDir()
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d, err := os.MkdirTemp(cacheDir(t), "gemini-system-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestGemini_LayerOrder: a BeforeTool deny in each layer; the CLI joins the
// reasons in its configuration order (its merged settings concatenate the
// system defaults beside the system settings, user, workspace, then system;
// extensions come after), and so must hookd.
func TestGemini_LayerOrder(t *testing.T) {
	rec := rh.NewRecorder(t)
	deny := func(name string) map[string]any {
		return map[string]any{"BeforeTool": []any{ghook("", rec.Cmd(name, fmt.Sprintf(`{"decision":"deny","reason":"%s"}`, name), 0))}}
	}
	r := newGemini(t, deny("user"), shellCall, say("ok"))
	r.rec = rec
	system := filepath.Join(systemFolder(t, false), "settings.json")
	write := func(path string, v any) {
		b, _ := json.MarshalIndent(v, "", "  ")
		rh.WriteFile(t, path, string(b))
	}
	write(system, map[string]any{"hooks": deny("system")})
	write(filepath.Join(filepath.Dir(system), "system-defaults.json"), map[string]any{"hooks": deny("defaults")})
	write(filepath.Join(r.work, ".gemini", "settings.json"), map[string]any{"hooks": deny("workspace")})
	ext := filepath.Join(r.home, ".gemini", "extensions", "guard")
	write(filepath.Join(ext, "gemini-extension.json"), map[string]any{"name": "guard", "version": "1.0.0"})
	write(filepath.Join(ext, "hooks", "hooks.json"), map[string]any{"hooks": deny("extension")})
	// GEMINI_CLI_TRUST_WORKSPACE, not --skip-trust: the CLI reads its
	// settings before it parses the flag, so with --skip-trust alone (and
	// no trustedFolders.json entry) the workspace settings are not merged.
	r.env = []string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH=" + system, "GEMINI_CLI_TRUST_WORKSPACE=true"}
	r.run(t, "run it")
	calls := rec.Calls("user")
	if len(calls) == 0 {
		t.Fatalf("the hook did not run\n%s", r.stderr)
	}
	res := hookdRunEnv(t, r.env, r.home, r.work, "gemini", "BeforeTool", calls[0].Stdin, "--home", filepath.Join(r.home, ".gemini"), "--project", r.work, "--trust-project")
	record(t, "gemini", "a deny in each layer: the reasons in configuration order", geminiVerdict(r.toolResult()), hookdVerdict(res))
}

// paneExit opens a pidfd on the process of the tmux pane "gemini" and
// returns a wait for its exit (false when it outlives limit).
func paneExit(t *testing.T, tmux func(args ...string) *exec.Cmd) func(limit time.Duration) bool {
	out, err := tmux("display-message", "-p", "-t", "gemini", "#{pane_pid}").Output()
	if err != nil {
		t.Fatalf("tmux pane pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("tmux pane pid %q: %v", out, err)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd of %d: %v", pid, err)
	}
	return func(limit time.Duration) bool {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, int(limit.Milliseconds()))
			if err == unix.EINTR {
				continue
			}
			return err == nil && n == 1
		}
	}
}

func layerList(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}
