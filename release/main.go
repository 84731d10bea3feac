// Command release builds hookd for every platform it ships on and packages
// each build the ways hosts install it:
//
//	dist/hookd_VERSION_GOOS_GOARCH.tar.gz (.zip for windows)  binary, LICENSE, README.md
//	dist/npm/hookd-hookd-VERSION.tgz                           @hookd/hookd: the Node client
//	dist/npm/hookd-PLATFORM-VERSION.tgz                        @hookd/PLATFORM: the binary (os, cpu)
//	dist/python/hookd-VERSION-py3-none-TAG.whl                  a platform wheel: binary + Python clients
//	dist/checksums.txt                                          sha256 of everything above
//
// Run it from the repository root:
//
//	go run ./release -version 0.1.0 -out dist
//
// The platforms are linux, darwin and windows on amd64 and arm64. The npm
// packages need npm, the wheels python3 (3.11 or newer); -npm=false and
// -wheels=false leave them out. Nothing is published: a maintainer uploads
// dist/ (docs/releasing.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/hookd/hookd/internal/version"
)

func main() {
	opts := Options{Repo: "."}
	targets := flag.String("targets", "all", "comma-separated GOOS/GOARCH list, or all")
	flag.StringVar(&opts.Version, "version", version.Source, "release version, MAJOR.MINOR.PATCH[-PRERELEASE] (default: this checkout's)")
	flag.StringVar(&opts.Out, "out", "dist", "output folder (emptied first)")
	flag.BoolVar(&opts.NPM, "npm", true, "assemble and pack the npm packages")
	flag.BoolVar(&opts.Wheels, "wheels", true, "build the Python wheels")
	flag.Parse()
	var err error
	if opts.Targets, err = ParseTargets(*targets); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	arts, err := Build(ctx, opts, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
	for _, a := range arts {
		fmt.Printf("%10d  %s\n", a.Size, a.Path)
	}
}

// ParseTargets reads "all" or a comma-separated GOOS/GOARCH list.
func ParseTargets(s string) ([]Target, error) {
	if s == "all" {
		return Targets, nil
	}
	var out []Target
	for _, f := range strings.Split(s, ",") {
		t, ok := lookupTarget(strings.TrimSpace(f))
		if !ok {
			return nil, fmt.Errorf("unknown target %q: want all or some of %v", f, Targets)
		}
		out = append(out, t)
	}
	return out, nil
}
