package cli

import (
	"bytes"
	"flag"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

var updateReference = flag.Bool("update", false, "rewrite the generated part of docs/cli.md")

// TestCLIReference_IsCurrent fails when docs/cli.md's reference is not what
// the command tree says: a flag, a command or a help text changed and the
// page did not.
func TestCLIReference_IsCurrent(t *testing.T) {
	t.Setenv("HOOKD_STRICT", "") // a default the environment sets
	sameHosts(t)
	page := filepath.Join("..", "..", "docs", "cli.md")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	head, _, found := strings.Cut(string(data), referenceMarker)
	if !found {
		t.Fatalf("%s has no generated part (the line %q)", page, referenceMarker)
	}
	var ref bytes.Buffer
	if err := writeReference(&ref, newRootCmd(&cmdIO{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})); err != nil {
		t.Fatal(err)
	}
	want := head + ref.String()
	if want == string(data) {
		return
	}
	if *updateReference {
		if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is stale: run `go test -run TestCLIReference -update ./internal/cli/` and commit it", page)
}

// sameHosts fails unless this package's tests link the hosts the binary
// links: the reference's profile table is made from them.
func sameHosts(t *testing.T) {
	t.Helper()
	imports := func(path string) []string {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		var list []string
		for _, im := range f.Imports {
			list = append(list, im.Path.Value)
		}
		sort.Strings(list)
		return list
	}
	binary, tests := imports(filepath.Join("..", "..", "hosts.go")), imports("hosts_test.go")
	if !slices.Equal(binary, tests) {
		t.Fatalf("hosts_test.go links %v, the binary (hosts.go) %v: link the same hosts", tests, binary)
	}
}
