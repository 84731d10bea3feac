package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile_ReadsARegularFileWithinTheBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(path, []byte(`{"hooks":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(path, 1<<20); err != nil || string(data) != `{"hooks":{}}` {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	if _, err := ReadFile(path, 4); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("file over the bound: %v", err)
	}
}

func TestReadFile_RefusesFoldersAndMissingFiles(t *testing.T) {
	dir := t.TempDir()
	if _, err := ReadFile(dir, 1<<20); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("folder: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 1<<20); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}
