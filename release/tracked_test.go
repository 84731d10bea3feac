package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTrackedSize is the largest file the repository may track outside
// fixtures/: everything git tracks goes into the module zip that every
// `go install github.com/hookd/hookd@version` downloads.
const maxTrackedSize = 1 << 20

// executableMagic is the first bytes of a compiled program for each target
// the release builds: ELF, Mach-O (32/64-bit, both byte orders, universal)
// and PE.
var executableMagic = [][]byte{
	[]byte("\x7fELF"),
	{0xfe, 0xed, 0xfa, 0xce}, {0xfe, 0xed, 0xfa, 0xcf},
	{0xce, 0xfa, 0xed, 0xfe}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
	[]byte("MZ"),
}

func isCompiledExecutable(head []byte) bool {
	for _, m := range executableMagic {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return false
}

// TestTrackedFiles_NoBuiltBinaryOrLargeFile keeps built programs and large
// files out of the repository (and so out of the module zip): a `go build`
// at the root writes ./hookd, which .gitignore ignores, and a tracked copy
// goes stale and rides along with every install.
func TestTrackedFiles_NoBuiltBinaryOrLargeFile(t *testing.T) {
	if !have("git") {
		missing(t, "git not found: it lists the tracked files")
	}
	out, err := exec.CommandContext(t.Context(), "git", "-C", "..", "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	checked := 0
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if name == "" || strings.HasPrefix(name, "fixtures/") {
			continue
		}
		path := filepath.Join("..", filepath.FromSlash(name))
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink
		}
		checked++
		if fi.Size() > maxTrackedSize {
			t.Errorf("%s is tracked and %d bytes (over %d): keep large files out of the repository", name, fi.Size(), maxTrackedSize)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 4)
		n, _ := io.ReadFull(f, head)
		f.Close()
		if isCompiledExecutable(head[:n]) {
			t.Errorf("%s is a tracked compiled program: `git rm --cached %s` (builds belong in dist/ or .gitignore)", name, name)
		}
	}
	if checked == 0 {
		t.Fatal("no tracked file was checked")
	}
}

func TestIsCompiledExecutable_KnowsEachTarget(t *testing.T) {
	for _, target := range []string{"\x7fELF\x02", "\xcf\xfa\xed\xfe", "MZ\x90\x00"} {
		if !isCompiledExecutable([]byte(target)) {
			t.Errorf("%q not seen as a program", target)
		}
	}
	for _, text := range []string{"#!/b", "pack", "{\n  ", "M"} {
		if isCompiledExecutable([]byte(text)) {
			t.Errorf("%q seen as a program", text)
		}
	}
}
