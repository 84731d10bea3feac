package e2e

// The hosts the binary under test links (hosts.go at the repository's
// root). These tests only run that binary; importing its hosts here too
// makes go test's cache run them again when a host package changes (the
// cache cannot see into the go build of TestMain).
import (
	_ "github.com/hookd/hookd/hosts"
)
