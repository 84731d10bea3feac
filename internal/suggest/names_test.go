package suggest

import "testing"

func TestDidYouMean_NamesTheNearestKnownName(t *testing.T) {
	known := []string{"list", "run", "serve", "test", "trust", "PreToolUse", "PostToolUse", "--input", "--home"}
	cases := []struct{ got, want string }{
		{"lsit", ` (did you mean "list"?)`},
		{"PreToolUSE", ` (did you mean "PreToolUse"?)`},
		{"pretooluse", ` (did you mean "PreToolUse"?)`},
		{"--inptu", ` (did you mean "--input"?)`},
		{"tset", ` (did you mean "test"?)`},
		{"list", ""},
		{"deploy", ""},
		{"x", ""},
	}
	for _, c := range cases {
		if got := DidYouMean(c.got, known); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.got, got, c.want)
		}
	}
}
