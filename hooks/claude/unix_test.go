//go:build unix

package claude

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/hooks"
)

func TestClaudeDiscover_ASettingsFIFODoesNotHangDiscovery(t *testing.T) {
	root := claudeFiles(t, nil)
	if err := syscall.Mkfifo(filepath.Join(root, "home", "settings.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	e, _ := claudeEngine(t, root, nil)
	_, warns := e.List("")
	if len(warns) != 1 || !strings.Contains(warns[0].Message, "not a regular file") {
		t.Fatalf("warnings %+v", warns)
	}
}

// envFileRun runs a SessionStart whose one hook runs script, and fails
// the test if the run is not answered: a read of what the hook left at
// CLAUDE_ENV_FILE that waits (a FIFO) would never answer it.
func envFileRun(t *testing.T, script string) *hooks.Result {
	t.Helper()
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("SessionStart",
		fmt.Sprintf(`[{"hooks": [{"type": "command", "command": %q}]}]`, script))})
	e, _ := claudeEngine(t, root, nil)
	type answer struct {
		res *hooks.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := e.Run(context.Background(), "SessionStart", []byte(`{"source":"startup"}`), "")
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			t.Fatal(a.err)
		}
		return a.res
	case <-time.After(20 * time.Second):
		// Let the wedged read end: a writer that closes at once.
		if f, err := os.OpenFile(filepath.Join(root, "home", "session-env", "claude-test", "sessionstart-hook-0.sh"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("the SessionStart run was never answered")
		return nil
	}
}

func envWarning(res *hooks.Result) string {
	for _, m := range res.SystemMessages {
		if strings.Contains(m.Text, "CLAUDE_ENV_FILE") {
			return m.Text
		}
	}
	return ""
}

func TestEnvFile_AFIFOIsSkippedWithAWarningNotWaitedOn(t *testing.T) {
	res := envFileRun(t, `mkfifo "$CLAUDE_ENV_FILE"`)
	if w := envWarning(res); !strings.Contains(w, "named pipe") {
		t.Errorf("warning %q, want one naming the pipe; messages %+v", w, res.SystemMessages)
	}
	if _, ok := res.Output["env"]; ok {
		t.Errorf("env %s from a FIFO", res.Output["env"])
	}
}

func TestEnvFile_ALinkToDevZeroIsSkippedNotReadForEver(t *testing.T) {
	res := envFileRun(t, `ln -s /dev/zero "$CLAUDE_ENV_FILE"`)
	if w := envWarning(res); !strings.Contains(w, "device") {
		t.Errorf("warning %q, want one naming the device; messages %+v", w, res.SystemMessages)
	}
}

func TestEnvFile_AFileOverTheBoundIsSkippedAndTheOthersRead(t *testing.T) {
	// Two hooks: the first writes a file past the bound, the second a line.
	root := claudeFiles(t, map[string]string{"home/settings.json": settings("SessionStart", fmt.Sprintf(
		`[{"hooks": [{"type": "command", "command": %q}, {"type": "command", "command": %q}]}]`,
		fmt.Sprintf(`head -c %d /dev/zero | tr '\0' '#' > "$CLAUDE_ENV_FILE"`, 1<<20+1),
		`echo 'export KEPT=yes' > "$CLAUDE_ENV_FILE"`))})
	e, _ := claudeEngine(t, root, nil)
	res := claudeRun(t, e, "SessionStart", `{"source":"startup"}`)
	if w := envWarning(res); !strings.Contains(w, "larger than 1 MiB") {
		t.Errorf("warning %q; messages %+v", w, res.SystemMessages)
	}
	if got := string(res.Output["env"]); got != `{"KEPT":"yes"}` {
		t.Errorf("env %s, want the second file's KEPT", got)
	}
}

func TestEnvFile_AResumedSessionReadsItsFilesOffTheQuickPath(t *testing.T) {
	// A session resumed with no SessionStart hook still reads the env files
	// of its earlier runs: that read must not happen where QuickRun runs
	// (the request reader), and a FIFO left there must not wedge Run.
	root := claudeFiles(t, nil)
	e, _ := claudeEngine(t, root, nil)
	dir := filepath.Join(root, "home", "session-env", "claude-test")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "sessionstart-hook-0.sh"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := e.QuickRun("SessionStart", []byte(`{"source":"resume"}`), ""); ok || err != nil {
		t.Fatalf("QuickRun answered a SessionStart (ok %v, err %v): it reads files", ok, err)
	}
	res := claudeRun(t, e, "SessionStart", `{"source":"resume"}`)
	if w := envWarning(res); !strings.Contains(w, "named pipe") {
		t.Errorf("warning %q; messages %+v", w, res.SystemMessages)
	}
}
