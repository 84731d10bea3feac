package nodedeps

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCurrent_InstallIsStaleWhenTheLockFileIsNewer(t *testing.T) {
	dir := t.TempDir()
	if current(dir) {
		t.Fatal("a folder with no lock file is current")
	}
	lock := filepath.Join(dir, "package-lock.json")
	hidden := filepath.Join(dir, "node_modules", ".package-lock.json")
	if err := os.WriteFile(lock, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if current(dir) {
		t.Fatal("no node_modules, yet current")
	}
	if err := os.MkdirAll(filepath.Dir(hidden), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hidden, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := os.Chtimes(lock, now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(hidden, now, now); err != nil {
		t.Fatal(err)
	}
	if !current(dir) {
		t.Fatal("installed from this lock file, yet not current")
	}
	later := now.Add(time.Minute)
	if err := os.Chtimes(lock, later, later); err != nil {
		t.Fatal(err)
	}
	if current(dir) {
		t.Fatal("the lock file changed after the install, yet current")
	}
}
