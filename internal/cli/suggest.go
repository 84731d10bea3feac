package cli

import (
	"fmt"
	"strings"
)

// didYouMean is ` (did you mean "X"?)` for the known name nearest to got, or
// "" when none is near: a different case, or one or two edits away.
func didYouMean(got string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if k == got {
			return ""
		}
		if strings.EqualFold(k, got) {
			return fmt.Sprintf(" (did you mean %q?)", k)
		}
		if d := editDistance(strings.ToLower(got), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || bestD >= len(got) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance counts the single-character insertions, deletions,
// substitutions and adjacent swaps that turn a into b.
func editDistance(a, b string) int {
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
