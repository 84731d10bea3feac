//go:build unix

package spill

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A spill root planted by someone else must never receive hook output nor
// have its content removed: the shared temp dir is in every local user's
// reach.

func TestCreate_RefusesASymlinkedSpillRoot(t *testing.T) {
	tmp := useTempDir(t)
	attacker := filepath.Join(tmp, "attacker")
	if err := os.Mkdir(attacker, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(attacker, filepath.Join(tmp, folderName)); err != nil {
		t.Fatal(err)
	}
	res, err := Limit("sess", strings.Repeat("x", 20000), 100)
	if !errors.Is(err, ErrUnsafeRoot) {
		t.Fatalf("Limit through a symlinked root: %v, want ErrUnsafeRoot", err)
	}
	if res.Path != "" || strings.Contains(res.Text, "saved to") {
		t.Errorf("preview names a file: %+v", res)
	}
	if entries, _ := os.ReadDir(attacker); len(entries) != 0 {
		t.Errorf("hook output reached the symlink's target: %v", entries)
	}
}

func TestRemove_NeverFollowsASymlinkedSpillRoot(t *testing.T) {
	tmp := useTempDir(t)
	victim := filepath.Join(tmp, "victim", "sess")
	if err := os.MkdirAll(victim, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(victim, "keep.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(victim), filepath.Join(tmp, folderName)); err != nil {
		t.Fatal(err)
	}
	if err := Remove("sess"); !errors.Is(err, ErrUnsafeRoot) {
		t.Errorf("Remove through a symlinked root: %v, want ErrUnsafeRoot", err)
	}
	if _, err := os.Stat(filepath.Join(victim, "keep.txt")); err != nil {
		t.Errorf("Remove followed the symlink: %v", err)
	}
}

func TestCreate_RefusesAForeignSpillRootWithoutStickyBit(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a folder to another user")
	}
	tmp := useTempDir(t)
	root := filepath.Join(tmp, folderName)
	if err := os.Mkdir(root, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(root, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	res, err := Limit("sess", strings.Repeat("x", 20000), 100)
	if !errors.Is(err, ErrUnsafeRoot) || !strings.Contains(err.Error(), "another user") {
		t.Fatalf("Limit in another user's 0777 root: %v, want ErrUnsafeRoot naming the owner", err)
	}
	if res.Path != "" {
		t.Errorf("spilled to %s", res.Path)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("session folder created in a foreign root: %v", entries)
	}
}

func TestCreate_OwnSpillRootWritableByOthersGetsTheStickyBit(t *testing.T) {
	tmp := useTempDir(t)
	root := filepath.Join(tmp, folderName)
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o777); err != nil {
		t.Fatal(err)
	}
	f, err := Create("sess")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, _ := os.Stat(root); fi.Mode()&os.ModeSticky == 0 {
		t.Errorf("root mode %v, want the sticky bit added", fi.Mode())
	}
	if filepath.Dir(f.Name()) != Dir("sess") {
		t.Errorf("spill file %s, want it in %s", f.Name(), Dir("sess"))
	}
}

func TestOpen_ReadsOnlyFilesOfTheSessionFolder(t *testing.T) {
	useTempDir(t)
	path, err := Save("sess", "whole text")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open("sess", path)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := Open("other", path); err == nil {
		t.Error("Open of another session's file succeeded")
	}
}
