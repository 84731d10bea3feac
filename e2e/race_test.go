//go:build race

package e2e

// raceEnabled: the tests run with -race, so the hookd they build does too.
const raceEnabled = true
