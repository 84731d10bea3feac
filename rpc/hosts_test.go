package rpc

// The tests serve every host profile, as the hookd binary does (hosts.go in
// package main); rpc itself links none.
import (
	_ "github.com/hookd/hookd/hosts"
)
