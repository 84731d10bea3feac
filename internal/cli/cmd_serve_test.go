package cli

import (
	"os"
	"testing"
)

func TestIsTerminal_PipesFilesAndTheNullDeviceAreNot(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, f := range map[string]*os.File{"pipe": r, "null device": null, "file": file} {
		if isTerminal(f) {
			t.Errorf("%s taken for a terminal: bare hookd would print its waiting line to a host", name)
		}
	}
}
