// Package version says which hookd a binary is. One checkout has one
// version: Source below. The release build stamps its own (-X Stamped=...),
// the npm package's package.json and the wheel's metadata carry the same
// string (the wheel spelled as Python spells it), and a test holds them
// together.
package version

import (
	"regexp"
	"runtime/debug"
)

// Source is the version of this source tree: the next release, with -dev
// while it is in development. Bump it here; node/package.json follows it
// (a test says when it does not), and the Python build backend reads it from
// this line.
const Source = "0.1.0-dev"

// Stamped is set by the release build with
// -ldflags "-X github.com/hookd/hookd/internal/version.Stamped=1.2.3".
var Stamped string

// pseudo matches a Go pseudo-version (v0.0.0-20261201120000-abcdef123456,
// v1.2.4-0.20261201120000-abcdef123456): what the go command stamps for an
// untagged commit.
var pseudo = regexp.MustCompile(`\d{14}-[0-9a-f]{12}(\+.*)?$`)

// String is what `hookd version` and initialize's serverInfo report: the
// release's stamped version; else a tagged module version from build info
// (v1.2.3 from `go install github.com/hookd/hookd@v1.2.3`); else Source, so
// that `go install .`, `go run ./release` and `pip install ./python` from one
// checkout all say the same.
func String() string {
	if Stamped != "" {
		return Stamped
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" && !pseudo.MatchString(v) {
			return v
		}
	}
	return Source
}
