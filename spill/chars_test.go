package spill

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCharLimit_TextWithinMaxIsKeptWhole(t *testing.T) {
	c := CharLimit{Max: 10, Head: 4}
	// Ten characters of twenty bytes: the limit counts characters.
	text := strings.Repeat("é", 10)
	got, err := c.Limit("chars-within", text)
	if err != nil || got.Text != text || got.Path != "" || got.Bytes != 0 {
		t.Fatalf("got %+v, %v; want the text unchanged", got, err)
	}
}

func TestCharLimit_LongerTextIsSpilledWithAShortPreview(t *testing.T) {
	session := "chars-spill-" + filepath.Base(t.TempDir())
	t.Cleanup(func() { Remove(session) })
	c := CharLimit{Max: 10, Head: 4}
	text := "héllo\nwörld\nthe end"
	got, err := c.Limit(session, text)
	if err != nil {
		t.Fatal(err)
	}
	if got.Path == "" || got.Bytes != int64(len(text)) {
		t.Fatalf("not spilled: %+v", got)
	}
	whole, err := os.ReadFile(got.Path)
	if err != nil || string(whole) != text {
		t.Fatalf("spill file holds %q, %v", whole, err)
	}
	n := utf8.RuneCountInString(text)
	want := "héll\n\n…" + itoa(n-4) + " more characters truncated (" + itoa(n) + " characters, 3 lines in all)…" +
		"\n\nFull hook output saved to: " + got.Path
	if got.Text != want {
		t.Fatalf("preview\n%q\nwant\n%q", got.Text, want)
	}
}

func TestCharLimit_PreviewWithoutFileHasNoPath(t *testing.T) {
	c := CharLimit{Max: 1, Head: 2}
	p, err := c.Preview(strings.NewReader("abc\n"), 4, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "ab\n\n…2 more characters truncated (4 characters, 1 lines in all)…"; p != want {
		t.Fatalf("got %q, want %q", p, want)
	}
}

func TestCharLimit_CountsCharactersAcrossReadBoundaries(t *testing.T) {
	// More than one 64 KiB read, with multi-byte characters straddling the
	// boundaries.
	text := strings.Repeat("€x", 50_000)
	chars, lines, err := countChars(strings.NewReader(text), int64(len(text)))
	if err != nil || chars != 100_000 || lines != 1 {
		t.Fatalf("chars %d lines %d err %v; want 100000, 1", chars, lines, err)
	}
}

func TestCharLimit_ZeroMaxNeverSpills(t *testing.T) {
	got, err := CharLimit{}.Limit("chars-zero", strings.Repeat("x", 100_000))
	if err != nil || got.Path != "" || len(got.Text) != 100_000 {
		t.Fatalf("got path %q len %d, %v", got.Path, len(got.Text), err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
