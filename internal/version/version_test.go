package version

import (
	"os"
	"regexp"
	"testing"

	"github.com/tidwall/gjson"
)

// TestSource_OneVersionPerCheckout holds the other places that name this
// checkout's version to Source: the npm package's package.json and lock
// file, and the line the Python build backend reads.
func TestSource_OneVersionPerCheckout(t *testing.T) {
	for _, f := range []struct{ file, path string }{
		{"../../node/package.json", "version"},
		{"../../node/package-lock.json", "version"},
	} {
		data, err := os.ReadFile(f.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(data, f.path).String(); got != Source {
			t.Errorf("%s %s = %q, want %q (internal/version.Source)", f.file, f.path, got, Source)
		}
	}
	lock, err := os.ReadFile("../../node/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(lock, "packages").Map()[""].Get("version").String(); got != Source {
		t.Errorf("node/package-lock.json's root package version = %q, want %q", got, Source)
	}
	src, err := os.ReadFile("version.go")
	if err != nil {
		t.Fatal(err)
	}
	// The pattern python/_build/hookd_build.py's source_version uses.
	m := regexp.MustCompile(`(?m)^const Source = "([^"]+)"$`).FindSubmatch(src)
	if m == nil || string(m[1]) != Source {
		t.Errorf("the Python build backend cannot read Source from version.go (got %q)", m)
	}
}

func TestPseudoVersion_IsNotAReleaseVersion(t *testing.T) {
	for v, want := range map[string]bool{
		"v0.0.0-20261201120000-abcdef123456":         true,
		"v0.1.1-0.20261201120000-abcdef123456+dirty": true,
		"v0.1.0":      false,
		"v0.2.0-rc.1": false,
	} {
		if got := pseudo.MatchString(v); got != want {
			t.Errorf("pseudo(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestString_WithoutStampIsSource(t *testing.T) {
	// A test binary's build info has no module version: Source it is.
	if got := String(); got != Source {
		t.Errorf("String() = %q, want %q", got, Source)
	}
	Stamped = "9.9.9"
	defer func() { Stamped = "" }()
	if got := String(); got != "9.9.9" {
		t.Errorf("stamped String() = %q", got)
	}
}
