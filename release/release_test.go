package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"
)

// The release is built once for the whole package (every target, npm
// packages, wheels) and each test checks one thing a user of it relies on.
// Without npm or python3 those parts are left out and their tests skip,
// saying why; with CI=true they fail instead.

var (
	distOnce sync.Once
	distDir  string
	distArts []Artifact
	distErr  error
)

const testVersion = "0.1.0"

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{distDir, modDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

func inCI() bool { return os.Getenv("CI") == "true" }

func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if inCI() {
		t.Fatalf("CI=true, so this must run: "+format, args...)
	}
	t.Skipf(format, args...)
}

func have(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

// dist builds the release into a temporary folder once and returns it.
func dist(t *testing.T) string {
	t.Helper()
	distOnce.Do(func() {
		distDir, distErr = os.MkdirTemp("", "hookd-release-")
		if distErr != nil {
			return
		}
		var log bytes.Buffer
		distArts, distErr = Build(context.Background(), Options{
			Repo: "..", Version: testVersion, Out: distDir, Targets: Targets,
			NPM: have("npm"), Wheels: have("python3"),
		}, &log)
		if distErr != nil {
			distErr = fmt.Errorf("%w\n%s", distErr, log.String())
		}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distDir
}

// hostTarget is the release target this machine runs, if it is one.
func hostTarget(t *testing.T) Target {
	t.Helper()
	tg, ok := lookupTarget(runtime.GOOS + "/" + runtime.GOARCH)
	if !ok {
		t.Skipf("no release target for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return tg
}

// TestBuild_EveryTargetIsABinaryForItsPlatform opens each archive and reads
// the binary's header: the right executable format and CPU, so a platform
// that fails to build (or builds for the wrong one) fails here.
func TestBuild_EveryTargetIsABinaryForItsPlatform(t *testing.T) {
	out := dist(t)
	for _, tg := range Targets {
		t.Run(tg.GOOS+"_"+tg.GOARCH, func(t *testing.T) {
			name := fmt.Sprintf("hookd_%s_%s_%s", testVersion, tg.GOOS, tg.GOARCH)
			files := readArchive(t, filepath.Join(out, name))
			for _, want := range []string{tg.Exe(), "LICENSE", "README.md"} {
				if _, ok := files[want]; !ok {
					t.Errorf("%s lacks %s (has %v)", name, want, keys(files))
				}
			}
			checkExecutable(t, tg, files[tg.Exe()])
		})
	}
}

func readArchive(t *testing.T, base string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if data, err := os.ReadFile(base + ".zip"); err == nil {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			files[f.Name], err = io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		return files
	}
	f, err := os.Open(base + ".tar.gz")
	if err != nil {
		t.Fatalf("no archive %s.zip or .tar.gz: %v", base, err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Mode&0o111 == 0 && strings.HasPrefix(h.Name, "hookd") {
			t.Errorf("%s is not executable in the archive (mode %o)", h.Name, h.Mode)
		}
		if files[h.Name], err = io.ReadAll(tr); err != nil {
			t.Fatal(err)
		}
	}
}

func checkExecutable(t *testing.T, tg Target, bin []byte) {
	t.Helper()
	r := bytes.NewReader(bin)
	switch tg.GOOS {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			t.Fatalf("not an ELF file: %v", err)
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[tg.GOARCH]
		if f.Machine != want || f.Type != elf.ET_EXEC {
			t.Errorf("ELF machine %v type %v, want %v ET_EXEC", f.Machine, f.Type, want)
		}
		if f.Section(".interp") != nil {
			t.Error("the binary asks for a dynamic loader: it must be static (CGO_ENABLED=0)")
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			t.Fatalf("not a Mach-O file: %v", err)
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[tg.GOARCH]
		if f.Cpu != want {
			t.Errorf("Mach-O CPU %v, want %v", f.Cpu, want)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			t.Fatalf("not a PE file: %v", err)
		}
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[tg.GOARCH]
		if f.Machine != want {
			t.Errorf("PE machine %#x, want %#x", f.Machine, want)
		}
	}
}

// TestBuild_ChecksumsCoverEveryArtifact: checksums.txt lists every file the
// release made, with its sha256.
func TestBuild_ChecksumsCoverEveryArtifact(t *testing.T) {
	out := dist(t)
	data, err := os.ReadFile(filepath.Join(out, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			t.Fatalf("checksums.txt line %q is not `SHA256  NAME`", line)
		}
		sums[name] = sum
	}
	for _, a := range distArts {
		rel, _ := filepath.Rel(out, a.Path)
		t.Logf("%10d  %s", a.Size, rel)
		if rel == "checksums.txt" {
			continue
		}
		content, err := os.ReadFile(a.Path)
		if err != nil {
			t.Fatal(err)
		}
		got := sha256.Sum256(content)
		if sums[rel] != hex.EncodeToString(got[:]) {
			t.Errorf("%s: checksums.txt says %q, the file hashes to %x", rel, sums[rel], got)
		}
		delete(sums, rel)
	}
	if len(sums) != 0 {
		t.Errorf("checksums.txt lists files the release did not make: %v", keys(sums))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// pathWithout returns a PATH holding only the folders of these programs,
// and fails if hookd can be found on it: the smoke tests must get hookd
// from the package they install.
func pathWithout(t *testing.T, programs ...string) string {
	t.Helper()
	var dirs []string
	for _, p := range programs {
		abs, err := exec.LookPath(p)
		if err != nil {
			missing(t, "%s not found on PATH: %v", p, err)
		}
		dirs = append(dirs, filepath.Dir(abs))
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "hookd")); err == nil {
			t.Fatalf("%s has a hookd: the package's own binary must be the one found", d)
		}
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}

// run runs a program and returns its stdout; it fails the test with both
// streams when the program fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func decode(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("output is not the JSON expected: %v\n%s", err, out)
	}
}
