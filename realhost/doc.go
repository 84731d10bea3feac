//go:build realhost

// Package realhost checks hookd's codex and claude profiles against the real
// hosts: Codex CLI and Claude Code, installed from the npm registry into a
// cache folder outside the repository, driven offline against a local server
// that scripts the model's turns. Every case runs the same hooks under the
// real host and under hookd and records what each hook received and what
// reached the model; the test prints one table per profile (behaviour, real
// host, hookd) and writes it to $REALHOST_TABLE when set.
//
// It is opt-in (the two CLIs take about 750 MB) and not part of .ci/run:
//
//	go test -tags realhost ./realhost/ -v
//
// docs/real-hosts.md says how to run it and what it found.
package realhost
