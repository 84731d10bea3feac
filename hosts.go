package main

// The hosts hookd serves: every profile the hosts package links (one line a
// host, in hosts/hosts.go).
import _ "github.com/hookd/hookd/hosts"
