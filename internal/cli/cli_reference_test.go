package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"strings"
	"testing"
)

var updateReference = flag.Bool("update", false, "rewrite the generated part of docs/cli.md")

// TestCLIReference_IsCurrent fails when docs/cli.md's reference is not what
// the command tree says: a flag, a command or a help text changed and the
// page did not.
func TestCLIReference_IsCurrent(t *testing.T) {
	t.Setenv("HOOKD_STRICT", "") // a default the environment sets
	const page = "docs/cli.md"
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
	t.Errorf("%s is stale: run `go test -run TestCLIReference -update .` and commit it", page)
}
