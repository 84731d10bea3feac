// Package suggest finds the name a user probably meant: a command, a flag,
// an event, a tool in a matcher.
package suggest

import (
	"fmt"
	"strings"
)

// Nearest is the known name nearest to got: one that differs only in case,
// else the closest one or two edits away (fewer edits than got has
// characters). ok is false when got is known or nothing is near.
func Nearest(got string, known []string) (name string, ok bool) {
	best, bestD := "", 3
	for _, k := range known {
		if k == got {
			return "", false
		}
		if strings.EqualFold(k, got) {
			return k, true
		}
		if d := Distance(strings.ToLower(got), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD >= len(got) {
		return "", false
	}
	return best, true
}

// DidYouMean is ` (did you mean "X"?)` for Nearest, or "".
func DidYouMean(got string, known []string) string {
	if k, ok := Nearest(got, known); ok {
		return fmt.Sprintf(" (did you mean %q?)", k)
	}
	return ""
}

// Distance counts the single-character insertions, deletions, substitutions
// and adjacent swaps that turn a into b.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
