package cli

// Wording several commands share.

import (
	"fmt"
	"strings"
)

// plural is "1 script", "2 scripts".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func joinComma(s []string) string { return strings.Join(s, ", ") }
