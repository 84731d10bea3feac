package spill

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestRemoveStale_RemovesOnlyFoldersOfAGoneHookd(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	// A pid that is certainly gone: a process that ran and was reaped.
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	mine, err := Create("live-session")
	if err != nil {
		t.Fatal(err)
	}
	mine.Close()
	stale, err := Create("killed-session")
	if err != nil {
		t.Fatal(err)
	}
	stale.Close()
	if err := os.WriteFile(filepath.Join(Dir("killed-session"), ownerFile), []byte(strconv.Itoa(dead.Process.Pid)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A folder some other program made (Codex shares hook_outputs).
	if err := os.MkdirAll(Dir("codex-session"), 0o700); err != nil {
		t.Fatal(err)
	}

	n, err := RemoveStale()
	if err != nil || n != 1 {
		t.Fatalf("RemoveStale() = %d, %v; want 1 folder removed", n, err)
	}
	if _, err := os.Stat(Dir("killed-session")); !os.IsNotExist(err) {
		t.Errorf("the folder of a gone hookd is still there (%v)", err)
	}
	for _, keep := range []string{"live-session", "codex-session"} {
		if _, err := os.Stat(Dir(keep)); err != nil {
			t.Errorf("%s removed: %v", keep, err)
		}
	}
}
