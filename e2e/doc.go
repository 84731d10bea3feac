// Package e2e holds hookd's end-to-end tests: black-box tests that build
// the hookd binary (TestMain) and drive it as hosts and users do, over real
// pipes and from the testscripts/ folder at the repository's root. The
// unit tests sit beside the code they test.
//
// Run them with go test ./e2e/; -tags chaos adds the chaos suite
// (chaos_test.go).
package e2e
