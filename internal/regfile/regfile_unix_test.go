//go:build unix

package regfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestOpen_AFIFOIsRefusedWithoutWaitingForAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// A plain open would wait here for a writer that never comes.
	if _, err := Open(path); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("Open(FIFO) = %v, want ErrNotRegular", err)
	}
}

func TestOpenAppend_RefusesAFIFOWithOrWithoutAReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	// No reader: a plain open for writing would wait for one for ever.
	if _, err := OpenAppend(path, 0o600); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("OpenAppend(FIFO) = %v, want ErrNotRegular", err)
	}
	// With a reader the open succeeds; the check after it refuses.
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := OpenAppend(path, 0o600); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("OpenAppend(FIFO with a reader) = %v, want ErrNotRegular", err)
	}
}

func TestReadFile_ALinkToDevZeroIsRefusedBeforeAByteIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "env.sh")
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "device") {
		t.Fatalf("ReadFile(/dev/zero) = %v, want ErrNotRegular naming the device", err)
	}
}

func TestOpenAppend_CreatesAndAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.jsonl")
	for _, line := range []string{"a\n", "b\n"} {
		f, err := OpenAppend(path, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	if data, err := os.ReadFile(path); err != nil || string(data) != "a\nb\n" {
		t.Fatalf("file %q, %v", data, err)
	}
}
