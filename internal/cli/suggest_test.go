package main

import (
	"os"
	"testing"
)

func TestDidYouMean_NamesTheNearestKnownName(t *testing.T) {
	known := []string{"list", "run", "serve", "test", "trust", "PreToolUse", "PostToolUse", "--input", "--home"}
	cases := []struct{ got, want string }{
		{"lsit", ` (did you mean "list"?)`},
		{"PreToolUSE", ` (did you mean "PreToolUse"?)`},
		{"pretooluse", ` (did you mean "PreToolUse"?)`},
		{"--inptu", ` (did you mean "--input"?)`},
		{"tset", ` (did you mean "test"?)`},
		{"list", ""},
		{"deploy", ""},
		{"x", ""},
	}
	for _, c := range cases {
		if got := didYouMean(c.got, known); got != c.want {
			t.Errorf("didYouMean(%q) = %q, want %q", c.got, got, c.want)
		}
	}
}

func TestJSONErrorPosition_PointsAtTheBadByte(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": 1,, }`, " (line 1, column 9: "},
		{"{\n  \"a\": 1\n  ]\n}", " (line 3, column 3: "},
		{`{"a": 1}`, ""},
	}
	for _, c := range cases {
		got := jsonErrorPosition([]byte(c.in))
		if len(got) < len(c.want) || got[:len(c.want)] != c.want {
			t.Errorf("jsonErrorPosition(%q) = %q, want it to start with %q", c.in, got, c.want)
		}
	}
}

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
