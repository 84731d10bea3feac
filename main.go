// Command hookd runs coding-agent lifecycle hooks for a host: as a JSON-RPC
// sidecar (hookd serve) or once from the command line (hookd run).
//
// The command line is internal/cli; hosts.go names the hosts this binary
// links.
package main

import (
	"os"

	"github.com/hookd/hookd/internal/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
