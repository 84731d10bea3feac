package main

import "runtime/debug"

// version is empty unless set at build time with -ldflags "-X main.version=...",
// as the release build does; hookdVersion then falls back to build info.
var version string

// hookdVersion is what `hookd version` and initialize's serverInfo report:
// the -X value, else the module version the Go command stamped into the
// binary (v1.2.3 from `go install github.com/hookd/hookd@v1.2.3`, a
// pseudo-version from a git checkout), else "devel".
func hookdVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
