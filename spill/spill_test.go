package spill

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// useTempDir points os.TempDir at a fresh folder for the test.
func useTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	return dir
}

func TestTokens_CeilOfBytesOverFour(t *testing.T) {
	for n, want := range map[int64]int64{0: 0, 1: 1, 4: 1, 5: 2, 8: 2, 12000: 3000, 10001: 2501} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %d, want %d", n, got, want)
		}
	}
	// Bytes, not characters: one emoji is four bytes.
	if got := Tokens(int64(len("😀😀"))); got != 2 {
		t.Errorf("Tokens(two emoji) = %d, want 2", got)
	}
}

func TestPreview_CodexWorkedExampleByteForByte(t *testing.T) {
	// reference/codex-hooks.md 2.9: "hook output " × 1000 with the default
	// limit and a 95-byte path.
	text := strings.Repeat("hook output ", 1000)
	path := "/tmp/hook_outputs/" + strings.Repeat("s", 36) + "/" + strings.Repeat("f", 36) + ".txt"
	if len(path) != 95 {
		t.Fatalf("path is %d bytes", len(path))
	}
	got, err := Preview(strings.NewReader(text), int64(len(text)), DefaultLimit, path)
	if err != nil {
		t.Fatal(err)
	}
	// Footer 124 bytes = 31 tokens; body budget 2469 tokens = 9876 bytes;
	// head 4938 bytes, tail 4938 bytes, (12000-9876)/4 = 531 tokens cut.
	want := "Warning: truncated output (original token count: 3000)\nTotal output lines: 1\n\n" +
		strings.Repeat("hook output ", 411) + "hook o" +
		"…531 tokens truncated…" +
		"utput " + strings.Repeat("hook output ", 411) +
		"\n\nFull hook output saved to: " + path
	if got != want {
		t.Fatalf("preview differs from the worked example\n got %q…%q\nwant %q…%q", got[:120], got[len(got)-160:], want[:120], want[len(want)-160:])
	}
}

func TestPreview_CutsOnlyAtCharacterBoundaries(t *testing.T) {
	// Codex's truncation vector: a budget of 8 tokens (32 bytes) over 63
	// bytes keeps four whole emoji and the last 16 bytes.
	text := "😀😀😀😀😀😀😀😀😀😀\nsecond line with text\n"
	got, err := Preview(strings.NewReader(text), int64(len(text)), 8, "")
	if err != nil {
		t.Fatal(err)
	}
	want := "Warning: truncated output (original token count: 16)\nTotal output lines: 2\n\n" +
		"😀😀😀😀…8 tokens truncated… line with text\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	// A head cut in the middle of a three-byte character drops it; a tail
	// that starts inside one skips to the next character.
	text = strings.Repeat("€", 10) // 30 bytes
	got, err = Preview(strings.NewReader(text), int64(len(text)), 2, "")
	if err != nil {
		t.Fatal(err)
	}
	// B = 8: head 4 bytes → one "€" (3 bytes); tail 4 bytes → one "€".
	want = "Warning: truncated output (original token count: 8)\nTotal output lines: 1\n\n€…6 tokens truncated…€"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestPreview_ZeroBudgetKeepsOnlyTheMarker(t *testing.T) {
	got, err := Preview(strings.NewReader("abcdef"), 6, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Warning: truncated output (original token count: 2)\nTotal output lines: 1\n\n…2 tokens truncated…"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A limit smaller than the footer leaves no body, not a negative one.
	got, err = Preview(strings.NewReader("abcdef"), 6, 1, "/p")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(got, "\n\n…2 tokens truncated…\n\nFull hook output saved to: /p") {
		t.Errorf("tiny limit: %q", got)
	}
}

func TestCountLines_AsRustStrLines(t *testing.T) {
	for text, want := range map[string]int64{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n": 1, "a\r\nb\r\n": 2, "\n\n": 2} {
		got, err := countLines(strings.NewReader(text), int64(len(text)))
		if err != nil || got != want {
			t.Errorf("countLines(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
}

func TestLimit_ShortTextStaysInlineAndCreatesNoFolder(t *testing.T) {
	tmp := useTempDir(t)
	// Limits 0 (never) and the largest int keep even a long text inline.
	for _, limit := range []int{0, math.MaxInt} {
		got, err := Limit("s1", strings.Repeat("x", 12000), limit)
		if err != nil || got.Text != strings.Repeat("x", 12000) || got.Path != "" || got.Bytes != 0 {
			t.Errorf("limit %d: %+v, %v; want the text unchanged", limit, got.Path, err)
		}
	}
	got, err := Limit("s1", "short output", DefaultLimit)
	if err != nil || got.Text != "short output" || got.Path != "" {
		t.Errorf("short text: %+v, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "hook_outputs")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a short text created the spill folder: %v", err)
	}
}

func TestLimit_LongTextIsWrittenWholeAndPreviewed(t *testing.T) {
	tmp := useTempDir(t)
	text := strings.Repeat("hook output ", 1000)
	got, err := Limit("sess-a", text, DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "hook_outputs", "sess-a")
	if filepath.Dir(got.Path) != dir || !strings.HasSuffix(got.Path, ".txt") || len(filepath.Base(got.Path)) != 40 {
		t.Errorf("spill path %q, want %s/<uuid>.txt", got.Path, dir)
	}
	if got.Bytes != 12000 {
		t.Errorf("Bytes = %d, want 12000", got.Bytes)
	}
	data, err := os.ReadFile(got.Path)
	if err != nil || string(data) != text {
		t.Fatalf("spill file does not hold the whole text: %d bytes, %v", len(data), err)
	}
	want, _ := Preview(strings.NewReader(text), 12000, DefaultLimit, got.Path)
	if got.Text != want || !strings.Contains(got.Text, "tokens truncated") {
		t.Errorf("Limit's text is not the preview of its file")
	}
	if fi, _ := os.Stat(got.Path); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", fi.Mode().Perm())
	}
	// A limit of 1 token spills any text longer than 4 bytes.
	if got, _ := Limit("sess-a", "hello", 1); got.Path == "" {
		t.Error("limit 1 did not spill a 5-byte text")
	}
}

func TestLimit_UnwritableFolderStillCutsWithoutFooter(t *testing.T) {
	// TMPDIR is a file: no folder can be made under it.
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", file)
	text := strings.Repeat("hook output ", 1000)
	got, err := Limit("s", text, DefaultLimit)
	if err == nil {
		t.Error("no error for an unwritable spill folder")
	}
	want, _ := Preview(strings.NewReader(text), 12000, DefaultLimit, "")
	if got.Path != "" || got.Text != want || strings.Contains(got.Text, "Full hook output saved to") || got.Bytes != 12000 {
		t.Errorf("unwritable: path %q, bytes %d, text %q…", got.Path, got.Bytes, got.Text[:80])
	}
	// The whole limit goes to the body: 10000 bytes instead of 9876.
	if !strings.Contains(got.Text, "…500 tokens truncated…") {
		t.Errorf("body budget is not the whole limit: %q", got.Text[len(got.Text)-5100:len(got.Text)-4980])
	}
}

func TestDir_SessionIDNeverEscapesTheSpillRoot(t *testing.T) {
	tmp := useTempDir(t)
	root := filepath.Join(tmp, "hook_outputs")
	seen := map[string]bool{}
	for _, id := range []string{"", ".", "..", "../../etc", "a/b", `a\b`, "/abs", "x\x00y", strings.Repeat("z", 300)} {
		d := Dir(id)
		if filepath.Dir(d) != root || seen[d] {
			t.Errorf("Dir(%q) = %q: not its own folder directly under %s", id, d, root)
		}
		seen[d] = true
	}
	if Dir("sess_01") != filepath.Join(root, "sess_01") {
		t.Errorf("a plain id is used as is: %q", Dir("sess_01"))
	}
}

func TestCreate_RefusesAFolderPlantedAsSymlink(t *testing.T) {
	tmp := useTempDir(t)
	target := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tmp, "hook_outputs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(tmp, "hook_outputs", "victim")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	if f, err := Create("victim"); err == nil {
		f.Close()
		t.Fatal("Create wrote into a symlinked spill folder")
	}
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("files appeared in the symlink target: %v", entries)
	}
	// Remove deletes the link, never what it points to.
	if err := Remove("victim"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("Remove followed the symlink: %v", err)
	}
}

func TestRemove_DeletesTheSessionFolderOnly(t *testing.T) {
	useTempDir(t)
	a, _ := Limit("a", strings.Repeat("x", 20000), 10)
	b, _ := Limit("b", strings.Repeat("y", 20000), 10)
	if a.Path == "" || b.Path == "" {
		t.Fatal("nothing spilled")
	}
	if err := Remove("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Dir("a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("session a's folder survived: %v", err)
	}
	if _, err := os.Stat(b.Path); err != nil {
		t.Errorf("session b's file was removed: %v", err)
	}
	if err := Remove("never-existed"); err != nil {
		t.Errorf("Remove of a missing folder: %v", err)
	}
}
