// Package docs holds hookd's documentation; its test keeps the links in
// every Markdown file of the repository working.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The repository root, seen from this package's folder.
const root = ".."

var (
	fenceRE   = regexp.MustCompile("^\\s*(```|~~~)")
	codeRE    = regexp.MustCompile("`+[^`]*`+")
	linkRE    = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	idRE      = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	schemeRE  = regexp.MustCompile(`^[a-z][a-z0-9+.-]*:`)
)

// markdownFiles lists the repository's Markdown files (not dependencies').
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && path != root)) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// prose returns the lines of a Markdown file outside code fences, with
// inline code removed: what a reader sees as text and links.
func prose(data string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(data, "\n") {
		if fenceRE.MatchString(line) {
			fenced = !fenced
			out = append(out, "")
			continue
		}
		if fenced {
			out = append(out, "")
			continue
		}
		out = append(out, line)
	}
	return out
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped, spaces to hyphens.
func slug(heading string) string {
	heading = strings.NewReplacer("`", "", "**", "", "*", "").Replace(heading)
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors lists the anchors of a Markdown file: its headings' slugs
// (repeats numbered as GitHub does) and explicit <a id> anchors.
func anchors(data string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(data) {
		if m := headingRE.FindStringSubmatch(line); m != nil {
			s := slug(m[2])
			if n := seen[s]; n > 0 {
				out[s+"-"+strconv.Itoa(n)] = true
			} else {
				out[s] = true
			}
			seen[s]++
		}
		for _, m := range idRE.FindAllStringSubmatch(line, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// TestLinks_EveryRelativeLinkAndAnchorResolves: each relative link of every
// Markdown file names a file or folder inside the repository, and each
// #anchor a heading of its target.
func TestLinks_EveryRelativeLinkAndAnchorResolves(t *testing.T) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	cache := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := cache[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cache[path] = anchors(string(data))
		return cache[path]
	}
	checked := 0
	for _, file := range markdownFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range prose(string(data)) {
			line = codeRE.ReplaceAllString(line, "")
			for _, m := range linkRE.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if schemeRE.MatchString(target) {
					continue
				}
				checked++
				where := file + ":" + strconv.Itoa(i+1)
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					abs, err := filepath.Abs(dest)
					if err != nil {
						t.Fatal(err)
					}
					if rel, err := filepath.Rel(absRoot, abs); err != nil || strings.HasPrefix(rel, "..") {
						t.Errorf("%s: %s points outside the repository", where, target)
						continue
					}
					if _, err := os.Stat(dest); err != nil {
						t.Errorf("%s: %s: no such file or folder", where, target)
						continue
					}
				}
				if anchor == "" {
					continue
				}
				if !strings.HasSuffix(dest, ".md") {
					t.Errorf("%s: %s: an anchor into a file that is not Markdown", where, target)
					continue
				}
				if !anchorsOf(dest)[anchor] {
					t.Errorf("%s: %s: %s has no heading with anchor #%s", where, target, dest, anchor)
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("checked only %d relative links: is the link pattern still right?", checked)
	}
}

// TestIndex_ListsEveryPage: docs/README.md, the index the README links to,
// links every page in docs/, so that a new page is found.
func TestIndex_ListsEveryPage(t *testing.T) {
	index, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var linked []string
	for _, m := range linkRE.FindAllStringSubmatch(string(index), -1) {
		path, _, _ := strings.Cut(m[1], "#")
		linked = append(linked, path)
	}
	pages, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if p != "README.md" && !slices.Contains(linked, p) {
			t.Errorf("docs/README.md does not link %s: add it to the index", p)
		}
	}
}

// TestDocs_CiteNothingOutsideTheRepository: the docs are read on their own
// (on GitHub, in a package): no file of the team's shared folder or its
// source documents is named.
func TestDocs_CiteNothingOutsideTheRepository(t *testing.T) {
	outside := regexp.MustCompile(`\b(PROTOCOL|SEMANTICS|STYLE)\.md\b|\breference/[a-z-]+\.md|\bshared/|\bspec ?/?0\d\d\b|\bspec/`)
	for _, file := range markdownFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q, which is not in the repository", file, i+1, m)
			}
		}
	}
}

// TestSlug follows GitHub's anchors for the headings these docs use.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Testing your plugin's hooks":  "testing-your-plugins-hooks",
		"Profile: mind":                "profile-mind",
		"Hosts: Node, Python and Go":   "hosts-node-python-and-go",
		"`hookd test` in CI (GitHub)":  "hookd-test-in-ci-github",
		"Install":                      "install",
		"Semantics: the codex profile": "semantics-the-codex-profile",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
