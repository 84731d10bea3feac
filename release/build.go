package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Target is one platform hookd is built for.
type Target struct{ GOOS, GOARCH string }

// Targets are the platforms a release ships.
var Targets = []Target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// Node is the platform as Node spells it (process.platform-process.arch):
// the npm package's suffix and the Python build's platform name.
func (t Target) Node() string {
	os, arch := t.GOOS, t.GOARCH
	if os == "windows" {
		os = "win32"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return os + "-" + arch
}

// Exe is the binary's file name on the target.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return "hookd.exe"
	}
	return "hookd"
}

func lookupTarget(s string) (Target, bool) {
	for _, t := range Targets {
		if t.String() == s {
			return t, true
		}
	}
	return Target{}, false
}

// Options say what Build makes.
type Options struct {
	Repo    string // the repository root
	Version string
	Out     string
	Targets []Target
	NPM     bool
	Wheels  bool
}

// Artifact is one file Build wrote.
type Artifact struct {
	Path string
	Size int64
}

var versionRE = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$`)

// Build empties opts.Out and writes the binaries, archives, packages and
// checksums there; progress goes to log.
func Build(ctx context.Context, opts Options, log io.Writer) ([]Artifact, error) {
	opts.Version = strings.TrimPrefix(opts.Version, "v")
	if !versionRE.MatchString(opts.Version) {
		return nil, fmt.Errorf("version %q is not MAJOR.MINOR.PATCH[-PRERELEASE]", opts.Version)
	}
	repo, err := filepath.Abs(opts.Repo)
	if err != nil {
		return nil, err
	}
	out, err := filepath.Abs(opts.Out)
	if err != nil {
		return nil, err
	}
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	b := &builder{opts: opts, repo: repo, out: out, log: log}
	var files []string
	for _, t := range opts.Targets {
		bin, err := b.binary(ctx, t)
		if err != nil {
			return nil, err
		}
		archive, err := b.archive(t, bin)
		if err != nil {
			return nil, err
		}
		files = append(files, archive)
		if opts.Wheels {
			wheel, err := b.wheel(ctx, t, bin)
			if err != nil {
				return nil, err
			}
			files = append(files, wheel)
		}
	}
	if opts.NPM {
		tgzs, err := b.npm(ctx)
		if err != nil {
			return nil, err
		}
		files = append(files, tgzs...)
	}
	sums, err := checksums(out, files)
	if err != nil {
		return nil, err
	}
	var arts []Artifact
	for _, f := range append(files, sums) {
		st, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		arts = append(arts, Artifact{Path: f, Size: st.Size()})
	}
	return arts, nil
}

type builder struct {
	opts      Options
	repo, out string
	log       io.Writer
	bins      []built
}

type built struct {
	t   Target
	bin string
}

// binary cross-compiles hookd: static (no cgo), paths trimmed, the version
// stamped where `hookd version` and serverInfo read it.
func (b *builder) binary(ctx context.Context, t Target) (string, error) {
	bin := filepath.Join(b.out, "build", t.GOOS+"_"+t.GOARCH, t.Exe())
	fmt.Fprintf(b.log, "build %s\n", t)
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath",
		"-ldflags", "-s -w -X github.com/hookd/hookd/internal/version.Stamped="+b.opts.Version, "-o", bin, ".")
	cmd.Dir = b.repo
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+t.GOOS, "GOARCH="+t.GOARCH)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s: %w\n%s", t, err, out)
	}
	b.bins = append(b.bins, built{t, bin})
	return bin, nil
}

// archive packs the binary with LICENSE and README.md, as release archives
// of Go tools do: tar.gz, zip for Windows.
func (b *builder) archive(t Target, bin string) (string, error) {
	name := fmt.Sprintf("hookd_%s_%s_%s", b.opts.Version, t.GOOS, t.GOARCH)
	entries := []fileEntry{{t.Exe(), bin, 0o755}, {"LICENSE", filepath.Join(b.repo, "LICENSE"), 0o644}, {"README.md", filepath.Join(b.repo, "README.md"), 0o644}}
	if t.GOOS == "windows" {
		path := filepath.Join(b.out, name+".zip")
		return path, writeZip(path, entries)
	}
	path := filepath.Join(b.out, name+".tar.gz")
	return path, writeTarGz(path, entries)
}

// wheel writes the platform wheel with python/_build/hookd_build.py, the
// same code pip runs for `pip install ./python`.
func (b *builder) wheel(ctx context.Context, t Target, bin string) (string, error) {
	cmd := exec.CommandContext(ctx, "python3", filepath.Join(b.repo, "python", "_build", "hookd_build.py"),
		"--binary", bin, "--platform", t.Node(), "--version", b.opts.Version, "--out", filepath.Join(b.out, "python"))
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+sourceDate(ctx, b.repo))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("build the %s wheel: %w\n%s", t.Node(), err, stderr.String())
	}
	return strings.TrimSpace(string(out)), nil
}

// sourceDate is the last commit's time (reproducible archives), or now
// outside a git checkout.
func sourceDate(ctx context.Context, repo string) string {
	out, err := exec.CommandContext(ctx, "git", "-C", repo, "log", "-1", "--format=%ct").Output()
	if s := strings.TrimSpace(string(out)); err == nil && s != "" {
		return s
	}
	return fmt.Sprint(time.Now().Unix())
}

type fileEntry struct {
	name, src string
	mode      int64
}

var archiveTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func writeTarGz(path string, entries []fileEntry) error {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: e.mode, Size: int64(len(data)), ModTime: archiveTime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func writeZip(path string, entries []fileEntry) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: archiveTime}
		h.SetMode(os.FileMode(e.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// checksums writes checksums.txt (sha256sum's format, paths relative to
// out) and returns its path.
func checksums(out string, files []string) (string, error) {
	var lines []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		rel, err := filepath.Rel(out, f)
		if err != nil {
			return "", err
		}
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+filepath.ToSlash(rel))
	}
	sort.Strings(lines)
	path := filepath.Join(out, "checksums.txt")
	return path, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
