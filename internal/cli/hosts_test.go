package cli

// The tests run every host profile, as the hookd binary does (hosts.go at
// the repository's root); the command line itself links none.
import (
	_ "github.com/hookd/hookd/hosts"
)
