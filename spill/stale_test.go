package spill

import (
	"os"
	"os/exec"
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
	if err := os.WriteFile(Dir("killed-session")+ownerSuffix, []byte(strconv.Itoa(dead.Process.Pid)+"\n"), 0o600); err != nil {
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
	for _, gone := range []string{Dir("killed-session"), Dir("killed-session") + ownerSuffix} {
		if _, err := os.Stat(gone); !os.IsNotExist(err) {
			t.Errorf("%s of a gone hookd is still there (%v)", gone, err)
		}
	}
	for _, keep := range []string{"live-session", "codex-session"} {
		if _, err := os.Stat(Dir(keep)); err != nil {
			t.Errorf("%s removed: %v", keep, err)
		}
	}
}
