package rpc

// The tests serve every host profile, as the hookd binary does (hosts.go in
// package main); rpc itself links none.
import (
	_ "github.com/hookd/hookd/hooks/claude"
	_ "github.com/hookd/hookd/hooks/codex"
	_ "github.com/hookd/hookd/hooks/mind"
	_ "github.com/hookd/hookd/hooks/mirri"
	_ "github.com/hookd/hookd/hooks/soong"
)
